"""The command line as a user drives it: exit codes, selection, suppression, fixes, cache."""

from __future__ import annotations

import json

from conftest import CLEAN, LEAKY, write

LEAK_LINE = LEAKY.splitlines().index("        losses.append(loss)") + 1


def test_finds_the_leak(cli, tmp_path):
    write(tmp_path / "train.py", LEAKY)
    r = cli("check", "train.py")
    assert r.code == 1
    assert f"train.py:{LEAK_LINE}:" in r.out and "PF101" in r.out


def test_clean_code_passes(cli, tmp_path):
    write(tmp_path / "train.py", CLEAN)
    r = cli("check", ".")
    assert r.code == 0, r.out
    assert "PF101" not in r.out


def test_default_path_is_cwd(cli, tmp_path):
    write(tmp_path / "sub" / "train.py", LEAKY)
    r = cli("check")
    assert r.code == 1 and "sub/train.py" in r.out


def test_exit_zero_and_fail_on(cli, tmp_path):
    write(tmp_path / "train.py", LEAKY)
    write(tmp_path / "pyproject.toml", '[tool.preflight.severity]\nPF101 = "note"\n')
    assert cli("check", "train.py").code == 0  # a note does not fail at the default fail-on=warning
    assert cli("check", "train.py", "--fail-on", "note").code == 1
    assert cli("check", "train.py", "--fail-on", "note", "--exit-zero").code == 0


def test_select_and_ignore(cli, tmp_path):
    write(tmp_path / "train.py", LEAKY)
    assert cli("check", "train.py", "--ignore", "PF101").code == 0
    assert cli("check", "train.py", "--ignore", "PF1").code == 0
    assert cli("check", "train.py", "--select", "PF1").code == 1


def test_unknown_rule_code_is_a_usage_error(cli, tmp_path):
    write(tmp_path / "train.py", LEAKY)
    r = cli("check", "train.py", "--select", "XYZ9")
    assert r.code == 2
    assert r.out == ""
    assert r.err.strip().splitlines() == [
        "preflight: error: unknown rule code or prefix 'XYZ9' in --select; see 'preflight rules'"]
    r = cli("check", "train.py", "--ignore", "PF1O1")
    assert r.code == 2 and "'PF1O1' in --ignore (did you mean PF1" in r.err


def test_selecting_a_gate_rule_in_check_or_audit_says_where_it_runs(cli, tmp_path):
    # `preflight rules` lists the gate's PF70x rules; check and audit do not run them
    write(tmp_path / "train.py", LEAKY)
    assert "PF701" in cli("rules").out
    for command in (("check", "train.py"), ("audit", "train.py")):
        r = cli(*command, "--select", "PF701")
        assert r.code == 2 and r.out == ""
        assert r.err.strip().splitlines() == [
            "preflight: error: 'PF701' in --select is a rule of `preflight gate` (the scheduler gate), "
            "which this command does not run; see 'preflight rules'"]
    # the gate's rules are PF70x and no check or plan rule is PF7xx: `--select PF7` selects only them
    for prefix in ("PF70", "PF7"):
        r = cli("check", "train.py", "--select", f"PF1,{prefix}")
        assert r.code == 2 and f"'{prefix}' in --select selects only PF701, PF702" in r.err
    # a code that exists nowhere keeps the plain message
    r = cli("check", "train.py", "--select", "PF799")
    assert r.code == 2 and "unknown rule code or prefix 'PF799'" in r.err
    write(tmp_path / "pyproject.toml", "[tool.preflight]\nignore = ['PF702']\n")
    r = cli("check", "train.py")
    assert r.code == 2 and "'PF702' in ignore" in r.err and "preflight gate" in r.err


def test_bad_settings_is_a_usage_error_with_file_and_line(cli, tmp_path):
    write(tmp_path / "train.py", LEAKY)
    write(tmp_path / "pyproject.toml", "[tool.preflight]\nselect = ['PF']\nignor = ['PF101']\n")
    r = cli("check", "train.py")
    assert r.code == 2
    lines = r.err.strip().splitlines()
    assert len(lines) == 1
    assert "pyproject.toml:3: error: unknown key 'ignor'" in lines[0] and "did you mean 'ignore'" in lines[0]


def test_unknown_code_in_settings(cli, tmp_path):
    write(tmp_path / "pyproject.toml", "[tool.preflight]\nignore = ['XX1']\n")
    r = cli("check", ".")
    assert r.code == 2 and "'XX1'" in r.err and "pyproject.toml" in r.err


def test_bad_flag_is_exit_2(cli, tmp_path):
    r = cli("check", "--frobnicate")
    assert r.code == 2 and "unrecognized arguments: --frobnicate" in r.err


def test_input_errors_exit_3_and_run_goes_on(cli, tmp_path):
    write(tmp_path / "bad.py", "def f(:\n")
    write(tmp_path / "bin.py", b"\0\0\0")
    write(tmp_path / "ok.py", CLEAN)
    r = cli("check", ".")
    assert r.code == 3
    assert "bad.py:1:" in r.out and "syntax error" in r.out
    assert "bin.py: error: binary file" in r.out
    write(tmp_path / "leak.py", LEAKY)
    r = cli("check", ".")
    assert r.code == 1 and "PF101" in r.out and "bad.py:1:" in r.out  # findings win, errors still listed


def test_missing_path(cli, tmp_path):
    r = cli("check", "nope.py")
    assert r.code == 3 and "nope.py: error: no such file or directory" in r.out


def test_suppressions(cli, tmp_path):
    leak = "        losses.append(loss)"
    for comment, expected in [
        ("  # noqa: PF101", 0), ("  # noqa", 0), ("  # preflight: ignore[PF101]", 0),
        ("  # preflight: ignore[PF1]", 0), ("  # noqa: PF999", 1), ("  # preflight: ignore[PF202]", 1),
    ]:
        write(tmp_path / "train.py", LEAKY.replace(leak, leak + comment))
        assert cli("check", "train.py").code == expected, comment
    write(tmp_path / "train.py", "# preflight: skip-file\n" + LEAKY)
    assert cli("check", "train.py").code == 0
    # a suppression inside a string is not a comment
    write(tmp_path / "train.py", LEAKY.replace(leak, leak + "; s = '# noqa'"))
    assert cli("check", "train.py").code == 1


def test_per_file_ignores(cli, tmp_path):
    write(tmp_path / "scripts" / "train.py", LEAKY)
    write(tmp_path / "src" / "train.py", LEAKY)
    write(tmp_path / "pyproject.toml", '[tool.preflight]\nper-file-ignores = {"scripts/*" = ["PF101"]}\n')
    r = cli("check", ".", "--format", "json")
    paths = {f["path"] for f in json.loads(r.out)["findings"]}
    assert paths == {"src/train.py"}


def test_json_contract(cli, tmp_path):
    write(tmp_path / "train.py", LEAKY)
    write(tmp_path / "bad.py", "x = (\n")
    r = cli("check", ".", "--format", "json")
    doc = json.loads(r.out)
    assert doc["version"] == 1
    finding = doc["findings"][0]
    assert set(finding) >= {"code", "severity", "category", "path", "line", "column", "end_line",
                            "end_column", "message", "evidence", "fix"}
    assert finding["path"] == "train.py" and finding["line"] == LEAK_LINE and finding["column"] >= 1
    assert finding["fix"] is None or set(finding["fix"]) == {"description", "applicability"}
    assert doc["errors"] == [{"path": "bad.py", "line": 1, "message": doc["errors"][0]["message"]}]
    again = json.loads(cli("check", ".", "--format", "json", "--no-cache").out)
    assert (again["findings"], again["errors"]) == (doc["findings"], doc["errors"])  # deterministic


def test_output_file_and_env_format(cli, tmp_path, monkeypatch):
    write(tmp_path / "train.py", LEAKY)
    r = cli("check", "train.py", "--format", "sarif", "--output", "out.sarif")
    assert r.out == "" and json.loads((tmp_path / "out.sarif").read_text())["version"] == "2.1.0"


def test_statistics(cli, tmp_path):
    write(tmp_path / "a.py", LEAKY)
    write(tmp_path / "b.py", LEAKY)
    r = cli("check", ".", "--statistics")
    assert r.code == 1
    assert r.out.splitlines()[0].split("\t")[:2] == ["2", "PF101"]


def test_fix_diff_and_idempotence(cli, tmp_path):
    path = write(tmp_path / "train.py", LEAKY)
    r = cli("check", "train.py", "--diff")
    assert r.code == 1
    assert "-        losses.append(loss)" in r.out and "+        losses.append(loss." in r.out
    assert path.read_text() == LEAKY  # --diff writes nothing
    r = cli("check", "train.py", "--fix")
    assert r.code == 0, r.out
    fixed = path.read_text()
    assert fixed == LEAKY.replace("losses.append(loss)", "losses.append(loss.detach())")
    r = cli("check", "train.py", "--fix")
    assert r.code == 0 and path.read_text() == fixed  # second --fix changes nothing
    assert cli("check", "train.py", "--diff").out == ""


def test_fix_never_touches_unparsable_file(cli, tmp_path):
    bad = write(tmp_path / "bad.py", LEAKY + "def broken(:\n")
    before = bad.read_bytes()
    r = cli("check", ".", "--fix")
    assert r.code == 3 and bad.read_bytes() == before


def test_baseline_adoption(cli, tmp_path):
    write(tmp_path / "old.py", LEAKY)
    r = cli("check", ".", "--write-baseline", "baseline.json")
    assert (tmp_path / "baseline.json").exists()
    assert cli("check", ".", "--baseline", "baseline.json").code == 0
    # unrelated lines added above the old finding do not resurrect it
    write(tmp_path / "old.py", "import os\nimport sys\n" + LEAKY)
    assert cli("check", ".", "--baseline", "baseline.json").code == 0
    write(tmp_path / "new.py", LEAKY)
    r = cli("check", ".", "--baseline", "baseline.json", "--format", "json")
    assert r.code == 1 and {f["path"] for f in json.loads(r.out)["findings"]} == {"new.py"}
    write(tmp_path / "broken.json", "{")
    r = cli("check", ".", "--baseline", "broken.json")
    assert r.code == 2 and "broken.json:1: error: baseline is not valid JSON" in r.err


def test_cache_warm_run_is_identical(cli, tmp_path):
    for i in range(5):
        write(tmp_path / f"m{i}.py", LEAKY if i % 2 else CLEAN)
    cold = cli("check", ".", "--format", "json")
    warm = cli("check", ".", "--format", "json")
    cold_doc, warm_doc = json.loads(cold.out), json.loads(warm.out)
    assert cold_doc["findings"] == warm_doc["findings"]
    assert warm_doc["summary"]["files_cached"] == 5 and cold_doc["summary"]["files_cached"] == 0
    write(tmp_path / "m0.py", LEAKY)  # an edit invalidates that file only
    third = json.loads(cli("check", ".", "--format", "json").out)
    assert third["summary"]["files_cached"] == 4 and len(third["findings"]) == len(cold_doc["findings"]) + 1
    assert (tmp_path / ".preflight_cache" / ".gitignore").exists()
    nocache = json.loads(cli("check", ".", "--format", "json", "--no-cache").out)
    assert nocache["summary"]["files_cached"] == 0


def test_process_pool_output_identical_to_serial(cli, tmp_path):
    for i in range(40):
        write(tmp_path / f"pkg{i % 4}" / f"m{i}.py", LEAKY if i % 3 else CLEAN)
    write(tmp_path / "pkg0" / "broken.py", "x = (\n")
    serial = cli("check", ".", "-j", "1", "--no-cache", "--format", "json")
    pooled = cli("check", ".", "-j", "2", "--no-cache", "--format", "json")
    assert serial.code == pooled.code == 1
    assert serial.out == pooled.out


def test_notebook_findings_name_the_cell(cli, tmp_path):
    cells = [{"cell_type": "markdown", "source": "# Train", "metadata": {}},
             {"cell_type": "code", "source": LEAKY, "metadata": {}, "outputs": [], "execution_count": None}]
    write(tmp_path / "train.ipynb", json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    r = cli("check", ".", "--format", "json")
    assert r.code == 1
    f = json.loads(r.out)["findings"][0]
    assert f["path"] == "train.ipynb" and f["cell"] == 2 and f["line"] == LEAK_LINE
    assert f["fix"] is None  # fixes are not applied to notebooks


def test_explain_and_rules(cli):
    r = cli("explain", "PF101")
    assert r.code == 0 and r.out.startswith("# PF101 `retained-graph`")
    assert "```python" in r.out
    assert cli("explain", "retained-graph").out == r.out
    r = cli("explain", "PF1O1")
    assert r.code == 2 and "unknown rule code 'PF1O1'" in r.err
    r = cli("rules")
    assert r.code == 0 and any(line.startswith("PF101  retained-graph") for line in r.out.splitlines())
    doc = json.loads(cli("rules", "--format", "json").out)
    assert {"code", "name", "severity", "category", "summary", "explanation"} <= set(doc[0])


def test_no_command_prints_help(cli):
    r = cli()
    assert r.code == 2 and "usage: preflight" in r.out


BAD_INPUTS = {
    "syntax.py": ("x = (\n", "syntax.py:1:"),  # the parser's own words differ between Pythons
    "py2.py": ("print 'hello'\n", "py2.py:1:"),
    "latin.py": (b"s = 'caf\xe9'\n", "latin.py:1: error: not valid utf-8 (byte 0xe9 at line 1)"),
    "blob.py": (b"\x7fELF\0\0\0", "blob.py: error: binary file (contains NUL bytes); skipped"),
    "nb.ipynb": ("{oops", "nb.ipynb:1:2: error: not a valid notebook: invalid JSON"),
}


def test_each_kind_of_bad_input_is_one_clear_line(cli, tmp_path):
    import os

    for name, (content, _) in BAD_INPUTS.items():
        write(tmp_path / name, content)
    os.symlink("loop_b.py", tmp_path / "loop_a.py")
    os.symlink("loop_a.py", tmp_path / "loop_b.py")
    write(tmp_path / "good.py", LEAKY)
    r = cli("check", ".", "--no-cache")
    assert r.code == 1  # the good file's finding still reported: the run went on
    lines = r.out.splitlines()
    for name, (_, expected) in BAD_INPUTS.items():
        matching = [line for line in lines if line.startswith(name)]
        assert len(matching) == 1, (name, matching)
        assert matching[0].startswith(expected), (matching[0], expected)
    assert "error: syntax error:" in next(line for line in lines if line.startswith("syntax.py"))
    assert "error: Python 2 syntax is not supported" in next(line for line in lines if line.startswith("py2.py"))
    assert "loop_a.py: error: symbolic link loop; skipped" in lines
    os.remove(tmp_path / "good.py")
    assert cli("check", ".", "--no-cache").code == 3


def test_progress_on_a_terminal_only(cli, tmp_path, monkeypatch):
    import io
    import sys

    for i in range(210):
        write(tmp_path / f"m{i:03}.py", CLEAN)

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty = Tty()
    monkeypatch.setattr(sys, "stderr", tty)
    r = cli("check", ".", "--no-cache", "-j", "1")
    assert r.code == 0
    assert "preflight: checked 210/210 files" in tty.getvalue()
    tty2 = Tty()
    monkeypatch.setattr(sys, "stderr", tty2)
    cli("check", ".", "--no-cache", "-j", "1", "-q")
    assert tty2.getvalue() == ""


def test_a_cache_entry_that_cannot_be_written_leaves_no_temporary_file(cli, tmp_path):
    write(tmp_path / "train.py", LEAKY)
    cold = json.loads(cli("check", ".", "--format", "json").out)
    entries = list((tmp_path / ".preflight_cache").rglob("*.json"))
    assert len(entries) == 1
    entries[0].unlink()
    entries[0].mkdir()  # the rename onto the entry now fails
    again = json.loads(cli("check", ".", "--format", "json").out)
    assert again["findings"] == cold["findings"] and again["summary"]["files_cached"] == 0
    assert not list((tmp_path / ".preflight_cache").rglob("*.tmp"))
