"""PF453 reentrant-checkpointing-with-find-unused: reentrant gradient checkpointing with DDP's ``find_unused_parameters``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, has_unpacking, kwarg, literal
from preflight.rules.base import Rule, examples

_ARGS = ("TrainingArguments", "Seq2SeqTrainingArguments", "SFTConfig", "DPOConfig", "ORPOConfig", "KTOConfig",
         "RewardConfig", "GRPOConfig")


def _last(qual: str, call: ast.Call) -> str:
    if qual:
        return qual.rsplit(".", 1)[-1]
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _reentrant(ctx: FileContext, kwargs: Optional[ast.expr]) -> bool:
    """``gradient_checkpointing_kwargs`` leaves the reentrant implementation on (absent, or
    ``use_reentrant`` not False). Unknown values count as not reentrant."""
    if kwargs is None:
        return True
    if isinstance(kwargs, ast.Dict):
        for key, value in zip(kwargs.keys, kwargs.values):
            if isinstance(key, ast.Constant) and key.value == "use_reentrant":
                return literal(ctx, value) is True
        return not any(key is None for key in kwargs.keys)
    if isinstance(kwargs, ast.Call) and getattr(kwargs.func, "id", "") == "dict":
        flag = kwarg(kwargs, "use_reentrant")
        return literal(ctx, flag) is True if flag is not None else not has_unpacking(kwargs)
    known = literal(ctx, kwargs)
    return isinstance(known, dict) and known.get("use_reentrant", True) is True


@register
class ReentrantCheckpointingFindUnused(Rule):
    code = "PF453"
    needs_text = ("find_unused_parameters",)
    name = "reentrant-checkpointing-with-find-unused"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers", "pytorch")
    summary = "Reentrant gradient checkpointing together with DDP's `find_unused_parameters=True`"
    explanation = """
## What it finds

Gradient checkpointing in its reentrant form, which transformers uses unless told
otherwise (`TrainingArguments(gradient_checkpointing=True)` or
`model.gradient_checkpointing_enable()` without `gradient_checkpointing_kwargs=
{"use_reentrant": False}`), in the same file as DDP's unused-parameter search
(`ddp_find_unused_parameters=True`, `DistributedDataParallel(...,
find_unused_parameters=True)`).

## Why it matters

Reentrant checkpointing runs each checkpointed block's backward inside a second
autograd pass; with `find_unused_parameters=True` DDP then sees the same parameter
become ready twice and the first multi-GPU backward fails with "Expected to mark a
variable ready only once ... has been marked as ready twice" (ms-swift issue 2746;
PyTorch documents the combination as unsupported). On one GPU the job runs, so the
failure appears only once it is launched on several.

## How to fix it

Use the non-reentrant implementation: `gradient_checkpointing_kwargs={"use_reentrant": False}`
(TrainingArguments or `gradient_checkpointing_enable`), or drop
`find_unused_parameters` when every parameter gets a gradient (or set DDP's
`static_graph=True`).

## When preflight stays silent

* `use_reentrant` is False, the kwargs come from elsewhere (`**kwargs`, a variable
  that cannot be read), or `find_unused_parameters` is not literally True.
* DDP is built with `static_graph=True`.
"""
    bad_examples = examples("preflight.rules.code._pf453_examples", "PF453_BAD")
    good_examples = examples("preflight.rules.code._pf453_examples", "PF453_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        checkpointing: list[ast.AST] = []
        unused: list[ast.AST] = []
        for call, qual in calls(ctx):
            name = _last(qual, call)
            if name in _ARGS:
                gc = kwarg(call, "gradient_checkpointing")
                if gc is not None and literal(ctx, gc) is True \
                        and _reentrant(ctx, kwarg(call, "gradient_checkpointing_kwargs")):
                    checkpointing.append(gc)
                find = kwarg(call, "ddp_find_unused_parameters")
                if find is not None and literal(ctx, find) is True:
                    unused.append(find)
            elif name == "gradient_checkpointing_enable" and isinstance(call.func, ast.Attribute):
                if not has_unpacking(call) and _reentrant(ctx, kwarg(call, "gradient_checkpointing_kwargs")):
                    checkpointing.append(call)
            elif name in ("DistributedDataParallel", "DDP"):
                find = kwarg(call, "find_unused_parameters")
                static = kwarg(call, "static_graph")
                if find is not None and literal(ctx, find) is True \
                        and not (static is not None and literal(ctx, static) is True):
                    unused.append(find)
        if not checkpointing or not unused:
            return
        yield ctx.finding(
            self, checkpointing[0],
            "gradient checkpointing runs in its reentrant form (no `gradient_checkpointing_kwargs="
            "{\"use_reentrant\": False}`) while DDP searches for unused parameters: on several GPUs the first "
            "backward fails with \"Expected to mark a variable ready only once\". Pass "
            "`gradient_checkpointing_kwargs={\"use_reentrant\": False}`",
            evidence=[ctx.evidence(unused[0], "find_unused_parameters=True")])
