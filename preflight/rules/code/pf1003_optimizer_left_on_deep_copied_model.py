"""PF1003 optimizer-left-on-deep-copied-model: the optimizer is built on ``net.parameters()``, then
``model = copy.deepcopy(net)`` is the model the loop trains: the copy has its own tensors, the optimizer steps the
original's, so the trained model never changes."""

from __future__ import annotations

import ast
from typing import Iterable, Optional, Union

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_Scope = Union[ast.FunctionDef, ast.AsyncFunctionDef, ast.Module]


def _local(scope: ast.AST) -> Iterable[ast.AST]:
    """The scope's nodes, not entering nested functions or classes."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(node))


def _params_of(call: ast.Call) -> Optional[str]:
    """``net`` for ``torch.optim.X(net.parameters(), ...)`` (first argument or ``params=``)."""
    arg = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "params"), None)
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "parameters" \
            and isinstance(arg.func.value, ast.Name):
        return arg.func.value.id
    return None


def _called(scope: ast.AST, name: str, after: int) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name
               and n.lineno > after for n in _local(scope))


@register
class OptimizerLeftOnDeepCopiedModel(Rule):
    code = "PF1003"
    name = "optimizer-left-on-deep-copied-model"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    needs_text = ("deepcopy",)
    summary = ("The optimizer is built on `net.parameters()` and the loop trains `copy.deepcopy(net)`: the "
               "optimizer steps the original, the trained copy never changes")
    explanation = """
## What it finds

In one function (or module): `optimizer = torch.optim.X(net.parameters(), ...)`, then
`model = copy.deepcopy(net)`, then a loop that calls `model(...)`, runs `.backward()` and
`optimizer.step()`, while nothing calls `net(...)` after the copy and no optimizer is built
on `model.parameters()`.

## Why it matters

`deepcopy` gives the copy its own parameter tensors. The optimizer keeps the references it
was built with: the original's parameters, whose `.grad` stays `None` because the loss
comes from the copy. `optimizer.step()` skips them, and the copy's parameters get gradients
that no optimizer applies: the model that trains, is evaluated and saved never changes
(skorch issue 317, "module weights don't update after copy.deepcopy": the fix re-creates the
optimizer after copying).

## How to fix it

Build the optimizer after the copy, on the copy's parameters
(`optimizer = torch.optim.X(model.parameters(), ...)`), or train `net` itself.

## When preflight stays silent

* The original is still called after the copy (a teacher/EMA copy beside a trained
  student: `teacher = copy.deepcopy(student)`).
* An optimizer is built on the copy's parameters after the copy.
* The optimizer is built after the copy, or on something other than `<name>.parameters()`.
"""
    bad_examples = examples("preflight.rules.code._pf1003_examples", "PF1003_BAD")
    good_examples = examples("preflight.rules.code._pf1003_examples", "PF1003_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        imports = scope_index(ctx).imports
        scopes: list[_Scope] = [ctx.tree, *ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef)]
        for scope in scopes:
            optimizers: dict[str, tuple[str, ast.Call]] = {}  # optimizer name -> (model name, call)
            copies: list[tuple[str, str, ast.Assign]] = []  # (copy, original, assignment)
            for node in _local(scope):
                if not isinstance(node, ast.Assign) or len(node.targets) != 1 \
                        or not isinstance(node.targets[0], ast.Name) or not isinstance(node.value, ast.Call):
                    continue
                qual = imports.qualify(node.value.func) or ""
                target = node.targets[0].id
                if qual.startswith("torch.optim.") and "lr_scheduler" not in qual:
                    model = _params_of(node.value)
                    if model is not None:
                        optimizers[target] = (model, node.value)
                elif qual == "copy.deepcopy" and node.value.args and isinstance(node.value.args[0], ast.Name) \
                        and node.value.args[0].id != target:
                    copies.append((target, node.value.args[0].id, node))
            for copy_name, original, assign in copies:
                for opt_name, (model, built) in optimizers.items():
                    if model != original or built.lineno > assign.lineno:
                        continue
                    finding = self._trained_copy(ctx, scope, copy_name, original, opt_name, assign, built)
                    if finding is not None:
                        yield finding

    def _trained_copy(self, ctx: FileContext, scope: ast.AST, copy_name: str, original: str, opt_name: str,
                      assign: ast.Assign, built: ast.Call) -> Optional[Finding]:
        line = assign.lineno
        if _called(scope, original, line):
            return None
        for node in _local(scope):
            # an optimizer on the copy's parameters after the copy
            if isinstance(node, ast.Call) and node.lineno > line and _params_of(node) == copy_name:
                return None
        for loop in _local(scope):
            if not isinstance(loop, (ast.For, ast.While)) or loop.lineno <= line:
                continue
            calls = [n for n in ast.walk(loop) if isinstance(n, ast.Call)]
            forward = any(isinstance(c.func, ast.Name) and c.func.id == copy_name for c in calls)
            backward = any(isinstance(c.func, ast.Attribute) and c.func.attr == "backward" for c in calls)
            step = any(isinstance(c.func, ast.Attribute) and c.func.attr == "step"
                       and isinstance(c.func.value, ast.Name) and c.func.value.id == opt_name for c in calls)
            if forward and backward and step:
                return ctx.finding(
                    self, assign,
                    f"`{ast.unparse(assign)[:60]}` copies the model after `{opt_name}` was built on "
                    f"`{original}.parameters()` (line {built.lineno}): the loop trains `{copy_name}`, but "
                    f"`{opt_name}.step()` updates `{original}`'s tensors, which get no gradient, so `{copy_name}` "
                    f"never changes. Build the optimizer on `{copy_name}.parameters()` after the copy",
                    evidence=[ctx.evidence(built, f"the optimizer holds `{original}`'s parameters")])
        return None
