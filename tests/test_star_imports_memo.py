"""debt51: a package whose ``__init__.py`` star-imports modules that star-import shared ones (timm's
``timm/models/__init__.py`` shape) is read once per (file, depth) for one script, however many names the
script imports from it (adapters/star_imports.py ``memo``): auditing timm's ``train.py`` went from 68.9 to
13.1 CPU-seconds (bench/speed_debt51.txt) with the same plan; and the four adapters that ask for a script's
imported names share one reading per audit. The names still resolve to the files that define them, and
the plan's model is the same."""

from __future__ import annotations

import textwrap
from pathlib import Path

from preflight.audit import build_plan
from preflight.sources import FileError, SourceText, parse_python

MAIN = """\
    import torch
    from models import Helper, LayerOne, NetA, NetB, NetC

    net = NetA()
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    for x, y in loader:
        optimizer.zero_grad()
        net(x).sum().backward()
        optimizer.step()
"""

FILES = {
    "models/__init__.py": "from .a import *\nfrom .b import *\nfrom .c import *\n",
    "models/a.py": """\
        import torch.nn as nn
        from .layers import *


        class NetA(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(32, 10)
    """,
    "models/b.py": "from .layers import *\n\n\nclass NetB:\n    pass\n",
    "models/c.py": "from .layers import *\n\n\nclass NetC:\n    pass\n",
    "models/layers.py": "from .common import *\n\n\nclass LayerOne:\n    pass\n",
    "models/common.py": "class Helper:\n    pass\n",
}


def _project(tmp_path: Path) -> Path:
    for name, text in FILES.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    main = tmp_path / "main.py"
    main.write_text(textwrap.dedent(MAIN), encoding="utf-8")
    return main


def test_each_star_imported_file_is_read_once_per_depth_and_names_resolve_to_their_files(tmp_path, monkeypatch):
    from preflight.adapters import star_imports
    from preflight.adapters.model_imported import _imported_classes

    main = _project(tmp_path)
    text = main.read_text(encoding="utf-8")
    script = parse_python(SourceText(path=main, display="main.py", kind="python", raw=text.encode(), text=text))
    assert not isinstance(script, FileError)
    reads: list[tuple[str, int]] = []
    real = star_imports._star_names

    def counted(path, depth, memo):
        reads.append((path.name, depth))
        return real(path, depth, memo)

    monkeypatch.setattr(star_imports, "_star_names", counted)
    names = _imported_classes(script)
    models = tmp_path / "models"
    assert names["NetA"] == (models / "a.py", "NetA")
    assert names["NetC"] == (models / "c.py", "NetC")
    assert names["LayerOne"] == (models / "layers.py", "LayerOne")
    assert names["Helper"] == (models / "common.py", "Helper")
    # without the memo: 5 names x (the package, 3 modules, 3 x layers, 3 x common) = 50 reads
    assert sorted(reads) == sorted([("__init__.py", 0), ("a.py", 1), ("b.py", 1), ("c.py", 1),
                                    ("layers.py", 2), ("common.py", 3)])


def test_the_plan_names_the_model_the_star_imports_lead_to(tmp_path):
    main = _project(tmp_path)
    plan, _ = build_plan([main], [], root=tmp_path)
    fact = plan.resolve("model.num_parameters")
    assert fact is not None and fact.value == 32 * 10 + 10
    assert fact.source.path == "main.py" and fact.source.line == 4


def test_one_audit_reads_the_scripts_imports_once_for_every_adapter_that_asks(tmp_path, monkeypatch):
    # model_imported (detect and contribute), model_tuple_builder and model_attention share one reading
    # (model_imported.imported_classes, project.cache): before, each followed timm's package again
    from preflight.adapters import model_imported

    main = _project(tmp_path)
    calls: list[str] = []
    real = model_imported._imported_classes

    def counted(script):
        calls.append(script.source.display)
        return real(script)

    monkeypatch.setattr(model_imported, "_imported_classes", counted)
    plan, _ = build_plan([main], [], root=tmp_path)
    assert calls == ["main.py"]
    fact = plan.resolve("model.num_parameters")
    assert fact is not None and fact.value == 32 * 10 + 10
