"""PF419 step-scheduler-per-epoch: a per-step LR schedule handed to Lightning without ``"interval": "step"``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import (
    STEP_SCHEDULERS,
    call_last,
    const_str,
    manual_optimization,
    may_optimize_manually,
)
from preflight.rules.base import Rule, examples
from preflight.rules.code.pf490_step_schedule_sized_in_epochs import sized_in_epochs


def _dict_keys(d: ast.AST) -> Optional[dict[str, ast.expr]]:
    """The string keys of a ``{...}`` literal or of a ``dict(key=...)`` call, else None."""
    if isinstance(d, ast.Dict):
        return {k.value: v for k, v in zip(d.keys, d.values)
                if isinstance(k, ast.Constant) and isinstance(k.value, str)}
    if isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id == "dict":
        return {kw.arg: kw.value for kw in d.keywords if kw.arg is not None}
    return None


@register
class StepSchedulerPerEpoch(Rule):
    code = "PF419"
    needs_text = ('configure_optimizers',)
    name = "step-scheduler-per-epoch"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = "A per-step LR schedule is returned from `configure_optimizers` without `\"interval\": \"step\"`"
    explanation = """
## What it finds

`configure_optimizers` builds a schedule meant to advance every optimizer step
(`OneCycleLR`, `CyclicLR`, transformers' `get_*_schedule_with_warmup`, a
`LambdaLR` whose lambda counts steps: a parameter named `step`/`current_step`, or
a body reading `warmup_steps`/`max_steps` and no epoch count) and
returns it without a scheduler dict carrying `"interval": "step"`, or with
`"interval"` put beside `"optimizer"` at the top level where Lightning ignores it.

## Why it matters

Lightning steps a scheduler once per epoch unless its dict says
`"interval": "step"`. A OneCycle or warmup schedule sized in steps
(`total_steps=self.trainer.estimated_stepping_batches`) then advances only a few
times in the whole run: the learning rate stays near its initial value and the
warmup never ends (Lightning issues 3869, 6948; the docs example fixed in PR 19774).

## How to fix it

`return {"optimizer": opt, "lr_scheduler": {"scheduler": sched, "interval": "step"}}`.

## When preflight stays silent

* A dict with `"scheduler"` and `"interval": "step"` is built in the method.
* A `LambdaLR` whose lambda counts epochs (`lambda epoch: 0.95 ** epoch`, a body
  reading `warmup_epochs`).
* The dict is written as a `dict(scheduler=..., interval="step")` call, or its
  `"interval"` is computed (`"interval": self.interval`).
* The lambda does not read its argument (a constant factor).
* A scheduler class of the file (a `LambdaLR`/`LRScheduler` subclass) is reported only when the
  call sizes it in steps by keyword (`warmup_steps=4000`, `total_steps=self.hparams.max_steps`);
  given an epoch count or positional arguments only it stays silent (CUNY-CL/yoyodyne issue 243,
  "Epoch-based warmup": an inverse-square-root warmup of 4000 steps stepped once per epoch).
* The schedule's length is a number of epochs (`num_training_steps=self.trainer.max_epochs`):
  stepped per epoch it is right; with `"interval": "step"` it is PF490's.
* The module steps its schedulers itself (`self.lr_schedulers()`, manual optimization).
"""
    bad_examples = examples("preflight.rules.code._pf419_examples", "PF419_BAD")
    good_examples = examples("preflight.rules.code._pf419_examples", "PF419_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for cls in ctx.nodes(ast.ClassDef):
            # the cheap test first: most classes (large models) have no configure_optimizers
            methods = [fn for fn in cls.body if isinstance(fn, ast.FunctionDef) and fn.name == "configure_optimizers"]
            if not methods:
                continue
            if may_optimize_manually(ctx) and manual_optimization(cls) is not None:
                continue
            if any(isinstance(n, ast.Attribute) and n.attr == "lr_schedulers" for n in ast.walk(cls)):
                continue
            for fn in methods:
                yield from self._check(ctx, fn)

    def _check(self, ctx: FileContext, fn: ast.FunctionDef) -> Iterable[Finding]:
        scheds = [n for n in ast.walk(fn) if isinstance(n, ast.Call)
                  and ((call_last(n) in STEP_SCHEDULERS and not sized_in_epochs(fn, n))
                       or _step_counted_lambda(ctx, fn, n) or _step_sized_scheduler_class(ctx, n))]
        if not scheds:
            return
        misplaced: Optional[ast.expr] = None
        for d in ast.walk(fn):
            keys = _dict_keys(d)
            if keys is None:
                continue
            interval = keys.get("interval")
            if interval is None:
                continue
            if const_str(interval) is None and "scheduler" in keys:
                return  # an interval the file computes: not known to be "epoch"
            if const_str(interval) != "step":
                continue
            if "scheduler" in keys:
                return
            if "optimizer" in keys:
                misplaced = interval
        sched = scheds[0]
        if misplaced is not None and call_last(sched) not in STEP_SCHEDULERS:
            return  # a LambdaLR with "interval" beside "optimizer": PF450 reports the misplaced key
        where = (" (`\"interval\": \"step\"` sits beside `\"optimizer\"`, where Lightning ignores it: it belongs "
                 "in the `\"lr_scheduler\"` dict)") if misplaced is not None else ""
        at = _returned_at(ctx, fn, sched)
        evidence = [ctx.evidence(sched, f"the per-step `{call_last(sched)}` is built here")] if at is not sched else []
        if misplaced is not None:
            evidence.append(ctx.evidence(misplaced, "ignored here"))
        kind = "counts optimizer steps in its lambda" if call_last(sched) in _LAMBDA_SCHEDULERS \
            else "is a per-step schedule"
        yield ctx.finding(
            self, at,
            f"`{call_last(sched)}` {kind} but Lightning steps it once per epoch{where}: the "
            "learning rate barely moves over the run. Return "
            "`{\"optimizer\": opt, \"lr_scheduler\": {\"scheduler\": sched, \"interval\": \"step\"}}`",
            evidence=evidence or None)


_LAMBDA_SCHEDULERS = frozenset({"LambdaLR", "MultiplicativeLR"})
_SCHEDULER_BASES = frozenset({"LambdaLR", "MultiplicativeLR", "_LRScheduler", "LRScheduler"})
# keyword arguments that size a schedule in optimizer steps
_STEP_SIZE_KEYWORDS = frozenset({"warmup_steps", "num_warmup_steps", "warmup_updates", "total_steps",
                                 "num_training_steps", "max_steps", "total_updates"})


def _step_sized_scheduler_class(ctx: FileContext, call: ast.Call) -> bool:
    """``Warmup(opt, warmup_steps=4000)``: a scheduler class of this file (a ``LambdaLR`` /
    ``LRScheduler`` subclass) given a length in optimizer steps, a constant number (not an epoch count)."""
    if not isinstance(call.func, ast.Name):
        return False
    cls = next((c for c in ctx.tree.body if isinstance(c, ast.ClassDef) and c.name == call.func.id), None) \
        if isinstance(ctx.tree, ast.Module) else None
    if cls is None or not any(ast.unparse(b).rsplit(".", 1)[-1] in _SCHEDULER_BASES for b in cls.bases):
        return False
    for kw in call.keywords:
        if kw.arg not in _STEP_SIZE_KEYWORDS:
            continue
        if isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, int) and kw.value.value > 1:
            return True
        text = ast.unparse(kw.value).lower()
        if isinstance(kw.value, (ast.Name, ast.Attribute)) and "step" in text and "epoch" not in text:
            return True
    return False


def _step_counted_lambda(ctx: FileContext, fn: ast.FunctionDef, call: ast.Call) -> bool:
    """``LambdaLR(opt, f)`` where ``f`` (a ``lambda``, or a ``def`` of the method or the module)
    counts optimizer steps: its parameter is named for steps (``current_step``), or it reads a
    name or attribute named for steps (``warmup_steps``, ``self.hparams.max_steps``) and its
    parameter is not named for epochs."""
    if call_last(call) not in _LAMBDA_SCHEDULERS:
        return False
    arg = call.args[1] if len(call.args) > 1 else next(
        (kw.value for kw in call.keywords if kw.arg == "lr_lambda"), None)
    func: Optional[ast.AST] = arg
    if isinstance(arg, ast.Name):
        func = next((d for d in ast.walk(fn) if isinstance(d, ast.FunctionDef) and d.name == arg.id), None) \
            or next((d for d in ctx.tree.body if isinstance(d, ast.FunctionDef) and d.name == arg.id), None)
    if not isinstance(func, (ast.Lambda, ast.FunctionDef)) or len(func.args.args) != 1:
        return False
    param = func.args.args[0].arg
    if "epoch" in param.lower():
        return False
    body = func.body if isinstance(func, ast.FunctionDef) else [func.body]
    if not any(isinstance(n, ast.Name) and n.id == param for stmt in body for n in ast.walk(stmt)):
        return False  # a constant factor: stepped per epoch or per step, it is the same
    if "step" in param.lower() or param.lower() in {"it", "iteration", "iter"}:
        return True
    for stmt in body:
        for node in ast.walk(stmt):
            text = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
            if "epoch" in text.lower():
                return False
    return any(("step" in (node.attr if isinstance(node, ast.Attribute) else node.id).lower())
               for stmt in body for node in ast.walk(stmt) if isinstance(node, (ast.Attribute, ast.Name)))


def _returned_at(ctx: FileContext, fn: ast.FunctionDef, sched: ast.Call) -> ast.AST:
    """The ``return`` that hands the scheduler to Lightning (the line to change), else the scheduler."""
    parent = ctx.parent(sched)
    names = {t.id for t in parent.targets if isinstance(t, ast.Name)} if isinstance(parent, ast.Assign) else set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Return) and node.value is not None and any(
                n is sched or (isinstance(n, ast.Name) and n.id in names) for n in ast.walk(node.value)):
            return node
    return sched
