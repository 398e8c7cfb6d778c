"""Rule examples are machine-independent: an example project is built two empty folders below
the temporary folder, so Python files lying in a shared temporary folder (``/tmp/*.py`` of other
programs) never decide whether a config belongs to a Lightning project (validate_project reads a
marker-less project's folder and the two above it)."""

from __future__ import annotations

import tempfile

from preflight.plan_rules import example_findings
from preflight.registry import all_rules


def _lightning_cli_example() -> str:
    bad = all_rules(plugins=False)["PF601"].bad_examples
    return next(e for e in bad if "batch_size: 128  # error: PF601" in e)


def test_a_shared_temp_folder_with_other_python_files_does_not_change_an_example(tmp_path, monkeypatch):
    example = _lightning_cli_example()
    assert [f.span.line for f in example_findings("PF601", example)] == [5]
    # another program's scripts in the temporary folder, none naming Lightning
    (tmp_path / "est_rows.py").write_text("import json\nprint(json.dumps({}))\n")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert [f.span.line for f in example_findings("PF601", example)] == [5]
