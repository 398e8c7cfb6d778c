"""PF410 trl-max-seq-length: the ``max_seq_length`` keyword that TRL renamed to ``max_length``."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import version_gate
from preflight.rules.base import examples

_OWNERS = ("SFTConfig", "SFTTrainer")
# keyword arguments SFTTrainer itself took only up to TRL 0.11/0.12 (tokenizer became
# processing_class in 0.12; the dataset options moved into SFTConfig and left the trainer in 0.13)
_OLD_TRAINER_KWARGS = ("tokenizer", "dataset_text_field", "packing", "dataset_num_proc", "dataset_batch_size",
                       "dataset_kwargs")


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

* The project declares TRL older than 0.20 (the old name still works there; for an
  `SFTTrainer(max_seq_length=...)` argument: older than 0.13).
* No TRL version is declared and the same `SFTTrainer(...)` call passes other arguments
  that only the TRL <= 0.11 trainer took (`tokenizer=`, `dataset_text_field=`, `packing=`):
  the call is written for that API, where `max_seq_length` is valid.
* `max_length=`; a `max_seq_length` of another library.
"""
    bad_examples = examples("preflight.rules.plan._pf410_examples", "PF410_BAD")
    good_examples = examples("preflight.rules.plan._pf410_examples", "PF410_GOOD")

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
                trainer = site.last == "SFTTrainer"
                gate = version_gate(pctx, "trl", script, (0, 13) if trainer else (0, 20), "TRL 1.x")
                if gate is None:
                    continue
                how, declared = gate
                if trainer and not declared and any(site.kwarg(k) is not None for k in _OLD_TRAINER_KWARGS):
                    # `SFTTrainer(tokenizer=..., dataset_text_field=..., max_seq_length=...)` is one call
                    # of the TRL <= 0.11 API, where every one of them is valid: with no version declared
                    # the call's own API dates it, not the latest release
                    continue
                if trainer:
                    message = (
                        "`SFTTrainer(max_seq_length=...)`: TRL moved it into `SFTConfig` and removed it from "
                        f"`SFTTrainer` in v0.13, then renamed it `max_length` (v0.16) ({how}), so this call fails "
                        "with a TypeError; without the keyword `max_length` defaults to 1024 and longer samples "
                        "are truncated. Write `SFTConfig(max_length=...)`")
                else:
                    message = (
                        f"`{site.last}(max_seq_length=...)`: TRL renamed it to `max_length` (v0.16) and removed "
                        f"the old name in v0.20 ({how}), so this call fails with a TypeError; without the keyword "
                        "`max_length` defaults to 1024 and longer samples are truncated. Write `max_length=`")
                finding = pctx.code_finding(self, script, expr, message)
                if not declared:
                    finding.severity = Severity.WARNING
                yield finding
