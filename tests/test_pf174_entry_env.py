"""PF174's entry-file form (det127): what a user sees when a second Hydra entry file misses the env var the
first one sets in code."""

from __future__ import annotations

from preflight.rule_examples import example_findings
from preflight.rules.plan import _pf174_examples as ex
from preflight.rules.plan.pf174_hydra_run_dir_env_var_never_set import HydraRunDirEnvVarNeverSet


def _pf174(example: str) -> list:
    return [f for f in example_findings(HydraRunDirEnvVarNeverSet, example, ("PF174",)) if f.code == "PF174"]


def test_second_entry_without_setup_root_is_reported_on_the_env_key_with_the_other_entry_as_evidence() -> None:
    (finding,) = _pf174(ex._TEMPLATE)
    assert finding.path.endswith("configs/paths/default.yaml") and finding.span.line == 1
    assert "PROJECT_ROOT" in finding.message and "src/my_main.py" in finding.message
    assert [(e.path, e.line) for e in finding.evidence] == [("src/train.py", 5)]


def test_launching_the_entry_that_sets_the_variable_is_silent() -> None:
    assert _pf174(ex._ENVIRON)
    assert not _pf174(ex._quiet(ex._ENVIRON).replace("python sweep_lr.py", "python prepare_and_train.py"))


def test_importing_the_other_entry_file_is_silent() -> None:
    imported = ex._quiet(ex._TEMPLATE).replace("from src.tasks import train_task\n\n\n@hydra.main",
                                                "from src.train import train_task\n\n\n@hydra.main")
    assert imported != ex._quiet(ex._TEMPLATE)
    assert not _pf174(imported)
