"""det129: PF694 (the @hydra.main function reads a key the composed config lacks) and PF172's not-in-view form,
as a user sees them: where they fire, and the launches and modules that keep them silent."""

from __future__ import annotations

from preflight.plan_rules import example_findings
from preflight.rules.plan._pf172_examples import _LDM
from preflight.rules.plan._pf694_examples import _APP, _NESTED


def _bug(template: str, **kw: str) -> str:
    return template.format(pin="", **kw)


def test_pf694_fires_on_the_read_line_with_the_missing_key_named() -> None:
    found = example_findings("PF694", _bug(_APP, read="config.fp_loss", before="", extra_key="", args=""))
    assert [(f.path.endswith("generate_output.py"), f.span.line) for f in found] == [(True, 15)]
    assert "Key 'fp_loss' is not in struct" in found[0].message
    assert "+fp_loss=" in found[0].message


def test_pf694_names_the_parent_node_of_a_nested_key() -> None:
    found = example_findings("PF694", _bug(_NESTED, read="cfg.optim.warmup_steps", extra_key="", args=""))
    assert len(found) == 1 and "under `optim`" in found[0].message


def test_pf694_silent_without_a_launch_line() -> None:
    # the same project with no launch command: an override preflight cannot see may add the key
    example = _bug(_APP, read="config.fp_loss", before="", extra_key="", args="")
    example = example[:example.index("# --- launch")]
    assert example_findings("PF694", example) == []


def test_pf694_silent_when_the_launch_runs_another_script() -> None:
    example = _bug(_APP, read="config.fp_loss", before="", extra_key="", args="")
    example = example.replace("python generate_output.py", "python other.py")
    assert example_findings("PF694", example) == []


def test_pf172_fires_on_a_validation_key_when_the_module_is_not_in_view() -> None:
    found = example_findings("PF172", _LDM.format(key="val/loss_simple_ema", steps="every_n_train_steps=5000",
                                                  pin=""))
    assert len(found) == 1 and "val/loss_simple_ema" in found[0].message


def test_pf172_silent_on_other_keys_when_the_module_is_not_in_view() -> None:
    for key in ("train/loss", "step", "valence_loss", "global_step"):
        assert example_findings("PF172", _LDM.format(key=key, steps="every_n_train_steps=5000", pin="")) == [], key
