"""``python -m pkg.tools.train`` mapped by the package's import hook onto the root ``tools/``
folder (issue 15, set 25: Megvii-BaseDetection/YOLOX ``yolox/tools/__init__.py`` @ 6ddff48).
Twins: a package ``__init__.py`` without such a hook, and a hook whose folder has no such file."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

HOOK = """\
    import sys
    from importlib import abc, util
    from pathlib import Path

    _TOOLS_PATH = Path(__file__).resolve().parent.parent.parent / "tools"

    class _PathFinder(abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if not name.startswith("pkg.tools."):
                return
            target_file = _TOOLS_PATH / (name.split(".")[-1] + ".py")
            if target_file.is_file():
                return util.spec_from_file_location(name, target_file)

    sys.meta_path.append(_PathFinder())
"""

TRAIN = """\
    import torch
    model = torch.nn.Linear(4, 4)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in torch.utils.data.DataLoader(list(range(8)), batch_size=2):
        model(x).sum().backward()
        opt.step()
        opt.zero_grad()
"""


def _job(tmp_path, init: str, name: str = "train.py") -> None:
    write(tmp_path, {"pkg/__init__.py": "", "pkg/tools/__init__.py": init, f"tools/{name}": TRAIN})


def test_a_module_mapped_by_the_packages_import_hook_is_audited(cli, tmp_path):
    _job(tmp_path, HOOK)
    plan = plan_of(cli, "--", "python", "-m", "pkg.tools.train", cwd=tmp_path)
    assert fact(plan, "optimizer.name").value == "SGD"
    assert any("import hook" in n and "tools/train.py" in n for n in plan["notes"])


def test_twin_a_package_without_a_hook_does_not_map_the_module(cli, tmp_path):
    _job(tmp_path, "# tools\n")
    res = cli("audit", "--emit-plan", "json", "--", "python", "-m", "pkg.tools.train", cwd=tmp_path)
    assert "import hook" not in res.out + res.err
    assert "pkg.tools.train" in res.out + res.err  # said not found


def test_twin_a_hook_whose_folder_lacks_the_file_maps_nothing(cli, tmp_path):
    _job(tmp_path, HOOK, name="eval.py")
    res = cli("audit", "--emit-plan", "json", "--", "python", "-m", "pkg.tools.train", cwd=tmp_path)
    assert "import hook" not in res.out + res.err
