"""PF683 total-steps-divided-by-max-epochs: a scheduler length computed as the number of batches in one
epoch DIVIDED by ``max_epochs`` (the GLUE notebook's ``ab_size = accumulate_grad_batches * max_epochs``)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_STEP_KWARGS = {"num_training_steps", "total_steps", "num_total_steps", "t_total", "max_steps", "T_max",
                "total_iters", "num_steps"}


def _key(node: ast.AST) -> Optional[str]:
    """``name`` or ``self.name``: a value a function assigns and reads back."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return f"self.{node.attr}"
    return None


def _is_epochs(node: ast.AST) -> bool:
    """``max_epochs``, ``self.trainer.max_epochs``, ``args.max_epochs``, ``float(...max_epochs)``."""
    if isinstance(node, ast.Call) and len(node.args) == 1 and ast.unparse(node.func) in ("float", "int"):
        return _is_epochs(node.args[0])
    if isinstance(node, ast.Name):
        return node.id == "max_epochs"
    return isinstance(node, ast.Attribute) and node.attr == "max_epochs"


def _factors(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return _factors(node.left) + _factors(node.right)
    return [node]


def _mentions(node: ast.AST, values: dict[str, ast.AST], word: str, depth: int = 0) -> bool:
    """``node`` reads ``word`` (a name or attribute), following the function's own assignments."""
    for sub in ast.walk(node):
        if (isinstance(sub, ast.Attribute) and sub.attr == word) or (isinstance(sub, ast.Name) and sub.id == word):
            return True
        key = _key(sub)
        if key is not None and key in values and depth < 3 and _mentions(values[key], values, word, depth + 1):
            return True
    return False


def _reads_len(node: ast.AST, values: dict[str, ast.AST], depth: int = 0) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id == "len":
            return True
        key = _key(sub)
        if key is not None and key in values and depth < 3 and _reads_len(values[key], values, depth + 1):
            return True
    return False


def _divisor_has_epochs(node: ast.AST, values: dict[str, ast.AST]) -> bool:
    """The divisor is ``max_epochs`` or a product with it as a factor (through one assigned name)."""
    key = _key(node)
    if key is not None and key in values:
        node = values[key]
    return any(_is_epochs(f) for f in _factors(node))


def _step_target(fn: ast.AST, assign: ast.AST, div: ast.BinOp, ctx: FileContext) -> bool:
    """The quotient is a step count: assigned to a name with ``step``/``iter`` in it, or passed as a
    scheduler length keyword."""
    if isinstance(assign, (ast.Assign, ast.AnnAssign)):
        targets = assign.targets if isinstance(assign, ast.Assign) else [assign.target]
        for t in targets:
            name = (_key(t) or "").lower()
            if "step" in name or "iter" in name:
                return True
    for parent in ctx.ancestors(div):
        if isinstance(parent, ast.keyword) and parent.arg in _STEP_KWARGS:
            return True
        if parent is fn:
            break
    return False


@register
class TotalStepsDividedByMaxEpochs(Rule):
    code = "PF683"
    name = "total-steps-divided-by-max-epochs"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    needs_text = ("max_epochs",)
    summary = ("A scheduler's step count is the number of batches in one epoch divided by max_epochs (not "
               "multiplied): the schedule ends after a few steps")
    explanation = """
## What it finds

A step count computed from the size of the training data and then DIVIDED by the number of
epochs: the Lightning GLUE notebook's

```python
tb_size = self.hparams.train_batch_size * max(1, self.trainer.num_devices)
ab_size = self.trainer.accumulate_grad_batches * float(self.trainer.max_epochs)
self.total_steps = (len(train_loader.dataset) // tb_size) // ab_size
```

that is, a division whose dividend reads `len(...)` (directly or through the function's own
assignments) and whose divisor is `max_epochs` or a product with `max_epochs` as a factor, where
the quotient is a step count (assigned to a name with `step`/`iter` in it, or passed as
`num_training_steps=`, `total_steps=`, `T_max=`, ...).

## Why it matters

The number of optimizer steps of a run is batches per epoch / accumulation **times** the number
of epochs. Dividing by the epochs instead gives a tiny number (3 instead of about 3438 for MRPC
with 30 epochs, Lightning-AI/pytorch-lightning#10972), so a linear warmup/decay schedule built
from it reaches its end after a few steps and the learning rate stays 0 (or at its floor) for
the rest of training. The loss stops moving and nothing fails.

## How to fix it

`total_steps = len(train_loader) // accumulate_grad_batches * max_epochs`, or, on Lightning 1.6
and later, `self.trainer.estimated_stepping_batches`.

## When preflight stays silent

* The product is multiplied, not divided (`(len(ds) // tb_size) * ab_size`).
* The dividend also reads `max_epochs` or `max_steps` (another computation, not this one).
* The dividend does not read a length (`max_steps // max_epochs` is steps per epoch, right).
* The quotient is not a step count (a name without `step`/`iter`, no scheduler keyword).
"""
    url = "https://github.com/Lightning-AI/pytorch-lightning/issues/10972"
    bad_examples = examples("preflight.rules.code._pf683_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf683_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        seen: set[int] = set()
        for fn in ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
            values: dict[str, ast.AST] = {}
            for node in ast.walk(fn):
                if isinstance(node, ast.Assign) and len(node.targets) == 1:
                    key = _key(node.targets[0])
                    if key is not None:
                        values.setdefault(key, node.value)
            for stmt in ast.walk(fn):
                if not isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.Expr, ast.Return)) or stmt.value is None:
                    continue
                for div in ast.walk(stmt.value):
                    if not (isinstance(div, ast.BinOp) and isinstance(div.op, (ast.Div, ast.FloorDiv))) \
                            or id(div) in seen:
                        continue
                    if not _divisor_has_epochs(div.right, values):
                        continue
                    if not _reads_len(div.left, values) or _mentions(div.left, values, "max_epochs") \
                            or _mentions(div.left, values, "max_steps"):
                        continue
                    if not _step_target(fn, stmt, div, ctx):
                        continue
                    seen.add(id(div))
                    yield ctx.finding(
                        self, div,
                        f"`{ast.unparse(div)}` divides the batches of one epoch by `max_epochs` (through "
                        f"`{ast.unparse(div.right)}`): a run's optimizer steps are batches per epoch TIMES the epochs, so "
                        "this step count is far too small and a schedule built from it ends after a few steps (the "
                        "learning rate then stays at its final value). Multiply by max_epochs, or use "
                        "`trainer.estimated_stepping_batches`")
