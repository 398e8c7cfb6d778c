"""PF410 trl-max-seq-length: the ``max_seq_length`` keyword that TRL renamed to ``max_length``."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import version_gate
from preflight.rules.base import examples

_OWNERS = ("SFTConfig", "SFTTrainer")


@register
class TrlMaxSeqLength(PlanRule):
    code = "PF410"
    name = "trl-max-seq-length"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("trl",)
    summary = "`max_seq_length` is passed to TRL, which renamed it to `max_length`"
    explanation = """
## What it finds

`SFTConfig(max_seq_length=...)` or `SFTTrainer(..., max_seq_length=...)` in a
project that declares TRL 0.20 or later, or no TRL version (then the latest
release is assumed and the finding is a warning).

## Why it matters

TRL renamed `max_seq_length` to `max_length` in v0.16 and removed the old
name in v0.20: the call fails with a TypeError ("unexpected keyword argument
'max_seq_length'"). Dropping the keyword to make it run is worse: `max_length`
then defaults to 1024 tokens and longer samples are truncated silently.

## How to fix it

Rename the keyword: `SFTConfig(max_length=2048, ...)`.

## When preflight stays silent

* The project declares TRL older than 0.20 (the old name still works there).
* `max_length=`; a `max_seq_length` of another library.
"""
    bad_examples = examples("preflight.rules.plan._pf4_plan_examples", "PF410_BAD")
    good_examples = examples("preflight.rules.plan._pf4_plan_examples", "PF410_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            idx = pctx.index(script)
            for site in idx.calls:
                q = site.qualified or ""
                if not (q.startswith("trl.") and site.last in _OWNERS):
                    continue
                expr = site.kwarg("max_seq_length")
                if expr is None:
                    continue
                gate = version_gate(pctx, "trl", script, (0, 20), "TRL 1.x")
                if gate is None:
                    continue
                how, declared = gate
                message = (
                    f"`{site.last}(max_seq_length=...)`: TRL renamed it to `max_length` (v0.16) and removed "
                    f"the old name in v0.20 ({how}), so this call fails with a TypeError; without the keyword "
                    "`max_length` defaults to 1024 and longer samples are truncated. Write `max_length=`")
                finding = pctx.code_finding(self, script, expr, message)
                if not declared:
                    finding.severity = Severity.WARNING
                yield finding
