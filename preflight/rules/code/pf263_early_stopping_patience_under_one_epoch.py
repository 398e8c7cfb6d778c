"""PF263 early-stopping-patience-under-one-epoch: Lightning's ``EarlyStopping(patience=P)`` counts
validation checks; with ``val_check_interval=f < 1`` the trainer validates ``1/f`` times per epoch, and
``P * f < 1`` stops training less than one epoch after the last improvement."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Iterator, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, kwarg, literal, qualify
from preflight.rules.base import Rule, examples

_ROOTS = ("lightning.", "pytorch_lightning.")
_DEFAULT_PATIENCE = 3  # lightning/pytorch/callbacks/early_stopping.py


def _lightning(qual: str, last: str) -> bool:
    return qual.startswith(_ROOTS) and qual.rsplit(".", 1)[-1] == last


def _number(ctx: FileContext, expr: Optional[ast.expr]) -> Optional[float]:
    value = literal(ctx, expr) if expr is not None else None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _early_stops(ctx: FileContext, expr: ast.expr, scope: ast.AST, before: int,
                 depth: int = 0) -> Iterator[ast.Call]:
    """The ``EarlyStopping(...)`` constructions a ``callbacks`` argument holds: in the list itself, or
    bound earlier in the same scope to a name it holds (assigned, appended, extended)."""
    if depth > 3:
        return
    if isinstance(expr, (ast.List, ast.Tuple, ast.Set)):
        for elt in expr.elts:
            yield from _early_stops(ctx, elt.value if isinstance(elt, ast.Starred) else elt, scope, before, depth + 1)
    elif isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        yield from _early_stops(ctx, expr.left, scope, before, depth + 1)
        yield from _early_stops(ctx, expr.right, scope, before, depth + 1)
    elif isinstance(expr, ast.Call):
        if _lightning(qualify(ctx, expr.func), "EarlyStopping"):
            yield expr
    elif isinstance(expr, ast.Name):
        for node in ast.walk(scope):
            if getattr(node, "lineno", before) >= before:
                continue
            value: Optional[ast.expr] = None
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == expr.id
                                                    for t in node.targets):
                value = node.value
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == expr.id \
                    and node.func.attr in ("append", "extend", "insert") and node.args:
                value = node.args[-1]
            if value is not None:
                yield from _early_stops(ctx, value, scope, before, depth + 1)


@register
class EarlyStoppingPatienceUnderOneEpoch(Rule):
    code = "PF263"
    needs_text = ("EarlyStopping",)
    name = "early-stopping-patience-under-one-epoch"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("`EarlyStopping(patience=P)` counts validation checks: with `val_check_interval` below 1 it "
               "stops training less than one epoch after the last improvement")
    explanation = """
## What it finds

A Lightning `Trainer(val_check_interval=f, callbacks=[..., EarlyStopping(patience=P), ...])`
with a fractional `f` (validate `1/f` times per epoch) where `P * f < 1` (the patience
covers less than one training epoch), or where a comment on the call or just above it gives
the patience in epochs (`# stop if WER doesn't improve for 5 epochs` over `patience=5`). `P` is the literal given, or Lightning's default of 3;
the callback is in the callbacks list itself or bound to a name it holds earlier in the
same function. Also an integer `val_check_interval=N` with `check_val_every_n_epoch=None`
(validation every `N` batches across epochs, the setting of long or streamed datasets) where
`P * N` is under 10,000 batches: the run stops after a few thousand batches without an
improvement of `min_delta` (Lightning issue 17736: `patience=4` at `val_check_interval=1000`
ended a 30-epoch run within its first epoch).

## Why it matters

`patience` is "the number of checks with no improvement after which training will be
stopped" (Lightning's `EarlyStopping` docstring): it counts validation runs, not epochs.
When validation runs more than once per epoch, `EarlyStopping` checks at every
validation end (its `check_on_train_epoch_end` defaults to true only when
`val_check_interval == 1.0` and `check_val_every_n_epoch == 1`,
`callbacks/early_stopping.py` `setup`). `patience=3` with `val_check_interval=0.1` stops
after 0.3 epochs without improvement, long before the model has seen the training set
once more (Lightning issue 6254, "Improve documentation for EarlyStopping patience
parameter": patience meant as three epochs).

## How to fix it

Scale the patience to the validation checks: `patience=P / f` (`patience=30` for three
epochs at `val_check_interval=0.1`), or validate once per epoch.

## When preflight stays silent

* `val_check_interval` is 1.0, an integer (a batch count) with validation tied to epochs, or not
  read; or `P * f >= 1` and no comment counts the patience in epochs.
* An integer `val_check_interval=N` with `check_val_every_n_epoch=None` and `P * N` of 10,000
  batches or more, or a Trainer given `max_steps` (a run budgeted in steps).
* `EarlyStopping(check_on_train_epoch_end=True)`: the check runs once per training epoch.
* The callback is built elsewhere (another function, a config) than where the Trainer is.
"""
    bad_examples = examples("preflight.rules.code._pf263_examples", "PF263_BAD")
    good_examples = examples("preflight.rules.code._pf263_examples", "PF263_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call, qual in calls(ctx):
            if not _lightning(qual, "Trainer"):
                continue
            interval_expr = kwarg(call, "val_check_interval")
            callbacks = kwarg(call, "callbacks")
            if interval_expr is None or callbacks is None:
                continue
            interval = literal(ctx, interval_expr)
            scope = ctx.enclosing_function(call) or ctx.tree
            if _step_schedule(ctx, call, interval):
                yield from self._step_checks(ctx, call, interval_expr, int(interval), callbacks, scope)
                continue
            if not isinstance(interval, float) or not 0.0 < interval < 1.0:
                continue
            for stop in _early_stops(ctx, callbacks, scope, call.lineno + 1):
                on_epoch_end = kwarg(stop, "check_on_train_epoch_end")
                if on_epoch_end is not None and literal(ctx, on_epoch_end) is True:
                    continue  # checked once per training epoch: patience counts epochs
                given = kwarg(stop, "patience")
                patience = _number(ctx, given) if given is not None else float(_DEFAULT_PATIENCE)
                if patience is None:
                    continue
                said_epochs = _comment_says_epochs(ctx, stop, patience)
                if patience * interval >= 1.0 and said_epochs is None:
                    continue
                per_epoch = round(1.0 / interval, 2)
                said = f"patience={given_text(given)}" if given is not None else "the default patience of 3"
                epochs = round(patience * interval, 3)
                needed = round(patience / interval)
                yield ctx.finding(
                    self, given if given is not None else stop,
                    f"`EarlyStopping` with {said} counts validation checks, not epochs, and this Trainer's "
                    f"`val_check_interval={ast.unparse(interval_expr)}` validates {per_epoch:g} times per epoch: "
                    f"training stops {epochs:g} epochs after the last improvement"
                    + (". " if patience * interval >= 1.0 else ", ")
                    + ("" if patience * interval >= 1.0 else "before the model has seen the training set once more. ")
                    + (f"The comment at line {said_epochs} says {patience:g} epochs. " if said_epochs is not None else "")
                    + f"Scale the patience to the checks (`patience={needed}` for {patience:g} epochs), or validate "
                    "once per epoch",
                    evidence=[ctx.evidence(interval_expr, f"validation {per_epoch:g} times per epoch")])

    def _step_checks(self, ctx: FileContext, trainer: ast.Call, interval_expr: ast.expr, interval: int,
                     callbacks: ast.expr, scope: ast.AST) -> Iterator[Finding]:
        """Validation every ``interval`` batches across epochs (``check_val_every_n_epoch=None``): a
        patience of ``P`` checks stops the run ``P * interval`` batches after the last improvement."""
        for stop in _early_stops(ctx, callbacks, scope, trainer.lineno + 1):
            given = kwarg(stop, "patience")
            patience = _number(ctx, given) if given is not None else float(_DEFAULT_PATIENCE)
            if patience is None or patience * interval >= _STEP_WINDOW:
                continue
            said = f"patience={given_text(given)}" if given is not None else "the default patience of 3"
            window = int(patience * interval)
            yield ctx.finding(
                self, given if given is not None else stop,
                f"`EarlyStopping` with {said} counts validation checks, and this Trainer validates every "
                f"{interval} batches across epochs (`val_check_interval={ast.unparse(interval_expr)}`, "
                f"`check_val_every_n_epoch=None`): the run stops after {window:,} batches in which the monitored "
                "metric did not improve by `min_delta`, a small part of a run planned in epochs of a long or "
                f"streamed dataset. Scale the patience to the check interval (`patience={_STEP_WINDOW // interval}` "
                "checks or more), or validate less often",
                evidence=[ctx.evidence(interval_expr, f"validation every {interval} batches")])


# the batches a step-scheduled patience must cover before it is read as deliberate (PL issue 17736:
# patience=4 at val_check_interval=1000 stopped a 30-epoch streaming run within its first epoch)
_STEP_WINDOW = 10_000


def _step_schedule(ctx: FileContext, trainer: ast.Call, interval: object) -> bool:
    """``Trainer(val_check_interval=N, check_val_every_n_epoch=None)`` with an integer ``N > 1``:
    validation every ``N`` batches, counted across epochs."""
    every = kwarg(trainer, "check_val_every_n_epoch")
    return isinstance(interval, int) and not isinstance(interval, bool) and interval > 1 \
        and isinstance(every, ast.Constant) and every.value is None \
        and kwarg(trainer, "max_steps") is None  # a run budgeted in steps: the patience is read as deliberate


_EPOCHS = re.compile(r"#.*?\b(\d+)\s*(?:training\s+)?epochs?\b", re.IGNORECASE)


def _comment_says_epochs(ctx: FileContext, stop: ast.Call, patience: float) -> Optional[int]:
    """The line of a comment on the ``EarlyStopping(...)`` call or in the three lines above it that
    gives the patience in epochs (``# stop if WER doesn't improve for 5 epochs`` over ``patience=5``):
    the author counts epochs where Lightning counts validation checks."""
    text = (ctx.parsed.text if ctx.parsed.text is not None else ctx.parsed.source.text) or ""
    lines = text.splitlines()
    first, last = max(stop.lineno - 3, 1), getattr(stop, "end_lineno", None) or stop.lineno
    for number in range(first, min(last, len(lines)) + 1):
        found = _EPOCHS.search(lines[number - 1])
        if found is not None and float(found.group(1)) == patience:
            return number
    return None


def given_text(expr: Optional[ast.expr]) -> str:
    return ast.unparse(expr) if expr is not None else ""
