"""PF271 logged-loss-running-sum: a running sum of batch losses (``total_loss += loss``) logged as the
training loss as it is, never divided by the number of batches it adds up."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

# logging calls: method name -> position of the tag (None: the first argument is a dict of values)
_LOG_METHODS = {"log": 0, "log_metrics": None, "add_scalar": 0, "log_dict": None}
# wrappers that keep a value's size: ``total.item()``, ``float(total)``, ``total.detach().cpu()``
_KEEP_METHODS = ("item", "detach", "cpu", "float", "tolist")
_KEEP_FUNCS = ("float", "round")
# a key that says it is a sum is logged as meant
_SUM_WORDS = ("sum", "total", "cum")


def _logged(call: ast.Call) -> Iterator[tuple[str, ast.expr]]:
    """(key, value) pairs a logging call writes: ``log({"k": v})``, ``add_scalar("k", v)``, ``log("k", v)``."""
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr not in _LOG_METHODS:
        return
    tag = _LOG_METHODS[func.attr]
    if tag is not None and len(call.args) > 1 and isinstance(call.args[0], ast.Constant) \
            and isinstance(call.args[0].value, str):
        yield call.args[0].value, call.args[1]
        return
    first = call.args[0] if call.args else None
    if isinstance(first, ast.Dict):
        for key, value in zip(first.keys, first.values):
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                yield key.value, value


def _bare_name(expr: ast.expr) -> Optional[str]:
    """The name a logged value is, through size-keeping wrappers; None when it is computed."""
    while True:
        if isinstance(expr, ast.Name):
            return expr.id
        if isinstance(expr, ast.Call) and not expr.keywords:
            func = expr.func
            if isinstance(func, ast.Attribute) and func.attr in _KEEP_METHODS and not expr.args:
                expr = func.value
                continue
            if isinstance(func, ast.Name) and func.id in _KEEP_FUNCS and expr.args:
                expr = expr.args[0]
                continue
        return None


def _has_division(node: ast.AST) -> bool:
    return any(isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Div, ast.FloorDiv)) for n in ast.walk(node)) \
        or any(isinstance(n, ast.Call) and isinstance(n.func, (ast.Attribute, ast.Name))
               and (n.func.attr if isinstance(n.func, ast.Attribute) else n.func.id) in ("mean", "div", "true_divide")
               for n in ast.walk(node))


def _divided_names(scope: ast.AST) -> set[str]:
    """Names the scope divides in place or reassigns through a division (``loss = loss / accum``,
    ``total /= n``, ``total = total / len(loader)``)."""
    out: set[str] = set()
    for node in ast.walk(scope):
        if isinstance(node, ast.AugAssign) and isinstance(node.op, (ast.Div, ast.FloorDiv)) \
                and isinstance(node.target, ast.Name):
            out.add(node.target.id)
        elif isinstance(node, ast.Assign) and _has_division(node.value):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out.add(target.id)
    return out


def _training_loop(loop: ast.AST) -> bool:
    """A loop over batches: it iterates a loader or runs a backward pass or an optimizer step (a loop over
    the terms of one loss, ``for head in heads: loss += ...``, is none)."""
    if isinstance(loop, ast.For) and "loader" in ast.unparse(loop.iter).lower():
        return True
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("backward", "step")
               for n in ast.walk(loop))


def _loop_sum(scope: ast.AST, name: str) -> Optional[ast.AugAssign]:
    """``name += <a loss>`` inside a training loop of the scope."""
    for node in ast.walk(scope):
        if not isinstance(node, (ast.For, ast.While)) or not _training_loop(node):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.AugAssign) and isinstance(inner.op, ast.Add) \
                    and isinstance(inner.target, ast.Name) and inner.target.id == name \
                    and any(isinstance(n, (ast.Name, ast.Attribute)) and "loss" in
                            (n.id if isinstance(n, ast.Name) else n.attr).lower() for n in ast.walk(inner.value)):
                return inner
    return None


def _zero_assign(node: ast.AST, name: str) -> bool:
    """``name = 0`` / ``0.0`` / ``torch.tensor(0.0)`` / ``torch.zeros(...)``."""
    if not isinstance(node, ast.Assign) or not any(isinstance(t, ast.Name) and t.id == name
                                                   for t in node.targets):
        return False
    value = node.value
    if isinstance(value, ast.Constant) and value.value == 0 and not isinstance(value.value, bool):
        return True
    if isinstance(value, ast.Call):
        callee = ast.unparse(value.func)
        if callee.endswith("zeros") or (callee.endswith("tensor") and value.args
                                        and isinstance(value.args[0], ast.Constant)
                                        and value.args[0].value == 0):
            return True
    return False


def _starts_at_zero(scope: ast.AST, name: str) -> bool:
    """A zero start of ``name`` in the scope: a running total."""
    return any(_zero_assign(node, name) for node in ast.walk(scope))


def _reset_each_batch(ctx: FileContext, total: ast.AugAssign, name: str) -> bool:
    """The total starts again at zero inside the innermost batch loop around its ``+=``: it sums the
    terms of one step's loss (``loss = 0; loss += nll + kl; loss += gan``), not the batches."""
    for anc in ctx.ancestors(total):
        if isinstance(anc, (ast.For, ast.While)) and _training_loop(anc):
            return any(_zero_assign(node, name) and getattr(node, "lineno", 0) < total.lineno for node in ast.walk(anc))
    return False


@register
class LoggedLossRunningSum(Rule):
    code = "PF271"
    name = "logged-loss-running-sum"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "accelerate", "lightning")
    needs_text = ("loss",)
    summary = ("A running sum of batch losses (`total_loss += loss`) is logged as the training loss without "
               "being divided by the number of batches: the curve grows with the epoch length")
    explanation = """
## What it finds

In one function (or at module level): a total started at zero (`total_loss = 0`), grown
inside a loop by a loss (`total_loss += loss.detach().float()`), and then logged as is
under a key that names a loss (`accelerator.log({"train_loss": total_loss})`,
`writer.add_scalar("loss", total_loss.item(), step)`, `wandb.log(...)`, `self.log(...)`),
with no division on the way: not in the logged value, not in the total's own updates,
not in the added loss.

## Why it matters

The logged number is the sum of the epoch's batch losses: it scales with the number of
batches, so it cannot be compared with an evaluation loss, with a run of another
length, batch size or process count, or with the Trainer's mean. The accelerate NLP
examples logged `"train_loss": total_loss` until accelerate PR 399 ("Train loss being
logged wasn't normalized ... This PR normalizes the train_loss per epoch").

## How to fix it

Log the mean: `total_loss.item() / len(train_dataloader)` (or divide by the count of
batches you added), and reduce it across processes first when several run.

## When preflight stays silent

* The logged value divides (`total_loss / len(loader)`, `.mean()`), or the total is
  divided in place before the log (`total_loss /= n`, `total = total / steps`).
* The added loss is already divided (`total += loss.item() / accum_steps`, or the loss
  was divided before: `loss = loss / accum_steps`): the window's sum is its mean.
* The key says it is a sum (`loss_sum`, `total_loss`, `cum_loss`).
* The total is not started at zero in the same function, or is not grown inside a loop
  over batches (one that iterates a loader, or calls `backward` or a `step`): a loop over
  the terms of one loss (`for head in heads: loss += head(x)`) sums a loss, not batches.
* The total starts again at zero inside the batch loop, before the `+=`: it adds up the
  terms of one step's loss (`vae_loss = 0; vae_loss += nll + kl`), not the batches.
"""
    bad_examples = examples("preflight.rules.code._pf271_examples", "PF271_BAD")
    good_examples = examples("preflight.rules.code._pf271_examples", "PF271_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call in ctx.nodes(ast.Call):
            for key, value in _logged(call):
                lowered = key.lower()
                if "loss" not in lowered or any(w in lowered for w in _SUM_WORDS):
                    continue
                name = _bare_name(value)
                if name is None:
                    continue
                scope = ctx.enclosing_function(call) or ctx.tree
                total = _loop_sum(scope, name)
                if total is None or not _starts_at_zero(scope, name) or _reset_each_batch(ctx, total, name):
                    continue
                divided = _divided_names(scope)
                if name in divided or _has_division(total.value) or any(
                        isinstance(n, ast.Name) and n.id in divided for n in ast.walk(total.value)):
                    continue
                message = (f"`{ast.unparse(value)}` is logged as \"{key}\", but `{name}` is the running sum of "
                           f"the batch losses (`{ast.unparse(total)}`, line {total.lineno}) and is never divided "
                           f"by the number of batches: the logged loss grows with the epoch length and compares "
                           f"with no mean loss. Log `{name} / <batches summed>` (e.g. `len(train_dataloader)`)")
                yield ctx.finding(self, value, message,
                                  evidence=[ctx.evidence(total, "the losses are summed here")])
