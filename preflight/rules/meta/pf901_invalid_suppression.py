"""PF901 invalid-suppression: a suppression comment names a rule code that does not exist."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Iterable

from preflight.codes import matching_codes, sorted_codes
from preflight.diagnostics import Category, Finding, Severity, Span
from preflight.registry import register
from preflight.rules.base import MetaRule, examples

if TYPE_CHECKING:
    from preflight.analysis.context import FileContext


@register
class InvalidSuppression(MetaRule):
    code = "PF901"
    name = "invalid-suppression"
    severity = Severity.WARNING
    category = Category.CONFIG
    summary = "A `# noqa` or `# preflight: ignore[...]` comment names a rule code that does not exist"
    explanation = """
## What it finds

A suppression comment with a preflight code that names no rule and is not the prefix of
one: `# noqa: PF1O1` (a letter O for a zero), `# preflight: ignore[PF999]`. (`PF10` is
valid: it is the prefix of PF101 and the other PF10x rules, and of any PF10xx. A complete
code, three or four digits, is never a prefix: `PF1001` is invalid while no rule has that
code, though its text starts with PF100's.) In `# preflight: ignore[...]` every code is taken
as preflight's; in `# noqa: ...` only codes with a preflight letter prefix (`PF`, or a
plugin's) are, so `# noqa: E501` for another linter is left alone.

## Why it matters

The comment was written to silence a finding and silences nothing: the typo hides in
plain sight until the finding it was meant for comes back, or, worse, the reader believes
the line was reviewed. preflight never widens an invalid code to a bare `# noqa` (which
would silence every rule on the line, including ones nobody looked at).

## How to fix it

Write the code as `preflight rules` lists it (`# noqa: PF101`), or a prefix of codes
(`# noqa: PF1`).

## When preflight stays silent

* Codes of other tools (`# noqa: E501, F401`).
* A bare `# noqa` or `# preflight: ignore`.
"""
    bad_examples = examples("preflight.rules.meta._pf90x_examples", "PF901_BAD")
    good_examples = examples("preflight.rules.meta._pf90x_examples", "PF901_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        return ()  # the engine reports it while it applies suppressions (suppression_findings)


def _comment_span(ctx: FileContext, line: int, comment: str) -> tuple[Span, str]:
    text = ctx.parsed.index.line_text(line)
    column = text.find(comment)
    column = 0 if column < 0 else column
    return Span(line, column + 1, line, column + 1 + len(comment)), text


def suppression_findings(ctx: FileContext, selected: Iterable[str], used: set[tuple[int, str]],
                         known: tuple[str, ...]) -> list[Finding]:
    """PF901 (invalid codes) and PF902 (codes that silenced nothing) for one file.

    ``used`` holds the (line, code or prefix) pairs that silenced a finding in this run. A
    code counts as unused only when every rule it names reads one file and ran: a
    suppression meant for a rule that was not selected, or for a plan rule (checked by
    ``audit``), is not reported.
    """
    from preflight.registry import file_rules
    from preflight.suppressions import interpret

    selected = tuple(selected)
    ran = {cls.code for cls in file_rules(selected)}
    out: list[Finding] = []
    for line, comment in sorted(ctx.parsed.comment_lines.items()):
        found = interpret(comment, known)
        if found is None:
            continue
        span, text = _comment_span(ctx, line, comment)
        cell, uspan = ctx.user_span(span)
        directive = "`# preflight: ignore[...]`" if found.kind == "ignore" else "`# noqa`"

        make = functools.partial(Finding, category=Category.CONFIG, path=ctx.path, span=uspan,
                                 cell=cell, source_line=text, analysed_lines=(line, line))
        if "PF901" in selected:
            for bad in found.invalid:
                out.append(make(code="PF901", severity=InvalidSuppression.severity, message=(
                                f"{directive} names `{bad}`, which is no preflight rule code or "
                                f"prefix: it silences nothing (see `preflight rules`)")))
        if "PF902" in selected and found.codes:
            for code in sorted_codes(found.codes):
                named = matching_codes(code, known)
                if (line, code) in used or not named or not all(k in ran for k in named):
                    continue
                out.append(make(code="PF902", severity=Severity.NOTE, message=(
                                f"{directive} silences `{code}`, but no {code} finding is on this "
                                f"line: remove `{code}` from the comment")))
    return out
