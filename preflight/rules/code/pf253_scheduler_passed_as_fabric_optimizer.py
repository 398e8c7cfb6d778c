"""PF253 scheduler-passed-as-fabric-optimizer: ``fabric.setup(model, optimizer, scheduler)``: Fabric's
``setup(module, *optimizers, scheduler=None)`` takes a positional scheduler for one more optimizer."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls
from preflight.rules.base import Rule, examples

_FABRIC = ("lightning.Fabric", "lightning.fabric.Fabric", "lightning_fabric.Fabric",
           "lightning.fabric.fabric.Fabric", "lightning_fabric.fabric.Fabric")
# torch.optim.lr_scheduler classes, SWA's SWALR and the transformers schedule factories
_SCHEDULERS = frozenset({
    "LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR", "LinearLR", "ExponentialLR",
    "SequentialLR", "CosineAnnealingLR", "ChainedScheduler", "ReduceLROnPlateau", "CyclicLR", "OneCycleLR",
    "CosineAnnealingWarmRestarts", "PolynomialLR", "SWALR", "LRScheduler", "_LRScheduler",
})


def _scheduler_call(value: ast.AST) -> Optional[str]:
    """The callee of ``value`` when it builds a learning-rate scheduler."""
    if not isinstance(value, ast.Call):
        return None
    func = value.func
    last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if last in _SCHEDULERS or ("lr_scheduler" in ast.unparse(func)) or \
            (last.startswith("get_") and "schedule" in last):
        return last
    return None


def _scheduler_names(ctx: FileContext) -> dict[str, str]:
    """Names (``scheduler``, ``self.sched``) assigned a scheduler constructor, with that callee."""
    out: dict[str, str] = {}
    for node in ctx.nodes(ast.Assign):
        callee = _scheduler_call(node.value)
        if callee is None:
            continue
        for target in node.targets:
            if isinstance(target, (ast.Name, ast.Attribute)):
                out[ast.unparse(target)] = callee
    return out


def _is_fabric_receiver(receiver: ast.AST, fabrics: set[str]) -> bool:
    text = ast.unparse(receiver)
    return text in fabrics or "fabric" in text.lower().rsplit(".", 1)[-1]


@register
class SchedulerPassedAsFabricOptimizer(Rule):
    code = "PF253"
    name = "scheduler-passed-as-fabric-optimizer"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("`fabric.setup(model, optimizer, scheduler)`: a learning-rate scheduler passed positionally is set "
               "up as one more optimizer")
    frameworks = ("lightning",)
    needs_text = ("setup",)
    explanation = """
## What it finds

A Lightning Fabric `setup(...)` call (`fabric.setup`, `self.fabric.setup`, or on a name
assigned `Fabric(...)`) with a learning-rate scheduler among its positional arguments after
the module: a name assigned a `torch.optim.lr_scheduler.*` class, `SWALR` or a transformers
`get_*_schedule*` factory in the file, or a name that says it is one (`scheduler`,
`lr_scheduler`, `sched`).

## Why it matters

The signature is `Fabric.setup(module, *optimizers, scheduler=None, move_to_device=True)`
(lightning/fabric/fabric.py): every positional argument after the module is an optimizer.
The scheduler is handed to the strategy's `setup_optimizer` and wrapped in a
`_FabricOptimizer`, which copies the scheduler's attributes into the wrapper and routes
`step()` to the strategy's `optimizer_step`. The object the script gets back and keeps
stepping and logging is that wrapper: its `get_last_lr()` and `state_dict()` are a copy
frozen at setup time, and strategies that allow one optimizer (DeepSpeed) take the
scheduler for a second one. Reported in luca-medeiros/lightning-sam PR 17 ("LR Scheduler
should not be passed to fabric.setup": `get_last_lr()` gave 0 all the time, the schedule
moved "in a wrong direction"); the same three-argument line appears in other public
Fabric scripts.

## How to fix it

`model, optimizer = fabric.setup(model, optimizer)` and step the scheduler yourself, or
pass it by keyword where the Lightning release has it:
`model, optimizer, scheduler = fabric.setup(model, optimizer, scheduler=scheduler)`.

## When preflight stays silent

* The scheduler is passed as `scheduler=...`, or not at all.
* The extra positional argument is not known to be a scheduler (a second optimizer of a GAN).
* The receiver is not a Fabric (another library's `setup`).
"""
    bad_examples = examples("preflight.rules.code._pf253_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf253_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        setups = [c for c in ctx.nodes(ast.Call) if isinstance(c.func, ast.Attribute) and c.func.attr == "setup"
                  and len(c.args) >= 2]
        if not setups:
            return
        ctors = {id(c) for c, q in calls(ctx) if q in _FABRIC}
        fabrics = {ast.unparse(t) for a in ctx.nodes(ast.Assign) if id(a.value) in ctors for t in a.targets}
        names = _scheduler_names(ctx)
        for call in setups:
            assert isinstance(call.func, ast.Attribute)
            if not _is_fabric_receiver(call.func.value, fabrics):
                continue
            for arg in call.args[1:]:
                if not isinstance(arg, (ast.Name, ast.Attribute)):
                    continue
                text = ast.unparse(arg)
                built = names.get(text)
                if built is None and "sched" not in text.rsplit(".", 1)[-1].lower():
                    continue
                what = f"`{text}` (built by `{built}`)" if built else f"`{text}`"
                yield ctx.finding(
                    self, arg,
                    f"{what} is passed to `{ast.unparse(call.func)}` as a positional argument, and "
                    "`Fabric.setup(module, *optimizers, scheduler=None)` takes every positional argument after "
                    "the module for an optimizer: the scheduler is wrapped as one (a `_FabricOptimizer` whose "
                    "`get_last_lr()`/`state_dict()` are a copy frozen at setup), and the schedule the script "
                    "steps and logs is not the one it built. Leave it out of `setup` "
                    f"(`fabric.setup(model, optimizer)`) or pass `scheduler={text}`")
