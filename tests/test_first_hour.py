"""Issue 20, the first hour of a user: each defect a new user hit, as the user sees it."""

from __future__ import annotations

import json

from conftest import LEAKY, write

LEAK = "        losses.append(loss)"
LEAK_LINE = LEAKY.splitlines().index(LEAK) + 1


# -- defect 2: a typo in a suppression code --------------------------------------------------

def test_a_typo_in_noqa_silences_nothing_and_is_reported(cli, tmp_path):
    write(tmp_path / "train.py", LEAKY.replace(LEAK, LEAK + "  # noqa: PF1O1"))
    r = cli("check", "train.py", "--format", "json")
    found = {(f["code"], f["line"]) for f in json.loads(r.out)["findings"]}
    assert ("PF101", LEAK_LINE) in found  # the typo did not widen to PF1 or to a bare noqa
    assert ("PF901", LEAK_LINE) in found
    assert r.code == 1


def test_a_typo_in_preflight_ignore_is_reported(cli, tmp_path):
    write(tmp_path / "train.py", LEAKY.replace(LEAK, LEAK + "  # preflight: ignore[PF1O1]"))
    r = cli("check", "train.py")
    assert f"train.py:{LEAK_LINE}:" in r.out and "PF101" in r.out
    assert "PF901 `# preflight: ignore[...]` names `PF1O1`" in r.out


def test_valid_and_invalid_codes_in_one_comment(cli, tmp_path):
    write(tmp_path / "train.py", LEAKY.replace(LEAK, LEAK + "  # noqa: PF101, PF1O1, E501"))
    r = cli("check", "train.py", "--format", "json")
    codes = [f["code"] for f in json.loads(r.out)["findings"]]
    assert codes == ["PF901"]  # PF101 silenced, E501 (another tool's) left alone


def test_an_unused_suppression_is_a_note(cli, tmp_path):
    write(tmp_path / "train.py", LEAKY.replace("import torch", "import torch  # noqa: PF101"))
    r = cli("check", "train.py", "--format", "json")
    unused = [f for f in json.loads(r.out)["findings"] if f["code"] == "PF902"]
    assert [(f["line"], f["severity"]) for f in unused] == [(1, "note")]
    # a rule that did not run cannot be called unused
    r = cli("check", "train.py", "--format", "json", "--select", "PF2,PF902")
    assert [f["code"] for f in json.loads(r.out)["findings"]] == []
    # the warnings themselves can be switched off
    r = cli("check", "train.py", "--format", "json", "--ignore", "PF902")
    assert "PF902" not in r.out
