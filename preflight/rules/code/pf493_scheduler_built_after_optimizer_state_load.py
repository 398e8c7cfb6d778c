"""PF493 scheduler-built-after-optimizer-load: an LR scheduler constructed after the optimizer's state
was restored; its constructor resets the restored learning rate."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg, qualify, target_text
from preflight.rules.base import Rule, examples
from preflight.rules.code._scheduler_steps import TRANSFORMERS_SCHEDULES

# schedulers whose constructor does not write the learning rate
_NO_INITIAL_STEP = frozenset({"ReduceLROnPlateau"})


def _scheduler_optimizer(ctx: FileContext, call: ast.Call) -> Optional[str]:
    """For ``torch.optim.lr_scheduler.X(opt, ...)`` (or a transformers schedule): the text of ``opt``."""
    qual = qualify(ctx, call.func) or ""
    last = qual.rsplit(".", 1)[-1]
    torch_sched = qual.startswith("torch.optim.lr_scheduler.") and last not in _NO_INITIAL_STEP
    if not (torch_sched or (qual.startswith("transformers.") and last in TRANSFORMERS_SCHEDULES)):
        return None
    opt = call.args[0] if call.args else kwarg(call, "optimizer")
    return target_text(opt) if opt is not None else None


@register
class SchedulerBuiltAfterOptimizerLoad(Rule):
    code = "PF493"
    needs_text = ("load_state_dict",)
    name = "scheduler-built-after-optimizer-load"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = "An LR scheduler is constructed after `optimizer.load_state_dict`: its constructor resets the restored learning rate"
    explanation = """
## What it finds

In one function, `optimizer.load_state_dict(...)` and then, later in the source, the
construction of a `torch.optim.lr_scheduler` scheduler (or a transformers
`get_*_schedule*`) on that optimizer without `last_epoch=`, with no second
`optimizer.load_state_dict` after it.

## Why it matters

A scheduler's constructor takes a first step: it sets every parameter group's
learning rate to `initial_lr * lambda(0)` (the initial rate), overwriting the decayed
rate just restored with the optimizer state. `scheduler.load_state_dict` afterwards
restores the scheduler's counters but does not touch the optimizer, so the first
resumed epoch (until the next `scheduler.step()`) trains at the initial learning rate
(torch-points3d PR 630).

## How to fix it

Build the scheduler first, then restore both: `scheduler = LambdaLR(opt, f)`,
`opt.load_state_dict(ckpt["optimizer"])`, `scheduler.load_state_dict(ckpt["scheduler"])`.

## When preflight stays silent

* The scheduler is built before the optimizer state is loaded, or the optimizer
  state is loaded again after it.
* `last_epoch=` is passed (the constructor then resumes the schedule).
* `ReduceLROnPlateau`, whose constructor does not write the learning rate.
* The optimizer name is bound again between the load and the construction.
"""
    bad_examples = examples("preflight.rules.code._pf493_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf493_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        loads: dict[int, list[tuple[str, ast.Call]]] = {}
        for call in ctx.nodes(ast.Call):
            f = call.func
            if isinstance(f, ast.Attribute) and f.attr == "load_state_dict":
                text = target_text(f.value)
                if text:
                    fn = ctx.enclosing_function(call)
                    loads.setdefault(id(fn), []).append((text, call))
        if not loads:
            return
        for call in ctx.nodes(ast.Call):
            if kwarg(call, "last_epoch") is not None:
                continue
            opt = _scheduler_optimizer(ctx, call)
            if opt is None:
                continue
            same = [c for t, c in loads.get(id(ctx.enclosing_function(call)), []) if t == opt]
            before = [c for c in same if (c.lineno, c.col_offset) < (call.lineno, call.col_offset)]
            after = [c for c in same if (c.lineno, c.col_offset) > (call.lineno, call.col_offset)]
            if not before or after or self._in_loop_or_branch_apart(ctx, before[-1], call) \
                    or self._rebound_between(ctx, opt, before[-1], call):
                continue
            yield ctx.finding(
                self, call,
                f"this scheduler is constructed after `{opt}.load_state_dict(...)`: its constructor sets every "
                "group's learning rate back to the initial rate, overwriting the restored one, and "
                "`scheduler.load_state_dict` does not undo it, so training resumes at the initial learning "
                "rate. Build the scheduler first, then load the optimizer and scheduler states",
                evidence=[ctx.evidence(before[-1], "the optimizer's learning rate is restored here")])

    @staticmethod
    def _rebound_between(ctx: FileContext, opt: str, load: ast.Call, ctor: ast.Call) -> bool:
        """``opt = ...`` between the load and the construction: the scheduler gets a new optimizer."""
        fn = ctx.enclosing_function(ctor)
        for node in ctx.nodes(ast.Assign):
            if load.lineno < node.lineno < ctor.lineno and ctx.enclosing_function(node) is fn and any(
                    target_text(n) == opt for t in node.targets for n in ast.walk(t)):
                return True
        return False

    @staticmethod
    def _in_loop_or_branch_apart(ctx: FileContext, load: ast.Call, ctor: ast.Call) -> bool:
        """The construction sits in an ``else`` of the ``if`` that loads (never both on one run)."""
        for anc in ctx.ancestors(ctor):
            if isinstance(anc, ast.If):
                body_nodes = {id(n) for s in anc.body for n in ast.walk(s)}
                else_nodes = {id(n) for s in anc.orelse for n in ast.walk(s)}
                if (id(load) in body_nodes and id(ctor) in else_nodes) or \
                        (id(load) in else_nodes and id(ctor) in body_nodes):
                    return True
        return False
