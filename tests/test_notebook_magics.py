"""Notebooks as users write them (issue 18, section 3): IPython magics must not cost the
analysis, and one cell that cannot be parsed must not drop the others."""

from __future__ import annotations

import json
from pathlib import Path

from preflight.diagnostics import FileError
from preflight.engine import Selection, analyse_parsed
from preflight.sources import SourceText, parse_python

LOOP = ("for x, y in loader:\n    loss = torch.nn.functional.mse_loss(model(x), y)\n"
        "    loss.backward()\n    opt.step()")
SETUP = "import torch\nmodel = torch.nn.Linear(4, 2)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)"


def notebook(*cells: str):
    doc = {"cells": [{"cell_type": "code", "source": c, "metadata": {}, "outputs": [], "execution_count": None}
                     for c in cells], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    text = json.dumps(doc)
    src = SourceText(path=Path("nb.ipynb"), display="nb.ipynb", kind="notebook", raw=text.encode(), text=text)
    parsed = parse_python(src)
    assert not isinstance(parsed, FileError), parsed
    return sorted((f.code, f.cell, f.span.line) for f in analyse_parsed(parsed, Selection(codes=("PF103",))))


def test_shell_line_continued_with_a_backslash():
    assert notebook("!pip install transformers \\\n    accelerate", SETUP, LOOP) == [("PF103", 3, 4)]


def test_shell_output_assigned_to_a_name():
    assert notebook("files = !ls\n" + SETUP, LOOP) == [("PF103", 2, 4)]


def test_time_and_capture_cells_are_analysed_as_their_body():
    for magic in ("%%time", "%%timeit", "%%capture out"):
        assert notebook(SETUP, magic + "\n" + LOOP) == [("PF103", 2, 5)], magic


def test_a_bash_cell_is_not_python():
    assert notebook(SETUP, "%%bash\nfor f in *; do echo $f; done", LOOP) == [("PF103", 3, 4)]


def test_line_time_magic_keeps_its_statement():
    assert notebook(SETUP, "%time " + LOOP.splitlines()[0] + " pass") == []  # the statement parses: kept
    assert notebook(SETUP, "%time loss = opt.step()") == []


def test_one_unparsable_cell_does_not_drop_the_others():
    assert notebook(SETUP, "def broken(:\n    pass", LOOP) == [("PF103", 3, 4)]


def test_the_unparsable_cell_is_reported_by_check(tmp_path):
    import subprocess
    import sys

    doc = {"cells": [{"cell_type": "code", "source": c, "metadata": {}, "outputs": [], "execution_count": None}
                     for c in (SETUP, "def broken(:\n    pass", LOOP)], "metadata": {}, "nbformat": 4,
           "nbformat_minor": 5}
    (tmp_path / "nb.ipynb").write_text(json.dumps(doc), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "preflight", "check", "nb.ipynb", "--no-cache"],
                          cwd=tmp_path, capture_output=True, text=True)
    assert "nb.ipynb:cell 2:1:12: error: syntax error" in proc.stdout
    assert "nb.ipynb:cell 3:4:5: PF103" in proc.stdout
