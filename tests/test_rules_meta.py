"""Every rule's documentation is executable: its examples are its tests."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from preflight.diagnostics import FileError
from preflight.docs import rules_reference
from preflight.engine import Selection, analyse_parsed
from preflight.plan_rules import PlanRule, example_findings
from preflight.registry import all_rules
from preflight.sources import SourceText, parse_python

RULES = all_rules(plugins=False)
REPO = Path(__file__).resolve().parent.parent


def findings_for(code: str, text: str):
    if issubclass(RULES[code], PlanRule):  # a small project: script and configs
        return example_findings(code, text)
    text = textwrap.dedent(text)
    src = SourceText(path=Path("example.py"), display="example.py", kind="python",
                     raw=text.encode(), text=text)
    parsed = parse_python(src)
    assert not isinstance(parsed, FileError), parsed
    codes = (code, *getattr(RULES[code], "example_codes", ()))  # PF902 needs the rules it names
    return [f for f in analyse_parsed(parsed, Selection(codes=codes)) if f.code == code]


CASES = [(code, i, ex) for code, cls in RULES.items() for i, ex in enumerate(cls.bad_examples)]
GOOD = [(code, i, ex) for code, cls in RULES.items() for i, ex in enumerate(cls.good_examples)]


PIN = re.compile(r"#\s*(error|warning|note):\s*(PF[0-9]{3,4})\b")


def pinned(code: str, example: str) -> list[tuple[int, str]]:
    """The (line, severity) a bad example pins with trailing ``# error: PFxxx`` comments."""
    text = textwrap.dedent(example)
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        for sev, pin_code in PIN.findall(line):
            if pin_code == code:
                out.append((number, sev))
    return out


@pytest.mark.parametrize("code,index,example", CASES, ids=[f"{c}-bad{i}" for c, i, _ in CASES])
def test_bad_example_is_flagged(code, index, example):
    found = findings_for(code, example)
    assert found, f"{code} bad example {index} produced no finding"
    pins = pinned(code, example)
    if pins:  # the example pins its findings: exactly these lines and severities, nothing else
        got = sorted((f.span.line, f.severity.name.lower()) for f in found)
        assert got == sorted(pins), f"{code} bad example {index}: findings {got} != pinned {sorted(pins)}"


@pytest.mark.parametrize("code,index,example", GOOD, ids=[f"{c}-good{i}" for c, i, _ in GOOD])
def test_good_example_is_silent(code, index, example):
    found = findings_for(code, example)
    assert not found, [f"{f.span.line}: {f.message}" for f in found]


def test_at_least_the_retained_graph_rule_exists():
    assert "PF101" in RULES


@pytest.mark.parametrize("code", sorted(RULES))
def test_metadata_is_complete(code):
    cls = RULES[code]
    meta = cls.metadata()
    assert meta["summary"] and not meta["summary"].endswith(".")
    assert len(meta["explanation"]) > 200
    assert len(cls.good_examples) >= 2 and len(cls.bad_examples) >= 1


def test_rules_reference_is_generated_and_current():
    committed = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    assert committed == rules_reference(), "docs/rules.md is stale: run `python -m preflight.docs`"


def test_rules_index_is_generated_and_current():
    from preflight.docs import INDEX_PATH, rules_index

    assert INDEX_PATH.read_text(encoding="utf-8") == rules_index(), \
        "preflight/rules/_index.py is stale: run `python -m preflight.docs`"


def test_every_rule_is_in_the_index_under_its_scope():
    from preflight.rules import _index

    for code, cls in RULES.items():
        table = _index.FILE if cls.scope == "file" else _index.JOB
        assert f"preflight.rules.{table[code]}" == cls.__module__
    assert set(_index.FILE) | set(_index.JOB) == set(RULES)


def test_pins_catch_a_finding_that_moves():
    """A pinned example whose finding is reported on another line fails the meta-test."""
    from preflight.rules.code._pf414_examples import PF417_BAD

    example = PF417_BAD[0]
    moved = example.replace("        loss.backward()  # error: PF417", "        loss.backward()").replace(
        "        opt.zero_grad()\n", "        opt.zero_grad()  # error: PF417\n")
    assert pinned("PF417", moved) != sorted((f.span.line, f.severity.name.lower())
                                            for f in findings_for("PF417", moved))
    assert pinned("PF417", example) == sorted((f.span.line, f.severity.name.lower())
                                              for f in findings_for("PF417", example))
