"""PF178 checkpoint-every-step: ``TrainingArguments(save_steps=1)`` under the step save strategy in a real
training run: the Trainer writes a full checkpoint (weights and optimizer state) after every optimizer step."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._test_code import in_test_code

# the HF Trainer's argument classes and TRL's configs that subclass TrainingArguments
_ARGS = ("TrainingArguments", "SFTConfig", "DPOConfig", "GRPOConfig", "RewardConfig", "ORPOConfig", "KTOConfig",
         "CPOConfig", "PRMConfig")
# a run bounded at or under this many optimizer steps is a smoke test: saving every step is on purpose
_SMOKE_STEPS = 100


def _kw(call: ast.Call, name: str) -> Optional[ast.keyword]:
    return next((k for k in call.keywords if k.arg == name), None)


def _literal(kw: Optional[ast.keyword]) -> object:
    if kw is not None and isinstance(kw.value, ast.Constant):
        return kw.value.value
    return None


def _is_args(call: ast.Call) -> bool:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name.endswith(_ARGS)


@register
class CheckpointEveryStep(Rule):
    code = "PF178"
    name = "checkpoint-every-step"
    severity = Severity.WARNING
    category = Category.PERFORMANCE
    summary = ("`TrainingArguments(save_steps=1)` with the step save strategy: the Trainer writes a full checkpoint "
               "(model and optimizer state) after every optimizer step")
    frameworks = ("transformers",)
    needs_text = ("save_steps",)
    explanation = """
## What it finds

A `TrainingArguments(...)` call (or `Seq2SeqTrainingArguments`, TRL's `SFTConfig`,
`DPOConfig`, `GRPOConfig` and the other configs built on it) with the literal `save_steps=1`,
whose `save_strategy` is absent (the default is `"steps"`) or the literal `"steps"`, and whose
`max_steps` is absent or a literal above 100 (the run is bounded by epochs or by a real step
budget, not a smoke test).

## Why it matters

With `save_strategy="steps"` the Trainer saves a checkpoint every `save_steps` optimizer
steps: the weights, the optimizer state (twice the weights for AdamW), the scheduler, the RNG
states. `save_steps=1` does that after every step, and with `save_total_limit` it also deletes
the previous one: most of the wall time goes to checkpoint I/O and a large model writes
terabytes to the disk within days (transformers issue 35070, "2TB was written in a couple
days", from `eval_steps=1`, `save_steps=1`, `save_total_limit=1` to keep the best model).

## How to fix it

Save (and evaluate) every few hundred steps, or per epoch (`save_strategy="epoch"`); to keep
only the best model use `save_total_limit` with `load_best_model_at_end=True` at that interval.

## When preflight stays silent

* Test code (`test_*.py`, `*_test.py`, `conftest.py`, a `test*` function or fixture).
* `save_strategy` is `"epoch"`, `"no"` or `"best"`, or not a literal (`save_steps` is then not
  the save interval, or preflight cannot tell).
* `max_steps` is a literal of at most 100 (a smoke test) or not a literal.
* `save_steps` is not the literal 1 (a fraction such as `0.1` is a share of the run).
"""
    bad_examples = examples("preflight.rules.code._pf178_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf178_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call in ctx.nodes(ast.Call):
            if not _is_args(call):
                continue
            save = _kw(call, "save_steps")
            if save is None or not (isinstance(save.value, ast.Constant) and type(save.value.value) is int
                                    and save.value.value == 1):
                continue
            strategy = _kw(call, "save_strategy")
            if strategy is not None and _literal(strategy) != "steps":
                continue
            max_steps = _kw(call, "max_steps")
            if max_steps is not None:
                value = _literal(max_steps)
                if type(value) is not int or 0 < value <= _SMOKE_STEPS:
                    continue
            if any(k.arg is None for k in call.keywords):
                continue
            if in_test_code(ctx, call):
                continue
            yield ctx.finding(
                self, save.value,
                "`save_steps=1` saves a full checkpoint (weights, optimizer state, scheduler, RNG states) after every "
                "optimizer step: the run spends most of its time writing checkpoints (and deleting the previous one "
                "under `save_total_limit`), and a large model writes terabytes to the disk within days "
                "(transformers issue 35070); save every few hundred steps or per epoch")
