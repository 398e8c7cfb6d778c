"""Four-digit rule codes (PF1000 and up) next to three-digit ones: a complete code names one rule
only, a shorter token is a prefix, and listings order codes by number (PF999 < PF1000).

A test-only rule PF1009 is registered for each test and removed after it; it fires on the same
``ProjectConfiguration(...)`` call as the built-in PF100 (its bad example), so a selector or a
suppression comment that still matched by text prefix would silence or select both."""

from __future__ import annotations

import ast
import json
import textwrap
from typing import Iterable

import pytest

from preflight import engine, registry
from preflight.codes import code_matches, code_sort_key, is_full_code, sorted_codes
from preflight.config import SettingsError, resolve_codes
from preflight.diagnostics import Category, Finding, Severity
from preflight.rules.base import Rule
from preflight.suppressions import interpret, silences, with_code_disabled


class _FourDigit(Rule):
    code = "PF1009"
    name = "test-four-digit-code"
    severity = Severity.WARNING
    category = Category.CONFIG
    summary = "test-only rule with a four-digit code"
    explanation = "Fires on every `ProjectConfiguration(...)` call (a test of code selection)."
    bad_examples = ("ProjectConfiguration()\n",)
    good_examples = ("print()\n",)

    def check(self, ctx) -> Iterable[Finding]:
        for call in ctx.nodes(ast.Call):
            if isinstance(call.func, ast.Name) and call.func.id == "ProjectConfiguration":
                yield ctx.finding(self, call, "a ProjectConfiguration call")


@pytest.fixture
def pf1009(monkeypatch):
    built_in = registry.all_rules()  # the built-ins first, so PF1009 lands after them in the dict
    taken = [c for c in ("PF1008", "PF1009") if c in built_in]
    assert not taken, f"{taken} became real rules: give this test two other free PF100x codes"
    monkeypatch.setitem(registry._RULES, "PF1009", _FourDigit)  # removed again after the test
    monkeypatch.setattr(engine, "_KNOWN_CODES", [])  # the codes a suppression comment may name
    monkeypatch.setattr(engine, "_RULE_INSTANCES", {})
    yield _FourDigit


TRAIN = '''\
import torch
from accelerate import Accelerator
from accelerate.utils import ProjectConfiguration

accelerator = Accelerator(
    project_dir="runs/exp1",
    project_config=ProjectConfiguration(project_dir="runs/exp1", total_limit=20),{comment}
)


def save(step):
    accelerator.save_state(output_dir=f"runs/exp1/step_{{step}}")


x = torch.randn(4)
x.to("cuda")
'''
LINE = 7  # PF100 and PF1009 both report the ProjectConfiguration call; PF303 is on line 16


def _codes(cli, tmp_path, *args: str, comment: str = "") -> list[tuple[str, int]]:
    (tmp_path / "train.py").write_text(TRAIN.format(comment=comment), encoding="utf-8")
    result = cli("check", ".", "--format", "json", "--no-cache", "--exit-zero", *args, cwd=tmp_path)
    assert result.code == 0, result.err
    return sorted((f["code"], f["line"]) for f in json.loads(result.out)["findings"])


def test_select_a_three_digit_code_does_not_run_the_four_digit_one(pf1009, cli, tmp_path) -> None:
    assert _codes(cli, tmp_path, "--select", "PF100") == [("PF100", LINE)]
    assert _codes(cli, tmp_path, "--select", "PF1009") == [("PF1009", LINE)]


def test_a_prefix_selects_both(pf1009, cli, tmp_path) -> None:
    both = [("PF100", LINE), ("PF1009", LINE)]
    assert _codes(cli, tmp_path, "--select", "PF1") == both
    assert _codes(cli, tmp_path, "--select", "PF10") == both  # PF100-PF109 and PF1009-PF1099


def test_ignore_a_three_digit_code_keeps_the_four_digit_one(pf1009, cli, tmp_path) -> None:
    assert _codes(cli, tmp_path, "--select", "PF1", "--ignore", "PF100") == [("PF1009", LINE)]
    assert _codes(cli, tmp_path, "--select", "PF1", "--ignore", "PF1009") == [("PF100", LINE)]


def test_noqa_names_one_code(pf1009, cli, tmp_path) -> None:
    sel = ("--select", "PF1,PF9")
    assert _codes(cli, tmp_path, *sel, comment="  # noqa: PF100") == [("PF1009", LINE)]
    assert _codes(cli, tmp_path, *sel, comment="  # noqa: PF1009") == [("PF100", LINE)]
    assert _codes(cli, tmp_path, *sel, comment="  # preflight: ignore[PF100]") == [("PF1009", LINE)]
    assert _codes(cli, tmp_path, *sel, comment="  # noqa: PF10") == []
    assert _codes(cli, tmp_path, *sel, comment="  # noqa: PF100, PF1009") == []


def test_a_four_digit_code_that_names_no_rule_is_invalid(pf1009, cli, tmp_path) -> None:
    # PF1008 is no rule, and no longer a "prefix" of anything: reported, silences nothing
    got = _codes(cli, tmp_path, "--select", "PF1,PF9", comment="  # noqa: PF1008")
    assert got == [("PF100", LINE), ("PF1009", LINE), ("PF901", LINE)]


def test_per_file_ignores_name_one_code(pf1009, cli, tmp_path) -> None:
    (tmp_path / "pyproject.toml").write_text(textwrap.dedent("""\
        [tool.preflight]
        select = ["PF1"]

        [tool.preflight.per-file-ignores]
        "train.py" = ["PF100"]
        """), encoding="utf-8")
    assert _codes(cli, tmp_path) == [("PF1009", LINE)]


def test_rules_listing_orders_codes_by_number(pf1009, cli) -> None:
    listed = [line.split()[0] for line in cli("rules").out.splitlines() if line.strip()]
    three_digit = [c for c in listed if c.startswith("PF") and len(c) == 5]
    assert max(listed.index(c) for c in three_digit) < listed.index("PF1009")  # PF9xx included
    assert listed == sorted_codes(listed)
    assert listed.index("PF100") < listed.index("PF101") < listed.index("PF1009")


def test_sarif_rule_array_and_statistics_in_numeric_order(pf1009, cli, tmp_path) -> None:
    (tmp_path / "train.py").write_text(TRAIN.format(comment=""), encoding="utf-8")
    out = cli("check", ".", "--select", "PF1,PF3", "--format", "sarif", "--no-cache", "--exit-zero", cwd=tmp_path).out
    run = json.loads(out)["runs"][0]
    ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert ids == ["PF100", "PF303", "PF1009"]  # as text PF1009 would sort before PF303
    for res in run["results"]:
        assert ids[res["ruleIndex"]] == res["ruleId"]
    stats = cli("check", ".", "--select", "PF1,PF3", "--statistics", "--no-cache", "--exit-zero", cwd=tmp_path).out
    assert [line.split("\t")[1] for line in stats.splitlines() if "\t" in line] == ["PF100", "PF303", "PF1009"]


def test_the_helpers() -> None:
    assert is_full_code("PF100") and is_full_code("pf1009") and not is_full_code("PF10")
    assert code_matches("PF100", "PF100") and not code_matches("PF1009", "PF100")
    assert code_matches("PF1009", "PF10") and code_matches("PF1009", "pf1") and code_matches("PF101", "PF")
    assert sorted_codes(["PF1009", "PF999", "PF101", "ACME001"]) == ["ACME001", "PF101", "PF999", "PF1009"]
    assert code_sort_key("PF999") < code_sort_key("PF1009")


def test_suppression_comments_and_the_editor_action() -> None:
    known = ("PF100", "PF101", "PF1009")
    only_100 = interpret("# noqa: PF100", known)
    assert silences(only_100, "PF100") == "PF100" and silences(only_100, "PF1009") is None
    prefix = interpret("# noqa: PF10", known)
    assert silences(prefix, "PF1009") == "PF10" and silences(prefix, "PF101") == "PF10"
    assert interpret("# noqa: PF1008", known).invalid == ("PF1008",)
    # "disable PF1009 for this line" adds it next to PF100 instead of reading PF100 as covering it
    assert with_code_disabled("x = 1  # noqa: PF100\n", "PF1009") == "x = 1  # noqa: PF100, PF1009\n"
    assert with_code_disabled("x = 1  # noqa: PF10\n", "PF1009") is None


def test_selectors_that_match_nothing_say_so() -> None:
    available = ["PF100", "PF101"]
    with pytest.raises(SettingsError, match="unknown rule code or prefix 'PF1009'"):
        resolve_codes(["PF1009"], [], available)
    assert resolve_codes(["PF10"], ["PF100"], [*available, "PF1009"]) == ["PF101", "PF1009"]
