"""PF325 plateau-mode-contradicts-metric: a ``ReduceLROnPlateau`` whose ``mode`` points the wrong way for
the metric it watches (``mode="max"`` on a validation loss, the default ``"min"`` on an accuracy)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._metric_direction import metric_words
from preflight.rules._pf4_support import UNKNOWN, calls, has_unpacking, kwarg, literal, target_text
from preflight.rules.base import Rule, examples
from preflight.rules.code.pf120_checkpoint_mode_min_on_score import score_metric
from preflight.rules.code.pf252_checkpoint_mode_contradicts_metric import loss_metric

# words that turn a quantity around (``neg_acc``, ``acc_drop``): the direction is unknown
_TURNED = frozenset({"neg", "negative", "minus", "inv", "inverse", "reduction", "improvement", "gain", "delta",
                     "diff", "drop", "decrease", "gap"})
# wrappers a metric passes through on its way to ``step`` (``scheduler.step(val_loss.item())``)
_UNWRAP = frozenset({"item", "float", "mean", "cpu", "detach", "tolist"})


def _why(metric: str, mode: str) -> Optional[str]:
    """Why ``mode`` is wrong for ``metric``, or None."""
    if mode == "max":
        word = loss_metric(metric)
        return None if word is None else f"a lower-is-better metric ({word!r})"
    if mode == "min":
        words = metric_words(metric)
        if any(w in _TURNED or w.startswith("neg") for w in words):
            return None
        word = score_metric(metric)
        return None if word is None else f"a higher-is-better metric ({word!r})"
    return None


def _metric_name(expr: ast.expr) -> Optional[str]:
    """The name of the value handed to ``step``: ``val_loss``, ``self.val_acc``, ``metrics["val_acc"]``,
    ``val_loss.item()``; None for an expression that computes something (``-acc``, ``1 - acc``)."""
    while isinstance(expr, ast.Call) and not expr.keywords:
        func = expr.func
        if isinstance(func, ast.Attribute) and func.attr in _UNWRAP and not expr.args:
            expr = func.value
        elif isinstance(func, ast.Name) and func.id in _UNWRAP and len(expr.args) == 1:
            expr = expr.args[0]
        else:
            return None
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute):
        return expr.attr
    if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant) \
            and isinstance(expr.slice.value, str):
        return expr.slice.value
    return None


def _is_ref(node: Optional[ast.AST], call: ast.Call, name: Optional[str]) -> bool:
    if node is None:
        return False
    return node is call or (name is not None and target_text(node) == name)


@register
class PlateauModeContradictsMetric(Rule):
    code = "PF325"
    name = "plateau-mode-contradicts-metric"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("`ReduceLROnPlateau` whose `mode` points the wrong way for the metric it watches "
               "(`mode=\"max\"` on a loss, the default `\"min\"` on an accuracy)")
    frameworks = ("pytorch", "lightning")
    needs_text = ("ReduceLROnPlateau",)
    explanation = """
## What it finds

A `torch.optim.lr_scheduler.ReduceLROnPlateau(...)` with a known `mode` (a literal, a
resolvable constant, or the default `"min"`) and a metric whose name says the other
direction:

* the Lightning monitor next to it: a dict `{"scheduler": sched, "monitor": "val_loss"}`
  (or `{"lr_scheduler": sched, "monitor": ...}`) naming the scheduler or holding its call;
* the value the script hands to `sched.step(...)`: `sched.step(val_loss)`,
  `sched.step(metrics["val_acc"])`, `sched.step(val_acc.item())`.

`mode="max"` on a lower-is-better name (`loss`, `err`/`error`, `wer`, `cer`, `perplexity`,
`mse`, `mae`, `nll`, `fid`, ...), or `mode="min"` (given or default) on a higher-is-better
one (`acc`, `f1`, `auroc`, `bleu`, `map`, `iou`, `dice`, `psnr`, ...: PF120's words).

## Why it matters

`mode` says which direction is an improvement (torch/optim/lr_scheduler.py: `mode="min"`:
"lr will be reduced when the quantity monitored has stopped decreasing"). With `mode="max"`
on a validation loss every epoch in which the loss falls counts as a bad epoch, so the
learning rate is cut by `factor` every `patience + 1` epochs while the model is still
learning, and training stalls at a tiny step size; with the default `"min"` on an accuracy
the same happens to a run whose accuracy rises. Nothing fails. Reported in
Lightning-AI/pytorch-lightning issue 673 ("Correctly using `ReduceLROnPlateau`": a MNIST
module with `mode='max'` on `val_loss`; "You're absolutely right").

## How to fix it

`mode="min"` for a loss or error, `mode="max"` for an accuracy or score.

## When preflight stays silent

* `mode` is not known (a config value) or the call unpacks `**kwargs`.
* The metric is computed in the call (`sched.step(-val_acc)`, `sched.step(1 - acc)`), or its name
  holds words of both kinds or a word that turns it around (`neg_loss`, `loss_improvement`,
  `acc_drop`), or no direction word at all (`metric`, `score` alone).
* The scheduler is not torch's (Keras' `ReduceLROnPlateau` callback has `monitor=`/`mode="auto"`).
"""
    bad_examples = examples("preflight.rules.code._pf325_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf325_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        plateaus = [call for call, qual in calls(ctx)
                    if qual.startswith("torch.") and qual.rsplit(".", 1)[-1] == "ReduceLROnPlateau"]
        if not plateaus:
            return
        names = [self._bound_name(ctx, call) for call in plateaus]
        for call, name in zip(plateaus, names):
            if has_unpacking(call):
                continue
            mode_expr = kwarg(call, "mode")
            if mode_expr is None and len(call.args) > 1:
                mode_expr = call.args[1]
            mode = "min" if mode_expr is None else literal(ctx, mode_expr)
            if mode is UNKNOWN or mode not in ("min", "max"):
                continue
            # a name bound by several plateau schedulers is matched within the building function only
            scope = None if name is None or names.count(name) == 1 else ctx.enclosing(
                call, ast.FunctionDef, ast.AsyncFunctionDef)
            found = self._watched(ctx, call, name, scope)
            for metric, where in found:
                why = _why(metric, mode)
                if why is None:
                    continue
                right = "min" if mode == "max" else "max"
                given = f"mode={mode!r}" if mode_expr is not None else "the default mode='min'"
                direction = "stopped decreasing" if mode == "min" else "stopped increasing"
                yield ctx.finding(
                    self, call,
                    f"`ReduceLROnPlateau` with {given} watches {metric!r}, {why}: the scheduler cuts the "
                    f"learning rate when the quantity has {direction}, so every epoch in which {metric!r} "
                    f"improves counts as a bad one and the rate is divided by `factor` every `patience + 1` "
                    f"epochs while the model is still learning. Use mode=\"{right}\"",
                    evidence=[ctx.evidence(where, f"the scheduler watches {metric!r} here")])
                break

    @staticmethod
    def _bound_name(ctx: FileContext, call: ast.Call) -> Optional[str]:
        parent = ctx.parent(call)
        if isinstance(parent, ast.Assign) and len(parent.targets) == 1:
            return target_text(parent.targets[0])
        if isinstance(parent, ast.AnnAssign):
            return target_text(parent.target)
        return None

    @staticmethod
    def _watched(ctx: FileContext, call: ast.Call, name: Optional[str],
                 scope: Optional[ast.AST]) -> list[tuple[str, ast.AST]]:
        """(metric name, node) for each metric the scheduler watches: a Lightning monitor beside it, or
        the value its ``step`` is given."""
        out: list[tuple[str, ast.AST]] = []
        for d in ctx.nodes(ast.Dict):
            if scope is not None and not ctx.under(d, scope):
                continue
            keys = {k.value: v for k, v in zip(d.keys, d.values)
                    if isinstance(k, ast.Constant) and isinstance(k.value, str)}
            monitor = keys.get("monitor")
            if not (isinstance(monitor, ast.Constant) and isinstance(monitor.value, str)):
                continue
            if _is_ref(keys.get("scheduler"), call, name) or _is_ref(keys.get("lr_scheduler"), call, name):
                out.append((monitor.value, monitor))
        if name is None:
            return out
        for step in ctx.nodes(ast.Call):
            func = step.func
            if not (isinstance(func, ast.Attribute) and func.attr == "step" and target_text(func.value) == name):
                continue
            if scope is not None and not ctx.under(step, scope):
                continue
            arg = step.args[0] if step.args else kwarg(step, "metrics")
            if arg is None:
                continue
            metric = _metric_name(arg)
            if metric is not None:
                out.append((metric, arg))
        return out
