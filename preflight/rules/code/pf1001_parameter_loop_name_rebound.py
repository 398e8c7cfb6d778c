"""PF1001 parameter-loop-name-rebound: ``for param, ema_param in zip(params, ema_params): param = ema_param``
rebinds the loop's name and changes no tensor: the parameters the loop meant to overwrite keep their values."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

# what the loop walks over: a model's parameters / state (``model.parameters()``, ``self.ema_params``,
# ``net.state_dict().values()``, ``zip(params, ema_params)``)
_WORDS = re.compile(r"(?<![a-z])(parameters|params|state_dict|buffers|weights)")  # not ``hparams``


def _targets(target: ast.AST) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for elt in target.elts for n in _targets(elt)]
    return []


def _walks_parameters(loop: ast.For) -> bool:
    return _WORDS.search(ast.unparse(loop.iter).lower()) is not None


def _body_nodes(loop: ast.For) -> Iterable[ast.AST]:
    """The loop body's nodes, not entering nested functions or classes (their names are their own)."""
    stack: list[ast.AST] = list(loop.body)
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                stack.append(child)


def _read_after(scope: ast.AST, name: str, after: ast.Assign) -> bool:
    """``name`` is read (or declared global/nonlocal) somewhere after the assignment in the scope."""
    end = (after.end_lineno or after.lineno, after.end_col_offset or 0)
    for node in ast.walk(scope):
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return True
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load) \
                and (node.lineno, node.col_offset) > end:
            return True
    return False


@register
class ParameterLoopNameRebound(Rule):
    code = "PF1001"
    name = "parameter-loop-name-rebound"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = ("`for p, q in zip(params, ema_params): p = q` rebinds the loop name and changes no tensor: the "
               "parameters keep their values")
    needs_text = ("for ",)
    explanation = """
## What it finds

A `for` loop over a model's parameters or state (`model.parameters()`,
`zip(self.params, self.ema_params)`, `net.state_dict().values()`, `named_parameters()`)
whose body assigns a new value to one of the loop's own names (`param = ema_param`,
`p = p * mask`), when nothing reads that name after the assignment.

## Why it matters

The loop name is a local variable bound to the tensor of the current iteration.
Assigning to it points the name at another object and leaves the parameter itself
untouched: the weights the loop meant to copy, mask or reset keep their old values,
with no error. MixMatch-pytorch PR 23 ("fix parameter assignment bug"): the
`WeightEMA` constructor ran `param = ema_param` to start the model and its EMA from
the same weights, and did nothing ("the assignment param = ema_param will not copy the
weight ... due to the variable reference mechanism"); the same shape prunes nothing
with `p = p * mask`.

## How to fix it

Write into the tensor: `param.data.copy_(ema_param.data)`, or under
`torch.no_grad()`: `param.copy_(ema_param)`, `param.mul_(mask)`. To replace
whole tensors, `model.load_state_dict(...)`.

## When preflight stays silent

* The name is read after the assignment (`param = param.float()` followed by
  `ema_param.add_(param * (1 - alpha))`: the new binding is used, MixMatch's own
  `step()`).
* The loop walks something that is not named as parameters or state (a data loader,
  a list of paths).
* The name is declared `global`/`nonlocal`.
"""
    bad_examples = examples("preflight.rules.code._pf1001_examples", "PF1001_BAD")
    good_examples = examples("preflight.rules.code._pf1001_examples", "PF1001_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for loop in ctx.nodes(ast.For):
            if not _walks_parameters(loop):
                continue
            names = set(_targets(loop.target))
            if not names:
                continue
            scope: Optional[ast.AST] = ctx.enclosing_function(loop) or ctx.tree
            for node in _body_nodes(loop):
                if not isinstance(node, ast.Assign) or len(node.targets) != 1:
                    continue
                target = node.targets[0]
                if not isinstance(target, ast.Name) or target.id not in names:
                    continue
                if scope is None or _read_after(scope, target.id, node):
                    continue
                yield ctx.finding(
                    self, node,
                    f"`{ast.unparse(node)[:70]}` rebinds the loop name `{target.id}` and changes no tensor: the "
                    f"parameter it stood for keeps its value (nothing reads `{target.id}` afterwards). Write into the "
                    f"tensor instead, e.g. `{target.id}.data.copy_({ast.unparse(node.value)[:40]})`, or under "
                    "`torch.no_grad()` with an in-place op")
