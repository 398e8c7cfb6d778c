"""PF902 unused-suppression: a suppression comment silences a rule that finds nothing there."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import MetaRule, examples

if TYPE_CHECKING:
    from preflight.analysis.context import FileContext


@register
class UnusedSuppression(MetaRule):
    code = "PF902"
    name = "unused-suppression"
    severity = Severity.NOTE
    category = Category.CONFIG
    summary = "A `# noqa: PFxxx` or `# preflight: ignore[PFxxx]` comment silences nothing on its line"
    explanation = """
## What it finds

A code in a suppression comment (`# noqa: PF101`, `# preflight: ignore[PF3]`) whose rules
ran on the file and found nothing on that line, as ruff's RUF100 does for `noqa`.

## Why it matters

A suppression outlives the code it was written for: after a refactor it silences nothing
today and will silently swallow a real finding on that line tomorrow. It also tells the
reader that a rule fires here when it does not.

## How to fix it

Remove the code from the comment (or the whole comment when it names nothing else).

## When preflight stays silent

* The rule was not selected (`--select`, `--ignore`, settings): preflight cannot tell
  whether it would fire.
* The code names a plan rule (PF5xx, PF801), which `audit` checks, not `check`.
* Bare `# noqa` / `# preflight: ignore`, and codes of other tools (`# noqa: E501`).
"""
    bad_examples = examples("preflight.rules.meta._pf90x_examples", "PF902_BAD")
    good_examples = examples("preflight.rules.meta._pf90x_examples", "PF902_GOOD")
    # the rules its examples' comments name, run beside it by the example tests
    example_codes = ("PF101", "PF303")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        return ()  # reported by the engine while it applies suppressions
