"""PF397 max-steps-counts-micro-batches: ``TrainingArguments(max_steps=...)`` computed from the dataset's
length in micro-batches while ``gradient_accumulation_steps`` is above 1."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, kwarg
from preflight.rules.base import Rule, examples

_ARGS = ("TrainingArguments", "Seq2SeqTrainingArguments", "SFTConfig", "DPOConfig", "ORPOConfig", "KTOConfig",
         "RewardConfig", "GRPOConfig", "CPOConfig")
_ACCUM_WORDS = ("accum", "grad_acc", "gradient_acc")
# Lightning's Trainer: ``max_steps`` bounds ``trainer.global_step``, the optimizer steps
_LIGHTNING_TRAINERS = frozenset({"lightning.pytorch.Trainer", "lightning.Trainer", "pytorch_lightning.Trainer",
                                 "lightning.pytorch.trainer.Trainer", "lightning.pytorch.trainer.trainer.Trainer",
                                 "pytorch_lightning.trainer.Trainer", "pytorch_lightning.trainer.trainer.Trainer"})


def _assigned(ctx: FileContext, scope: Optional[ast.AST], name: str, before: int) -> Optional[ast.expr]:
    """The value of the last plain ``name = value`` in ``scope`` (the module when None) before line ``before``;
    None when the name is assigned any other way there (augmented, in a loop target, more than one value)."""
    found: Optional[ast.expr] = None
    for node in ast.walk(scope if scope is not None else ctx.tree):
        if isinstance(node, ast.Assign) and node.lineno < before:
            target = node.targets[0] if len(node.targets) == 1 else None
            if isinstance(target, ast.Name) and target.id == name and (found is None or node.lineno > found.lineno):
                found = node.value
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name) \
                and node.target.id == name:
            return None
    return found


def _int_value(ctx: FileContext, scope: Optional[ast.AST], node: ast.expr, before: int) -> Optional[int]:
    if isinstance(node, ast.Name):
        value = _assigned(ctx, scope, node.id, before)
        if value is None and scope is not None:
            value = _assigned(ctx, None, node.id, before)
        node = value if value is not None else node
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    return None


def _expand(ctx: FileContext, scope: Optional[ast.AST], expr: ast.expr, before: int, depth: int = 2) -> list[ast.AST]:
    """``expr`` and, ``depth`` levels down, the values its local names were assigned."""
    out: list[ast.AST] = [expr]
    if depth <= 0:
        return out
    for node in ast.walk(expr):
        if isinstance(node, ast.Name):
            value = _assigned(ctx, scope, node.id, before)
            if value is not None:
                out.extend(_expand(ctx, scope, value, value.lineno, depth - 1))
    return out


@register
class MaxStepsCountsMicroBatches(Rule):
    code = "PF397"
    name = "max-steps-counts-micro-batches"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers", "lightning")
    needs_text = ("max_steps",)
    summary = ("max_steps is computed in micro-batches (len(dataset) // batch_size) while gradient accumulation is "
               "on: the run is gradient_accumulation_steps times longer than meant")
    explanation = """
## What it finds

`TrainingArguments(max_steps=max_steps, gradient_accumulation_steps=G)` (or
`Seq2SeqTrainingArguments`, TRL's `SFTConfig`, ...) with G a literal above 1, where `max_steps`
is computed in the same function from a length (`num_epochs * len(train_ds) // batch_size`,
`epochs * len(loader)`) and that computation never divides by the accumulation (it names no
accumulation variable and not G itself).

Also Lightning's `Trainer(max_steps=max_steps, accumulate_grad_batches=G)` (det149), the same
shape: Lightning's `max_steps` bounds `trainer.global_step`, which counts optimizer steps
(Lightning issue 19684: "as soon as I increase `accumulate_grad_batches` beyond 1",
`max_steps = num_epochs * num_steps_per_epoch` with `num_steps_per_epoch =
num_train_samples // global_batch_size` no longer matched the asked epochs).

## Why it matters

`max_steps` counts optimizer steps, and one optimizer step takes G micro-batches; it also
overrides `num_train_epochs`. A step count in micro-batches therefore trains G times longer
than asked (G times the GPU time, the learning-rate schedule stretched to match). Reported in
caikit/caikit-nlp PR 295: 20 epochs asked with accumulation 4 trained 80 ("max_steps was 80
which overrides num_epochs. Takes very long to train").

## How to fix it

Divide by the accumulation (`len(train_ds) // (batch_size * G) * num_epochs`), or pass
`num_train_epochs` only.

## When preflight stays silent

* `gradient_accumulation_steps` (`accumulate_grad_batches`) is 1, or not a literal (a
  command-line value may be 1).
* `max_steps` is a literal or comes from elsewhere (the command line, a config).
* The computation names the accumulation (a variable with `accum` in its name, the variable
  passed as `gradient_accumulation_steps`, or G's value).
"""
    bad_examples = examples("preflight.rules.code._pf397_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf397_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call, qual in calls(ctx):
            if qual in _LIGHTNING_TRAINERS:
                accum_kw = "accumulate_grad_batches"
            elif qual.rsplit(".", 1)[-1] in _ARGS and qual.startswith(("transformers", "trl")):
                accum_kw = "gradient_accumulation_steps"
            else:
                continue
            steps, accum = kwarg(call, "max_steps"), kwarg(call, accum_kw)
            if steps is None or accum is None:
                continue
            scope = ctx.enclosing_function(call)
            factor = _int_value(ctx, scope, accum, call.lineno)
            if factor is None or factor <= 1:
                continue
            at: ast.expr = steps
            if isinstance(steps, ast.Name):
                value = _assigned(ctx, scope, steps.id, call.lineno)
                if value is None:
                    continue
                at = value
            parts = _expand(ctx, scope, at, call.lineno)
            nodes = [n for part in parts for n in ast.walk(part)]
            if not any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "len"
                       for n in nodes):
                continue
            accum_name = ast.unparse(accum)
            if any(isinstance(n, (ast.Name, ast.Attribute)) and (
                    any(w in ast.unparse(n).lower() for w in _ACCUM_WORDS) or ast.unparse(n) == accum_name)
                   for n in nodes):
                continue
            if any(isinstance(n, ast.Constant) and n.value == factor for n in nodes):
                continue
            yield ctx.finding(
                self, at,
                f"max_steps = `{ast.unparse(at)}` counts micro-batches, but {ast.unparse(call.func)} gets "
                f"{accum_kw}={accum_name} ({factor}): max_steps counts optimizer steps (one per "
                f"{factor} micro-batches) and overrides the epoch count, so the run trains {factor} times longer "
                f"than meant (and the schedule is stretched to match). Divide by the accumulation steps, or pass "
                "the epoch count only",
                evidence=[ctx.evidence(accum, f"{accum_kw}={accum_name}")])
