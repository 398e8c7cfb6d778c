"""PF650 manual-epoch-scheduler-stepped-per-batch: under manual optimization, a scheduler configured with
``"interval": "epoch"`` is stepped unconditionally in ``training_step`` (once per batch)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import class_attribute_manual, manual_optimization
from preflight.rules.base import Rule, examples


def _epoch_interval(fn: ast.FunctionDef) -> Optional[ast.AST]:
    """The ``"interval": "epoch"`` value of a scheduler dict built in ``configure_optimizers``, when every
    ``"interval"`` there says ``"epoch"`` (with an ``"interval": "step"`` or a computed interval beside it,
    which scheduler a name in ``training_step`` holds is not followed)."""
    found: Optional[ast.AST] = None
    for node in ast.walk(fn):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if isinstance(key, ast.Constant) and key.value == "interval":
                    if not (isinstance(value, ast.Constant) and value.value == "epoch"):
                        return None
                    found = found or value
    return found


def _is_lr_schedulers(node: Optional[ast.AST]) -> bool:
    """``self.lr_schedulers()`` (optionally indexed: ``self.lr_schedulers()[0]``)."""
    if isinstance(node, ast.Subscript):
        node = node.value
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
        and node.func.attr == "lr_schedulers" and isinstance(node.func.value, ast.Name) \
        and node.func.value.id == "self" and not node.args


def _scheduler_names(fn: ast.FunctionDef) -> set[str]:
    """Names bound in ``fn`` to what ``self.lr_schedulers()`` returns (``sch = ...``, ``a, b = ...``,
    ``for s in self.lr_schedulers()``)."""
    out: set[str] = set()
    for node in ast.walk(fn):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign) and _is_lr_schedulers(node.value):
            targets = list(node.targets)
        elif isinstance(node, ast.For) and _is_lr_schedulers(node.iter):
            targets = [node.target]
        for target in targets:
            elts = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
            out.update(e.id for e in elts if isinstance(e, ast.Name))
    return out


def _unconditional_steps(fn: ast.FunctionDef, names: set[str]) -> list[ast.Call]:
    """``x.step()`` calls on those names (or on ``self.lr_schedulers()`` itself) that no ``if``,
    conditional expression, ``while``, ``try`` or nested function of ``fn`` guards."""
    out: list[ast.Call] = []

    def visit(node: ast.AST) -> None:
        if node is not fn and isinstance(node, (ast.If, ast.IfExp, ast.While, ast.Try, ast.FunctionDef,
                                                ast.AsyncFunctionDef, ast.Lambda)):
            return
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "step" \
                and not node.args and not node.keywords:
            target = node.func.value
            if (isinstance(target, ast.Name) and target.id in names) or _is_lr_schedulers(target):
                out.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(fn)
    return out


@register
class ManualEpochSchedulerSteppedPerBatch(Rule):
    code = "PF650"
    needs_text = ("automatic_optimization", "lr_schedulers")
    name = "manual-epoch-scheduler-stepped-per-batch"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("Under manual optimization a scheduler configured with `\"interval\": \"epoch\"` is stepped in "
               "`training_step` on every batch: Lightning ignores the interval")
    explanation = """
## What it finds

A `LightningModule` with `self.automatic_optimization = False` whose
`configure_optimizers` returns a scheduler dict with `"interval": "epoch"`, and whose
`training_step` calls `.step()` on `self.lr_schedulers()` (or a name bound to it)
outside any `if`: once per batch.

## Why it matters

Under manual optimization Lightning steps no scheduler and ignores the
`lr_scheduler_config` keys (`"interval"`, `"frequency"`): the Lightning docs
("Manual Optimization", *Learning Rate Scheduling*) leave the stepping to the user's
`sch.step()` calls. The `"interval": "epoch"` says the schedule was sized in epochs
(`StepLR(step_size=50)` meaning 50 epochs), but a call in `training_step` steps it every
batch: the learning rate decays hundreds of times faster than intended and is
effectively zero after the first epoch (Lightning issue 17738, SRGAN with two StepLR
schedulers; held-out-34).

## How to fix it

Step epoch schedulers once per epoch yourself:

```python
def on_train_epoch_end(self):
    for sch in self.lr_schedulers():
        sch.step()
```

or guard the call in `training_step` with `if self.trainer.is_last_batch:`.

## When preflight stays silent

* Automatic optimization (Lightning honours `"interval"`).
* No `"interval": "epoch"` in `configure_optimizers` (`"interval": "step"`, or no
  interval: a per-batch step may be what the schedule was sized for), or another
  scheduler there has a different or computed interval (which one a name in
  `training_step` holds is not followed).
* The step is under an `if` (`if self.trainer.is_last_batch:`, `if batch_idx % n == 0:`),
  in `on_train_epoch_end`, or on something not taken from `self.lr_schedulers()`.
"""
    bad_examples = examples("preflight.rules.code._pf650_examples", "PF650_BAD")
    good_examples = examples("preflight.rules.code._pf650_examples", "PF650_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for cls in ctx.nodes(ast.ClassDef):
            methods = {fn.name: fn for fn in cls.body if isinstance(fn, ast.FunctionDef)}
            if "training_step" not in methods or "configure_optimizers" not in methods:
                continue
            manual = class_attribute_manual(cls) or manual_optimization(cls)
            if manual is None:
                continue
            interval = _epoch_interval(methods["configure_optimizers"])
            if interval is None:
                continue
            step = methods["training_step"]
            for call in _unconditional_steps(step, _scheduler_names(step)):
                yield ctx.finding(
                    self, call,
                    f"`{ast.unparse(call)}` runs on every batch: this module uses manual optimization, where "
                    "Lightning ignores the `\"interval\": \"epoch\"` of `configure_optimizers` and steps nothing "
                    "itself, so a schedule sized in epochs advances once per batch. Step it in "
                    "`on_train_epoch_end` (or under `if self.trainer.is_last_batch:`)",
                    evidence=[ctx.evidence(manual, "manual optimization"),
                              ctx.evidence(interval, "the schedule is meant to step per epoch")])
