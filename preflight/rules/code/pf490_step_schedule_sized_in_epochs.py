"""PF490 step-schedule-sized-in-epochs: a schedule stepped every optimizer step (Lightning
``"interval": "step"``) whose length is the number of epochs."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import call_last, const_str
from preflight.rules.base import Rule, examples

# schedules sized in optimizer steps -> the argument that holds the length (keyword, position)
_LENGTH_ARG = {
    "get_linear_schedule_with_warmup": ("num_training_steps", 2),
    "get_cosine_schedule_with_warmup": ("num_training_steps", 2),
    "get_polynomial_decay_schedule_with_warmup": ("num_training_steps", 2),
    "get_cosine_with_hard_restarts_schedule_with_warmup": ("num_training_steps", 2),
    "get_scheduler": ("num_training_steps", -1),
    "OneCycleLR": ("total_steps", -1),
}


def _epochs_only(expr: Optional[ast.AST], assigned: dict[str, ast.expr], depth: int = 0) -> Optional[ast.AST]:
    """The ``...max_epochs`` / ``num_epochs`` the length is, alone (no product with a batch count):
    an attribute or a name whose last part names epochs, or a local name bound once to one."""
    if isinstance(expr, ast.Attribute) and expr.attr.lower().endswith("epochs"):
        return expr
    if isinstance(expr, ast.Name):
        if expr.id in assigned and depth < 2:
            return _epochs_only(assigned[expr.id], assigned, depth + 1)
        if expr.id.lower().endswith("epochs") and expr.id not in assigned:
            return expr
    return None


def _single_assignments(fn: ast.FunctionDef) -> dict[str, ast.expr]:
    """Local names ``fn`` binds exactly once, by a plain ``name = value``."""
    assigned: dict[str, ast.expr] = {}
    counts: dict[str, int] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            assigned[node.targets[0].id] = node.value
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
            if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)) else []
        for t in targets:
            for n in ast.walk(t):
                if isinstance(n, ast.Name):
                    counts[n.id] = counts.get(n.id, 0) + 1
    return {k: v for k, v in assigned.items() if counts.get(k) == 1}


def sized_in_epochs(fn: ast.FunctionDef, call: ast.Call) -> Optional[ast.AST]:
    """For a schedule sized in steps (``_LENGTH_ARG``) built in ``fn``: the epoch count its
    length is, alone, else None."""
    if call_last(call) not in _LENGTH_ARG:
        return None
    return _epochs_only(_length(call), _single_assignments(fn))


def _length(call: ast.Call) -> Optional[ast.expr]:
    key, pos = _LENGTH_ARG[call_last(call)]
    for kw in call.keywords:
        if kw.arg == key:
            return kw.value
    if pos >= 0 and len(call.args) > pos:
        return call.args[pos]
    return None


def _step_interval(fn: ast.FunctionDef) -> Optional[ast.expr]:
    """The ``"interval": "step"`` of a scheduler dict (literal or ``dict(...)``) in ``fn``."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Dict):
            for k, v in zip(node.keys, node.values):
                if const_str(k) == "interval" and const_str(v) == "step":
                    return v
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
            for kw in node.keywords:
                if kw.arg == "interval" and const_str(kw.value) == "step":
                    return kw.value
    return None


@register
class StepScheduleSizedInEpochs(Rule):
    code = "PF490"
    needs_text = ("epochs",)
    name = "step-schedule-sized-in-epochs"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = "A schedule stepped every optimizer step (`\"interval\": \"step\"`) is sized with the number of epochs"
    explanation = """
## What it finds

In `configure_optimizers`, a schedule sized in optimizer steps
(`get_linear_schedule_with_warmup` and the other transformers schedules,
`get_scheduler`, `OneCycleLR(total_steps=...)`) whose length is the number of
epochs alone (`num_training_steps=self.trainer.max_epochs`, a local `num_epochs`),
returned with `"interval": "step"`.

## Why it matters

With `"interval": "step"` Lightning steps the schedule after every optimizer step,
so a schedule sized in epochs ends after a handful of batches: a linear decay hits
zero and the rest of the run trains at learning rate 0, or, when the warmup is
longer than the epoch count, the warmup never ends and the rate never decays
(Lightning issue 18570, `num_training_steps=self.trainer.max_epochs` with 10
warmup steps). `OneCycleLR` raises once stepped past `total_steps`.

## How to fix it

Size it in steps: `num_training_steps=self.trainer.estimated_stepping_batches`
(or epochs times batches per epoch divided by the accumulation).

## When preflight stays silent

* The length multiplies the epochs by a step count (`max_epochs * len(loader)`).
* The schedule is stepped per epoch (no `"interval": "step"`): then epochs are its unit.
* `OneCycleLR(epochs=..., steps_per_epoch=...)`: the schedule multiplies them itself.
"""
    bad_examples = examples("preflight.rules.code._pf490_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf490_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for fn in ctx.nodes(ast.FunctionDef):
            if fn.name != "configure_optimizers":
                continue
            calls = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and call_last(n) in _LENGTH_ARG]
            if not calls:
                continue
            interval = _step_interval(fn)
            if interval is None:
                continue
            for call in calls:
                epochs = sized_in_epochs(fn, call)
                if epochs is None:
                    continue
                yield ctx.finding(
                    self, call,
                    f"`{call_last(call)}` is sized with `{ast.unparse(epochs)}` (a number of epochs) but is "
                    "stepped every optimizer step (`\"interval\": \"step\"`): the schedule ends after that "
                    "many batches, so the learning rate decays to its end value (or never leaves warmup) "
                    "within the first epoch. Size it in steps, e.g. "
                    "`num_training_steps=self.trainer.estimated_stepping_batches`",
                    evidence=[ctx.evidence(interval, "stepped per optimizer step here")])
