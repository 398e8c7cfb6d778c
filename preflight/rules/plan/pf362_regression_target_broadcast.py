"""PF362 regression-target-broadcast: an elementwise regression loss between a model's ``[batch, 1]`` output and
a loader's ``[batch]`` targets; the loss broadcasts them to ``[batch, batch]``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples
from preflight.sources import ParsedPython

_LOSS_CLASSES = frozenset({"MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss"})
_LOSS_FUNCTIONS = frozenset({"mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"})
_MOVES = frozenset({"to", "cuda", "float", "double", "cpu", "type"})


def _one_output_linear(node: ast.AST) -> bool:
    """``nn.Linear(n, 1)`` (or ``out_features=1``)."""
    if not (isinstance(node, ast.Call) and call_last(node) == "Linear"):
        return False
    out = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "out_features"),
                                                        None)
    return isinstance(out, ast.Constant) and out.value == 1


def _single_output_models(tree: ast.AST) -> dict[str, ast.AST]:
    """``name -> evidence`` of the models whose output is ``[batch, 1]``: ``nn.Sequential(..., nn.Linear(n, 1))``,
    or an instance of a class of the file whose ``forward`` returns ``self.head(...)`` with
    ``self.head = nn.Linear(n, 1)``."""
    classes: dict[str, ast.AST] = {}
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        heads = {t.attr: n.value for n in ast.walk(cls) if isinstance(n, ast.Assign) for t in n.targets
                 if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
                 and _one_output_linear(n.value)}
        forward = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "forward"), None)
        if not heads or forward is None:
            continue
        returns = [r.value for r in ast.walk(forward) if isinstance(r, ast.Return) and r.value is not None]
        if returns and all(isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute)
                           and isinstance(v.func.value, ast.Name) and v.func.value.id == "self"
                           and v.func.attr in heads for v in returns):
            first = returns[0]
            if isinstance(first, ast.Call) and isinstance(first.func, ast.Attribute):
                classes[cls.name] = heads[first.func.attr]
    out: dict[str, ast.AST] = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            continue
        value = node.value
        while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _MOVES:
            value = value.func.value
        if not isinstance(value, ast.Call):
            continue
        if call_last(value) == "Sequential" and value.args and _one_output_linear(value.args[-1]):
            out[node.targets[0].id] = value.args[-1]
        elif isinstance(value.func, ast.Name) and value.func.id in classes:
            out[node.targets[0].id] = classes[value.func.id]
    return out


def _column(value: ast.AST) -> bool:
    """``data[:, -1]`` / ``arr[:, 3]``: one column of a 2-D array, a 1-D result."""
    return isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Tuple) and len(value.slice.elts) == 2 \
        and isinstance(value.slice.elts[0], ast.Slice) and isinstance(value.slice.elts[1], (ast.Constant, ast.UnaryOp))


def _scalar_target_datasets(scripts: list[ParsedPython]) -> dict[str, ast.AST]:
    """``class name -> the returned target`` of the Dataset classes whose ``__getitem__`` returns ``(x, y)`` with a
    scalar ``y``: ``self.y[i]`` where ``self.y`` is built from one column (``data[:, -1]``), or ``float(...)``."""
    out: dict[str, ast.AST] = {}
    for script in scripts:
        for cls in ast.walk(script.tree):
            if not isinstance(cls, ast.ClassDef):
                continue
            get = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "__getitem__"), None)
            if get is None:
                continue
            returns = [r.value for r in ast.walk(get) if isinstance(r, ast.Return)]
            if len(returns) != 1 or not isinstance(returns[0], ast.Tuple) or len(returns[0].elts) != 2:
                continue
            target = returns[0].elts[1]
            if isinstance(target, ast.Call) and call_last(target) == "float":
                out[cls.name] = target
                continue
            if not (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Attribute)
                    and isinstance(target.value.value, ast.Name) and target.value.value.id == "self"
                    and not isinstance(target.slice, (ast.Slice, ast.Tuple))):
                continue
            attr = target.value.attr
            locals_ = {t.id: n.value for n in ast.walk(cls) if isinstance(n, ast.Assign) for t in n.targets
                       if isinstance(t, ast.Name)}
            locals_.update({e.id: v for n in ast.walk(cls) if isinstance(n, ast.Assign) and len(n.targets) == 1
                            and isinstance(n.targets[0], ast.Tuple) and isinstance(n.value, ast.Tuple)
                            for e, v in zip(n.targets[0].elts, n.value.elts) if isinstance(e, ast.Name)})
            sources = [n.value for n in ast.walk(cls) if isinstance(n, ast.Assign) for t in n.targets
                       if isinstance(t, ast.Attribute) and t.attr == attr]
            sources += [v for n in ast.walk(cls) if isinstance(n, ast.Assign) and len(n.targets) == 1
                        and isinstance(n.targets[0], ast.Tuple) and isinstance(n.value, ast.Tuple)
                        for e, v in zip(n.targets[0].elts, n.value.elts)
                        if isinstance(e, ast.Attribute) and e.attr == attr]
            for source in sources:
                inner = source.args[0] if isinstance(source, ast.Call) and source.args else source
                if isinstance(inner, ast.Name):
                    inner = locals_.get(inner.id, inner)
                if _column(inner):
                    out[cls.name] = target
    return out


def _loader_dataset(tree: ast.AST, loader: str) -> Optional[str]:
    """The dataset class of ``loader = DataLoader(ClassName(...) | name, ...)`` (``name = ClassName(...)``)."""
    built = {n.targets[0].id: n.value for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
             and isinstance(n.targets[0], ast.Name)}
    value = built.get(loader)
    if not (isinstance(value, ast.Call) and call_last(value) == "DataLoader" and value.args):
        return None
    ds = value.args[0]
    if isinstance(ds, ast.Name):
        ds = built.get(ds.id, ds)
    return ds.func.id if isinstance(ds, ast.Call) and isinstance(ds.func, ast.Name) else None


def _plain(node: ast.AST) -> ast.AST:
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MOVES:
        node = node.func.value
    return node


@register
class RegressionTargetBroadcast(PlanRule):
    code = "PF362"
    name = "regression-target-broadcast"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = ("An elementwise regression loss compares a model's [batch, 1] output with [batch] targets: the "
               "loss broadcasts them to [batch, batch] and the model learns the batch mean")
    explanation = """
## What it finds

`nn.MSELoss()` / `L1Loss` / `SmoothL1Loss` / `HuberLoss` (or `F.mse_loss`, ...) called as
`criterion(model(x), y)` in a loop `for x, y in loader`, where

* the model ends in a single-output layer: `nn.Sequential(..., nn.Linear(n, 1))`, or a class of
  the file whose `forward` returns `self.head(...)` with `self.head = nn.Linear(n, 1)`, so its
  output is `[batch, 1]`; and
* the loader's dataset (a class of the project) returns `(x, y)` from `__getitem__` with a
  scalar `y`: `self.y[i]` where `self.y` is one column of a 2-D array (`data[:, -1]`), or
  `float(...)`; the default collate stacks those into `[batch]`,

with no `squeeze`/`view`/`reshape`/`unsqueeze` on either side.

## Why it matters

Elementwise losses broadcast their inputs: `[batch, 1]` against `[batch]` becomes
`[batch, batch]`, every prediction compared with every target of the batch. The loss still
decreases, but its minimum is each prediction equal to the batch mean, so the regressor learns
the average and "does not find the true coefficients" (pytorch issue 16045; torch only warns
"Using a target size that is different to the input size").

## How to fix it

Make the shapes equal: `criterion(model(x).squeeze(-1), y)` or `criterion(model(x), y.unsqueeze(-1))`
(or return `[1]`-shaped targets from the dataset).

## When preflight stays silent

* Either side is reshaped (`squeeze`, `view`, `reshape`, `flatten`, `unsqueeze`, indexing).
* The dataset returns a 2-D slice (`data[:, -1:]`), a list, or a target preflight cannot see.
* The model's last layer has more than one output, or its output is not followed.
"""
    bad_examples = examples("preflight.rules.plan._pf362_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf362_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        datasets: Optional[dict[str, ast.AST]] = None
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not any(w in text for w in (*_LOSS_CLASSES, *_LOSS_FUNCTIONS)) or "Linear" not in text:
                continue
            models = _single_output_models(script.tree)
            if not models:
                continue
            criteria = {n.targets[0].id for n in ast.walk(script.tree) if isinstance(n, ast.Assign)
                        and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
                        and isinstance(n.value, ast.Call) and call_last(n.value) in _LOSS_CLASSES}
            for loop in ast.walk(script.tree):
                if not (isinstance(loop, ast.For) and isinstance(loop.iter, ast.Name)
                        and isinstance(loop.target, ast.Tuple) and len(loop.target.elts) == 2
                        and isinstance(loop.target.elts[1], ast.Name)):
                    continue
                target_name = loop.target.elts[1].id
                for call in ast.walk(loop):
                    if not (isinstance(call, ast.Call) and len(call.args) == 2):
                        continue
                    is_loss = (isinstance(call.func, ast.Name) and call.func.id in criteria) \
                        or (isinstance(call.func, ast.Attribute) and call.func.attr in _LOSS_FUNCTIONS)
                    pred, tgt = _plain(call.args[0]), _plain(call.args[1])
                    if not (is_loss and isinstance(pred, ast.Call) and isinstance(pred.func, ast.Name)
                            and pred.func.id in models and isinstance(tgt, ast.Name) and tgt.id == target_name):
                        continue
                    cls = _loader_dataset(script.tree, loop.iter.id)
                    if cls is None:
                        continue
                    if datasets is None:
                        datasets = _scalar_target_datasets(pctx.scripts)
                    if cls not in datasets:
                        continue
                    head = models[pred.func.id]
                    yield pctx.code_finding(
                        self, script, call,
                        f"`{pred.func.id}` ends in `{ast.unparse(head)}` (output [batch, 1]) while `{cls}` yields a "
                        f"scalar target per sample (`{ast.unparse(datasets[cls])}`, stacked to [batch]): "
                        f"`{ast.unparse(call.func)}` broadcasts them to [batch, batch] and averages every prediction "
                        "against every target, so the model learns the batch mean instead of each target. Make the "
                        f"shapes equal (`{ast.unparse(call.args[0])}.squeeze(-1)` or `{tgt.id}.unsqueeze(-1)`)",
                        evidence=[Evidence(line=getattr(head, "lineno", 0), path=script.source.display,
                                           message="a single-output layer: [batch, 1]")])
