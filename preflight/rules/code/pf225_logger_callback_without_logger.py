"""PF225 logger-callback-without-logger: a Lightning ``Trainer(logger=False)`` (or ``barebones=True``)
given a ``LearningRateMonitor`` or ``DeviceStatsMonitor`` callback, which refuses a Trainer without a
logger when fitting starts."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, kwarg, literal, qualify
from preflight.rules.base import Rule, examples

_ROOTS = ("lightning.", "pytorch_lightning.")
# callbacks whose setup/on_train_start raise MisconfigurationException when `trainer.loggers` is empty
_NEED_LOGGER = frozenset({"LearningRateMonitor", "DeviceStatsMonitor"})


def _lightning(qual: str, last: str) -> bool:
    return qual.startswith(_ROOTS) and qual.rsplit(".", 1)[-1] == last


def _no_logger(ctx: FileContext, call: ast.Call) -> Optional[ast.expr]:
    """The argument that leaves the Trainer without loggers: ``logger=False``/``[]``, ``barebones=True``."""
    logger = kwarg(call, "logger")
    if logger is not None:
        if isinstance(logger, (ast.List, ast.Tuple)) and not logger.elts:
            return logger
        if literal(ctx, logger) is False:
            return logger
        return None  # a logger (or a value preflight cannot read): the callback has one
    barebones = kwarg(call, "barebones")
    if barebones is not None and literal(ctx, barebones) is True:
        return barebones
    return None


def _bound_values(ctx: FileContext, name: str, scope: ast.AST, before: int) -> Iterator[ast.expr]:
    """What ``name`` is bound to in ``scope`` before line ``before``: assigned values and the
    arguments of ``name.append(...)``/``name.extend([...])``/``name += [...]``."""
    for node in ast.walk(scope):
        if getattr(node, "lineno", before) >= before:
            continue
        value = _assigned(node, name)
        if value is not None:
            yield value


def _assigned(node: ast.AST, name: str) -> Optional[ast.expr]:
    """The value ``node`` binds to or adds into ``name`` (assignment, ``+=``, append/extend/insert)."""
    target: Optional[ast.expr] = None
    value: Optional[ast.expr] = None
    if isinstance(node, ast.Assign):
        target = next((t for t in node.targets if isinstance(t, ast.Name) and t.id == name), None)
        value = node.value
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        target, value = node.target, node.value
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr in ("append", "extend", "insert") and node.args:
        target, value = node.func.value, node.args[-1]
    if isinstance(target, ast.Name) and target.id == name:
        return value
    return None


def _monitors(ctx: FileContext, expr: ast.expr, scope: ast.AST, before: int, depth: int = 0) -> Iterator[ast.Call]:
    """The logger-needing callback constructions ``expr`` (a callbacks argument) holds."""
    if depth > 3:
        return
    if isinstance(expr, (ast.List, ast.Tuple, ast.Set)):
        for elt in expr.elts:
            yield from _monitors(ctx, elt.value if isinstance(elt, ast.Starred) else elt, scope, before, depth + 1)
    elif isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        yield from _monitors(ctx, expr.left, scope, before, depth + 1)
        yield from _monitors(ctx, expr.right, scope, before, depth + 1)
    elif isinstance(expr, ast.Call):
        qual = qualify(ctx, expr.func)
        if any(_lightning(qual, last) for last in _NEED_LOGGER):
            yield expr
    elif isinstance(expr, ast.Name):
        for value in _bound_values(ctx, expr.id, scope, before):
            yield from _monitors(ctx, value, scope, before, depth + 1)


@register
class LoggerCallbackWithoutLogger(Rule):
    code = "PF225"
    needs_text = ("Monitor",)
    name = "logger-callback-without-logger"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("lightning",)
    summary = ("`Trainer(logger=False)` with a `LearningRateMonitor`/`DeviceStatsMonitor` callback: the callback "
               "refuses a Trainer without a logger and `fit` stops before the first step")
    explanation = """
## What it finds

A Lightning `Trainer(...)` built with `logger=False` (or `logger=[]`, or `barebones=True`,
which turns logging off) whose `callbacks` hold a `LearningRateMonitor` or a
`DeviceStatsMonitor`: in the list literal itself, or in a list bound to the name passed as
`callbacks` earlier in the same function (assigned, appended or extended).

## Why it matters

Both callbacks write through `trainer.loggers` and check for one when the run starts:
`LearningRateMonitor.on_train_start` raises `MisconfigurationException("Cannot use
`LearningRateMonitor` callback with `Trainer` that has no logger.")`
(`lightning/pytorch/callbacks/lr_monitor.py`), and `DeviceStatsMonitor.setup` raises
"Cannot use `DeviceStatsMonitor` callback with `Trainer(logger=False)`"
(`callbacks/device_stats_monitor.py`). `logger=False` (or an empty list) leaves
`trainer.loggers` empty (`_LoggerConnector.configure_logger`). The job stops after the
data and model are set up, often on a cluster after queueing: Lightning issue 17159, a run
that logged through MLflow's autologging with `logger=False`.

## How to fix it

Give the Trainer a logger (`logger=MLFlowLogger(...)`, `CSVLogger(...)`, or leave the
default), or drop the callback.

## When preflight stays silent

* `logger` is a logger object, `True`, `None` (the default TensorBoard/CSV logger) or a
  value preflight cannot read.
* The callbacks list is built somewhere preflight does not follow (another function, a
  config), or holds no logger-needing callback.
"""
    bad_examples = examples("preflight.rules.code._pf225_examples", "PF225_BAD")
    good_examples = examples("preflight.rules.code._pf225_examples", "PF225_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call, qual in calls(ctx):
            if not _lightning(qual, "Trainer"):
                continue
            off = _no_logger(ctx, call)
            callbacks = kwarg(call, "callbacks")
            if off is None or callbacks is None:
                continue
            scope = ctx.enclosing_function(call) or ctx.tree
            monitor = next(_monitors(ctx, callbacks, scope, call.lineno + 1), None)
            if monitor is None:
                continue
            name = ast.unparse(monitor.func).rsplit(".", 1)[-1]
            setting = "barebones=True" if off is kwarg(call, "barebones") else f"logger={ast.unparse(off)}"
            yield ctx.finding(
                self, off,
                f"`{setting}` leaves this Trainer without a logger, and its callbacks hold `{name}`, which "
                f"writes through the Trainer's loggers and refuses to run without one: `fit` stops with "
                f"\"MisconfigurationException: Cannot use `{name}` callback with `Trainer` that has no logger\" "
                "before the first step. Give the Trainer a logger or drop the callback",
                evidence=[ctx.evidence(monitor, f"`{name}` needs `trainer.loggers`")])

