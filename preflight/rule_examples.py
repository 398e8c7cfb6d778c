"""Running a rule's examples and reading the findings they pin (for tests, built-in and plugin).

A must-fire (bad) example marks each line a finding must be reported on with a trailing
comment naming the severity and the code::

    loss.backward()  # error: PF417

An example of a plan rule is a small project (``# --- <path>`` sections, see
:mod:`preflight.plan_rules`); a comment pin there names a line of the file its section writes.
A line that cannot hold a comment (JSON has none; the launch command is split like a shell
line) is pinned in a ``# --- expect`` section, one ``path:line: severity: CODE`` per line::

    # --- ds.json
    {"train_batch_size": 30, "train_micro_batch_size_per_gpu": 4}
    # --- expect
    ds.json:1: error: PF502

:func:`check_pins` compares the pins with what every built-in rule reports on the example:
the rule's own findings, and any other rule's at warning or above, must be exactly the
pinned ones (code, file, line, severity). A fixable rule's ``fix_examples`` pin the text
its fixes produce (:func:`fixed_text`).
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from preflight.diagnostics import Severity

if TYPE_CHECKING:
    from preflight.diagnostics import Finding
    from preflight.rules.base import Rule

PIN = re.compile(r"#\s*(error|warning|note):\s*([A-Z]{1,4}[0-9]{3,4})\b")
EXPECT_LINE = re.compile(r"^(?P<path>\S+?):(?P<line>[0-9]+):\s*(?P<severity>error|warning|note):\s*"
                         r"(?P<code>[A-Z]{1,4}[0-9]{3,4})\s*$")
CODE_FILE = "example.py"

# (code, path, line, severity)
Pin = tuple[str, str, int, str]


class PinError(ValueError):
    """An example whose pins cannot be read (a malformed ``# --- expect`` line)."""


def _is_plan_rule(rule: type[Rule]) -> bool:
    from preflight.plan_rules import PlanRule

    return issubclass(rule, PlanRule)


def pins(rule: type[Rule], example: str) -> list[Pin]:
    """The findings an example pins, sorted: every code's, not only the rule's."""
    out: list[Pin] = []
    if not _is_plan_rule(rule):
        for number, line in enumerate(textwrap.dedent(example).splitlines(), start=1):
            out.extend((code, CODE_FILE, number, sev) for sev, code in PIN.findall(line))
        return sorted(out)
    from preflight.plan_rules import EXPECT, LAUNCH, example_sections

    for path, number, line in example_sections(example):
        if path == EXPECT:
            if not line.strip():
                continue
            match = EXPECT_LINE.match(line.strip())
            if match is None:
                raise PinError(f"`# --- expect` line {number}: {line.strip()!r} is not "
                               "`path:line: severity: CODE`")
            out.append((match["code"], match["path"], int(match["line"]), match["severity"]))
        elif path != LAUNCH:
            out.extend((code, path, number, sev) for sev, code in PIN.findall(line))
    return sorted(out)


def _all_file_codes() -> tuple[str, ...]:
    from preflight.registry import all_rules

    return tuple(code for code, cls in all_rules(plugins=False).items() if not _is_plan_rule(cls))


def example_findings(rule: type[Rule], example: str, codes: Optional[tuple[str, ...]] = None) -> list[Finding]:
    """Every finding of the rules ``codes`` (default: every built-in rule and ``rule``) on an
    example: a code rule's example is one file, ``example.py``; a plan rule's is a project
    (its plan rules run on the plan, its code rules on each script, as ``audit`` runs them)."""
    from preflight.engine import Selection, analyse_parsed
    from preflight.registry import all_rules

    registry = {**all_rules(plugins=False), rule.code: rule}
    if codes is None:
        codes = tuple(registry)
    file_codes = tuple(c for c in codes if c in registry and not _is_plan_rule(registry[c]))
    if not _is_plan_rule(rule):
        from preflight.diagnostics import FileError
        from preflight.sources import SourceText, parse_python

        text = textwrap.dedent(example)
        src = SourceText(path=Path(CODE_FILE), display=CODE_FILE, kind="python", raw=text.encode(), text=text)
        parsed = parse_python(src)
        if isinstance(parsed, FileError):
            raise AssertionError(f"{rule.code} example does not parse: {parsed.render()}")
        return list(analyse_parsed(parsed, Selection(codes=file_codes)))
    import tempfile

    from preflight.diagnostics import FileError
    from preflight.plan_rules import PlanContext, PlanRule, build_example

    with tempfile.TemporaryDirectory(prefix="preflight-example-") as tmp:
        plan, project = build_example(example, Path(tmp))
        bad = [e for e in project.errors if isinstance(e, FileError)]
        if bad:
            raise AssertionError("example project has unreadable inputs: " + "; ".join(e.render() for e in bad))
        pctx = PlanContext(plan, project)
        out: list[Finding] = []
        for code in codes:
            cls = registry.get(code)
            if cls is not None and issubclass(cls, PlanRule):
                out.extend(cls().check_plan(pctx))
        for script in project.scripts:
            out.extend(analyse_parsed(script, Selection(codes=file_codes)))
        return out


def reported(rule: type[Rule], example: str, findings: list[Finding]) -> list[Pin]:
    """What a bad example must pin: the rule's own findings, the findings of any other rule at
    warning or above, and any other finding on a line pinned with its code."""
    pinned = {(code, path, line) for code, path, line, _ in pins(rule, example)}
    out = []
    for f in findings:
        if (f.code == rule.code or f.severity >= Severity.WARNING
                or (f.code, f.path, f.span.line) in pinned):
            out.append((f.code, f.path, f.span.line, f.severity.name.lower()))
    return sorted(out)


def check_fixes(rule: type[Rule]) -> list[str]:
    """What is wrong with a rule's pinned fix outputs (``fixed_examples``, one per bad example,
    None where no fix is offered): each must be the example after every fix the rule offers,
    pin comments removed, and the fixed text must keep only the findings that offered no fix."""
    problems = []
    bad = list(rule.bad_examples)
    fixed = list(rule.fixed_examples)
    offered = [[f for f in example_findings(rule, ex, codes=(rule.code,)) if f.code == rule.code]
               for ex in bad]
    if not rule.fixable:
        with_fix = [i for i, found in enumerate(offered) if any(f.fix for f in found)]
        if with_fix or fixed:
            problems.append(f"{rule.code} is not fixable, yet bad examples {with_fix} offer a fix "
                            f"or it pins {len(fixed)} fixed outputs")
        return problems
    if len(fixed) != len(bad):
        return [f"{rule.code}: {len(fixed)} fixed_examples for {len(bad)} bad examples (one each, None: no fix)"]
    for i, (example, found, pinned) in enumerate(zip(bad, offered, fixed)):
        if not any(f.fix for f in found):
            if pinned is not None:
                problems.append(f"{rule.code} bad example {i} offers no fix but pins a fixed output")
            continue
        text = fixed_text(rule, example)
        if pinned is None or strip_pins(text) != textwrap.dedent(pinned):
            problems.append(f"{rule.code} bad example {i}: --fix makes\n{strip_pins(text)}\nnot the pinned\n{pinned}")
            continue
        left = [f for f in example_findings(rule, text, codes=(rule.code,)) if f.code == rule.code]
        if len(left) != sum(1 for f in found if f.fix is None):
            problems.append(f"{rule.code} bad example {i}: after --fix {len(left)} findings remain, "
                            f"{sum(1 for f in found if f.fix is None)} offered no fix")
    return problems


def check_pins(rule: type[Rule], example: str, findings: Optional[list[Finding]] = None) -> Optional[str]:
    """None when the example's findings are exactly its pins, else what differs (one line).
    ``findings``: every built-in rule's findings on the example (``example_findings``), when the
    caller has them already."""
    expected = pins(rule, example)
    if not any(p[0] == rule.code for p in expected):
        return (f"{rule.code} bad example pins no {rule.code} finding: mark the line it is reported on "
                f"with a trailing `# {rule.severity.name.lower()}: {rule.code}` comment (or a "
                "`# --- expect` line)")
    got = reported(rule, example, example_findings(rule, example) if findings is None else findings)
    if got == expected:
        return None
    missing = [p for p in expected if p not in got]
    extra = [p for p in got if p not in expected]
    return f"{rule.code}: pinned but not reported {missing}; reported but not pinned {extra}"


def strip_pins(text: str) -> str:
    """``text`` without its pin comments (``  # error: PF101``)."""
    return re.sub(r"[ \t]*#\s*(?:error|warning|note):\s*[A-Z]{1,4}[0-9]{3,4}\b", "", text)


def fixed_text(rule: type[Rule], example: str) -> str:
    """The text a fixable rule's fixes (safe and unsafe: every fix it offers) make of an example
    (its pin comments kept: compare ``strip_pins`` of it with a pinned output)."""
    from preflight.fix import apply_fixes
    from preflight.sources import SourceText

    text = textwrap.dedent(example)
    found = [f for f in example_findings(rule, example, codes=(rule.code,)) if f.code == rule.code]
    source = SourceText(path=Path(CODE_FILE), display=CODE_FILE, kind="python", raw=text.encode(), text=text)
    outcome = apply_fixes(source, [f.fix for f in found if f.fix is not None], unsafe=True)
    return outcome.text
