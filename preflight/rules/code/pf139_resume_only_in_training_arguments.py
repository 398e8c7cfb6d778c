"""PF139 resume-only-in-training-arguments: a checkpoint path given to ``TrainingArguments(resume_from_checkpoint=)``
while ``trainer.train()`` is called without it; the Trainer never reads that field."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, is_from, kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules._pf484_support import TRAINER_CALLS, assigned_to
from preflight.rules.base import Rule, examples

_ARGS = ("TrainingArguments", "Seq2SeqTrainingArguments")
_TRL_ARGS = ("SFTConfig", "DPOConfig", "GRPOConfig", "ORPOConfig", "KTOConfig", "RewardConfig", "CPOConfig")
_FIELD = "resume_from_checkpoint"


def _trainer_trains(ctx: FileContext) -> list[ast.Call]:
    """``X.train(...)`` calls whose receiver is a ``...Trainer(...)`` call or a name bound to one."""
    bound = {name for call in ctx.nodes(ast.Call) if TRAINER_CALLS.search(call_last(call))
             for name in (assigned_to(ctx, call),) if name}
    out = []
    for call in ctx.nodes(ast.Call):
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr == "train"):
            continue
        recv = func.value
        if (isinstance(recv, ast.Name) and recv.id in bound) or (
                isinstance(recv, ast.Call) and TRAINER_CALLS.search(call_last(recv))):
            out.append(call)
    return out


def _field_read(ctx: FileContext, holder: Optional[str]) -> bool:
    """``training_args.resume_from_checkpoint`` (the arguments' name) or ``self.args.``/``trainer.args.`` read."""
    for node in ctx.nodes(ast.Attribute):
        if node.attr != _FIELD or not isinstance(node.ctx, ast.Load):
            continue
        value = node.value
        if (isinstance(value, ast.Name) and value.id == holder) or (
                isinstance(value, ast.Attribute) and value.attr == "args"):
            return True
    return False


@register
class ResumeOnlyInTrainingArguments(Rule):
    code = "PF139"
    name = "resume-only-in-training-arguments"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    needs_text = ("resume_from_checkpoint",)
    summary = ("`TrainingArguments(resume_from_checkpoint=...)` while `trainer.train()` gets no checkpoint: the "
               "Trainer ignores the field and the run starts again from step 0")
    explanation = """
## What it finds

A script that builds `TrainingArguments(..., resume_from_checkpoint=<a value>)` (or
`Seq2SeqTrainingArguments`, or a TRL config such as `SFTConfig`, a subclass) and calls `.train()`
on a `...Trainer(...)` without an argument, while nothing in the file reads the field back
(`training_args.resume_from_checkpoint`, `trainer.args.resume_from_checkpoint`,
`self.args.resume_from_checkpoint`).

## Why it matters

The Trainer never looks at `TrainingArguments.resume_from_checkpoint`: the field's help text says
it "is not directly used by Trainer, it's intended to be used by your training/evaluation scripts
instead", and only `Trainer.train(resume_from_checkpoint=...)` loads the model, optimizer,
scheduler and RNG states (transformers issue 23325, also reported by ChartMoE and FlagEmbedding).
The "resumed" run starts again from step 0 with fresh optimizer and scheduler states, and with
`save_total_limit` it rotates out the very checkpoints it was meant to continue.

## How to fix it

`trainer.train(resume_from_checkpoint=training_args.resume_from_checkpoint)`.

## When preflight stays silent

* The field is `None`/`False` or not given, or any `.train(...)` of a Trainer gets an argument.
* The file reads the field back from the arguments (the official example scripts do:
  `checkpoint = training_args.resume_from_checkpoint`), or the arguments come from
  `HfArgumentParser` (no `TrainingArguments(...)` call with the keyword).
* No Trainer's `.train()` is called in the file.
"""
    bad_examples = examples("preflight.rules.code._pf139_examples", "PF139_BAD")
    good_examples = examples("preflight.rules.code._pf139_examples", "PF139_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        trains = _trainer_trains(ctx)
        if not trains or any(c.args or c.keywords for c in trains):
            return
        for call, qual in calls(ctx):
            if not (any(is_from(qual, "transformers", name) for name in _ARGS)
                    or any(is_from(qual, "trl", name) for name in _TRL_ARGS)):
                continue
            value = kwarg(call, _FIELD)
            if value is None or (isinstance(value, ast.Constant) and value.value in (None, False, "")):
                continue
            if _field_read(ctx, assigned_to(ctx, call)):
                continue
            yield ctx.finding(
                self, trains[0],
                f"`{call_last(call)}(resume_from_checkpoint=...)` is set but this `.train()` gets no checkpoint: "
                "the Trainer never reads that field (it is meant for your own script), so the run starts again "
                "from step 0 with fresh optimizer and scheduler states (and `save_total_limit` rotates out the "
                "checkpoints it should continue); pass it as `trainer.train(resume_from_checkpoint=...)`",
                evidence=[ctx.evidence(value, "the checkpoint reaches only the arguments")])
            return
