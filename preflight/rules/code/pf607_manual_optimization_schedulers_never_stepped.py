"""PF607 manual-optimization-schedulers-never-stepped: ``configure_optimizers`` returns schedulers under
manual optimization and nothing steps them."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import (
    class_attribute_manual,
    manual_optimization,
    may_optimize_manually,
)
from preflight.rules.base import Rule, examples

_SCHEDULER_SUFFIXES = ("LR", "LRScheduler", "Scheduler", "Schedule", "Decay", "Warmup", "Plateau", "WarmRestarts")


def _is_scheduler_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    text = ast.unparse(node.func)
    last = text.rsplit(".", 1)[-1]
    return "lr_scheduler" in text or last.endswith(_SCHEDULER_SUFFIXES) or (
        last.startswith("get_") and "schedule" in last)


def _scheduler_in_return(fn: ast.FunctionDef, ret: ast.Return) -> Optional[ast.AST]:
    """A scheduler the return value hands to Lightning: a scheduler built in the method and
    named in the return, or a ``{"lr_scheduler": ...}`` entry."""
    built = {t.id for st in ast.walk(fn) if isinstance(st, ast.Assign) and _is_scheduler_call(st.value)
             for t in st.targets if isinstance(t, ast.Name)}
    assert ret.value is not None
    for node in ast.walk(ret.value):
        if isinstance(node, ast.Name) and node.id in built:
            return node
        if _is_scheduler_call(node):
            return node
        if isinstance(node, ast.Dict):
            for key in node.keys:
                if isinstance(key, ast.Constant) and key.value in ("lr_scheduler", "scheduler"):
                    return key
    return None


def _stepped_elsewhere(ctx: FileContext) -> bool:
    """``self.lr_schedulers()`` anywhere, or a ``.step()`` on something named like a scheduler."""
    for node in ctx.nodes(ast.Attribute):
        if node.attr == "lr_schedulers":
            return True
    for call in ctx.nodes(ast.Call):
        if isinstance(call.func, ast.Attribute) and call.func.attr in ("step", "step_update") \
                and "sched" in ast.unparse(call.func.value).lower():
            return True
    return False


@register
class ManualOptimizationSchedulersNeverStepped(Rule):
    code = "PF607"
    needs_text = ("automatic_optimization",)
    name = "manual-optimization-schedulers-never-stepped"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("`configure_optimizers` returns LR schedulers under manual optimization, and nothing steps them: "
               "the learning rate never changes")
    explanation = """
## What it finds

A `LightningModule` with `self.automatic_optimization = False` whose
`configure_optimizers` returns LR schedulers (`return [opt_g, opt_d], [sched_g, sched_d]`,
or a dict with `"lr_scheduler"`), in a file that never calls `self.lr_schedulers()` and
never calls `.step()` on anything named like a scheduler.

## Why it matters

Under manual optimization Lightning does not step the schedulers it was given: the
Lightning docs ("Manual Optimization", *Learning Rate Scheduling*) say "call
`lr_scheduler.step()` at arbitrary intervals. Use `self.lr_schedulers()` in your
LightningModule to access any learning rate schedulers defined in your
`configure_optimizers()`", and the automatic loop's scheduler update is not run for
manual optimization. The schedule configured (warmup, decay) silently never happens and
the whole run trains at the initial learning rate (so-vits-svc-fork PR 291: the
ExponentialLR decay of both GAN optimizers stopped after the move to manual optimization).

## How to fix it

Step them yourself, at the interval they were sized for:

```python
def on_train_epoch_end(self):
    for scheduler in self.lr_schedulers():
        scheduler.step()
```

## When preflight stays silent

* Automatic optimization (Lightning steps the schedulers; `"interval"` picks when).
* The file calls `self.lr_schedulers()` anywhere, or `.step()` on an object whose name says
  scheduler (a scheduler kept on `self` and stepped by hand).
* `configure_optimizers` returns optimizers only.
* The class defines no `training_step` in the file (a subclass elsewhere may step them).
"""
    bad_examples = examples("preflight.rules.code._pf607_examples", "PF607_BAD")
    good_examples = examples("preflight.rules.code._pf607_examples", "PF607_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if _stepped_elsewhere(ctx):
            return
        for cls in ctx.nodes(ast.ClassDef):
            manual = class_attribute_manual(cls) or (manual_optimization(cls) if may_optimize_manually(ctx) else None)
            if manual is None or not any(isinstance(f, ast.FunctionDef) and f.name == "training_step"
                                         for f in cls.body):
                continue  # without the training logic here, a subclass elsewhere may step them
            for fn in cls.body:
                if not (isinstance(fn, ast.FunctionDef) and fn.name == "configure_optimizers"):
                    continue
                for ret in ast.walk(fn):
                    if not isinstance(ret, ast.Return) or ret.value is None:
                        continue
                    sched = _scheduler_in_return(fn, ret)
                    if sched is None:
                        continue
                    yield ctx.finding(
                        self, ret,
                        "`configure_optimizers` returns LR schedulers, but this module uses manual optimization "
                        "(`automatic_optimization = False`): Lightning does not step them then, and nothing in the "
                        "file calls `self.lr_schedulers()` or steps a scheduler, so the learning rate never changes. "
                        "Step them yourself (`for s in self.lr_schedulers(): s.step()` in `on_train_epoch_end`)",
                        evidence=[ctx.evidence(manual, "manual optimization"),
                                  ctx.evidence(sched, "a scheduler handed to Lightning")])
                    break
