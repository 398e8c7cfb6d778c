"""Issue 15, branch jobs115: ``compile.enabled`` False when the loop is in a training module the launcher
imports by a name its config gives, and no file of the project, config or launch argument names
``torch.compile`` (adapters/named_module_absence.py). Fixtures of our own copying the shape of
facebookresearch/jepa @ 51c59d5 and facebookresearch/vjepa2 (``app/scaffold.py``
``importlib.import_module(f'app.{app}.train').main(args=args)``, the loop in ``app/vjepa/train.py``), with
twins that must stay unknown."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write
from test_jobs98_named_module import LAUNCHER, SCAFFOLD, TRAIN, YAML


def _plan(cli, tmp_path, train: str = TRAIN, yaml: str = YAML, extra: dict | None = None) -> dict:
    files = {"app/__init__.py": "", "app/main_distributed.py": LAUNCHER.replace("GPUS", "tasks_per_node"),
             "app/scaffold.py": SCAFFOLD, "app/video/__init__.py": "", "app/video/train.py": train,
             "configs/run.yaml": yaml.replace("{app}", "video")}
    files.update(extra or {})
    write(tmp_path, files)
    return plan_of(cli, "app/main_distributed.py", "--", "--fname", "configs/run.yaml", cwd=tmp_path)


def test_loop_in_a_config_named_module_without_compile_is_not_compiled(cli, tmp_path):
    got = fact(_plan(cli, tmp_path), "compile.enabled")
    assert got is not None and got.value is False, got
    assert got.confidence == "medium" and got.source.path == "app/video/train.py" and got.source.line == 10
    assert "hands its work to" in got.source.detail


def test_twin_compile_in_the_named_module_is_not_claimed_off(cli, tmp_path):
    train = TRAIN.replace("        opt = torch.optim", "        model = torch.compile(model)\n        opt = torch.optim")
    assert train != TRAIN
    got = fact(_plan(cli, tmp_path, train=train), "compile.enabled")
    assert got is None or got.value is not False, got


def test_twin_compile_in_a_module_the_delegate_may_import_is_not_claimed_off(cli, tmp_path):
    # ``src/utils.py`` compiles (nothing says whether the delegate calls it): the whole project names it
    helper = "import torch\n\n\ndef wrap(model):\n    return torch.compile(model)\n"
    got = fact(_plan(cli, tmp_path, extra={"src/__init__.py": "", "src/utils.py": helper}), "compile.enabled")
    assert got is None or got.value is not False, got


def test_twin_compile_switch_in_the_config_is_not_claimed_off(cli, tmp_path):
    got = fact(_plan(cli, tmp_path, yaml=YAML + "    compile: true\n"), "compile.enabled")
    assert got is None or got.value is not False, got


def test_twin_delegate_without_a_loop_stays_unknown(cli, tmp_path):
    # the module builds and evaluates, its training is not seen: no absence is read
    train = TRAIN.replace("            loss.backward()\n", "")
    assert train != TRAIN
    got = fact(_plan(cli, tmp_path, train=train), "compile.enabled")
    assert got is None, got
