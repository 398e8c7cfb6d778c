"""PF204 load-state-before-prepare: ``accelerator.load_state`` before anything was prepared."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import accelerator_calls, target_text
from preflight.rules.base import Rule, examples
from preflight.rules.code._pf117_support import runs_after

_PREPARES = ("prepare", "prepare_model", "prepare_optimizer", "prepare_scheduler", "prepare_data_loader")


def _same(ctx: FileContext, call: ast.Call, receiver: Optional[str], fn: ast.AST) -> bool:
    """``call`` is made on ``receiver`` inside ``fn``."""
    return (target_text(call.func.value) == receiver  # type: ignore[attr-defined]
            and ctx.enclosing_function(call) is fn)


@register
class LoadStateBeforePrepare(Rule):
    code = "PF204"
    name = "load-state-before-prepare"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    summary = "accelerator.load_state() runs before accelerator.prepare(): it has no model or optimizer to restore"
    frameworks = ("accelerate",)
    needs_text = ("load_state",)
    explanation = """
## What it finds

In one function, `accelerator.load_state(...)` runs before the same accelerator's
`prepare(...)` (or `prepare_model`/`prepare_optimizer`/...), nothing was prepared or
registered with `register_for_checkpointing` before the load, and the prepare call
follows it in the same block (not in an exclusive branch).

## Why it matters

`Accelerator.load_state` restores the objects the accelerator knows: it loops over
`self._models`, `self._optimizers`, `self._schedulers` and `self._dataloaders`, which
`prepare()` fills (accelerate/accelerator.py, `load_state`), and over the objects given
to `register_for_checkpointing`. Before `prepare` those lists are empty: only the RNG
states (and the step counter) are restored, no error is raised, and the "resumed" run
starts again from the pretrained weights with a fresh optimizer. Reported in
X-GenGroup/Flow-Factory#172 ("causing load_state() to have no effect at all"; fixed by
deferring the load until after `prepare`).

## How to fix it

Call `accelerator.load_state(path)` after `accelerator.prepare(...)`. (A checkpoint
saved with `torch.save(accelerator.unwrap_model(model).state_dict())` is the other way
round: `model.load_state_dict(...)` before `prepare`.)

## When preflight stays silent

* Something was prepared or registered with `register_for_checkpointing` before the
  load (the load then restores that).
* The load and the prepare sit in different functions, or in exclusive branches.
* The receiver is not an `Accelerator` (assigned from `Accelerator(...)` in the file, or
  named `accelerator`).
"""
    bad_examples = examples("preflight.rules.code._pf204_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf204_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        loads = accelerator_calls(ctx, "load_state")
        if not loads:
            return
        before_kinds = [*_PREPARES, "register_for_checkpointing"]
        others = {m: accelerator_calls(ctx, m) for m in before_kinds}
        for load in loads:
            receiver = target_text(load.func.value)  # type: ignore[attr-defined]
            fn = ctx.enclosing_function(load)
            if fn is None:
                continue

            mine = [c for m in before_kinds for c in others[m] if _same(ctx, c, receiver, fn)]
            if any((c.lineno, c.col_offset) < (load.lineno, load.col_offset) for c in mine):
                continue
            later = sorted((c for c in mine if c.func.attr in _PREPARES  # type: ignore[attr-defined]
                            and (c.lineno, c.col_offset) > (load.lineno, load.col_offset)),
                           key=lambda c: (c.lineno, c.col_offset))
            prepare = next((c for c in later if runs_after(ctx, load, c, first_may_be_conditional=True,
                                                         second_may_be_conditional=True)), None)
            if prepare is None:
                continue
            message = (
                f"`{receiver}.load_state(...)` runs before `{receiver}.{prepare.func.attr}(...)` "  # type: ignore[attr-defined]
                f"(line {prepare.lineno}): no model, optimizer or scheduler is registered yet, so "
                f"only the RNG states are restored and training restarts from the initial weights "
                f"with a fresh optimizer. Call `{receiver}.load_state(...)` after `prepare`")
            evidence = [ctx.evidence(prepare, "the objects load_state restores are registered here, after the load")]
            yield ctx.finding(self, load, message, evidence=evidence)
