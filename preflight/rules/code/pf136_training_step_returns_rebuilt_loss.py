"""PF136 training-step-returns-rebuilt-loss: a Lightning ``training_step`` returns a tensor freshly built
with ``torch.tensor(...)`` (from ``loss.item()`` floats): it has no graph, so the automatic backward fails."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.syntax import is_true, keyword, last_attr
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._lightning_code import imports_lightning, lightning_classes

_BUILDERS = frozenset({"tensor", "as_tensor", "Tensor", "FloatTensor", "scalar_tensor"})


def _built(call: ast.AST) -> bool:
    """``torch.tensor(...)`` and friends, not asked to require grad."""
    return (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and last_attr(call.func) in _BUILDERS and ast.unparse(call.func.value) == "torch"
            and not is_true(keyword(call, "requires_grad")))


def _returned_loss(ret: ast.Return) -> Optional[ast.expr]:
    value = ret.value
    if isinstance(value, ast.Dict):
        return next((v for k, v in zip(value.keys, value.values)
                     if isinstance(k, ast.Constant) and k.value == "loss"), None)
    return value


def _manual_optimization(ctx: FileContext) -> bool:
    return any(isinstance(t, ast.Attribute) and t.attr == "automatic_optimization"
               for node in ctx.nodes(ast.Assign) for t in node.targets)


@register
class TrainingStepReturnsRebuiltLoss(Rule):
    code = "PF136"
    name = "training-step-returns-rebuilt-loss"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    summary = ("A Lightning `training_step` returns a loss rebuilt with `torch.tensor(...)` (from `.item()` floats): "
               "the new tensor has no graph, so the automatic backward raises or trains nothing")
    frameworks = ("lightning",)
    needs_text = ("training_step",)
    explanation = """
## What it finds

A LightningModule's `training_step` (automatic optimization) that returns, directly or as the
`"loss"` of a returned dict, a tensor built in the step with `torch.tensor(...)`,
`torch.as_tensor(...)` or `torch.Tensor(...)`, typically a running average of `loss.item()`.

## Why it matters

Lightning calls `backward()` on the returned loss. A tensor created from Python floats is a
leaf with no `grad_fn`: the backward raises "element 0 of tensors does not require grad and
does not have a grad_fn" at the first step (Lightning-AI/pytorch-lightning#9299: "You should
not use `tr_loss += loss.item()`. This convert the loss into a float").

## How to fix it

Return the graph-connected loss (`return loss`) and keep the running average for logging only.

## When preflight stays silent

* The returned value is the model's loss, or the builder is asked for `requires_grad=True`.
* The module sets `automatic_optimization = False` (the step runs its own backward).
* The class is not a LightningModule of the file, or the file does not import Lightning.
"""
    bad_examples = examples("preflight.rules.code._pf136_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf136_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        names = lightning_classes(ctx)
        if not names or not imports_lightning(ctx, ctx.tree) or _manual_optimization(ctx):
            return
        for cls in ctx.nodes(ast.ClassDef):
            if cls.name not in names:
                continue
            step = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "training_step"), None)
            if step is None:
                continue
            built: dict[str, ast.Assign] = {}
            for node in ast.walk(step):
                if isinstance(node, ast.Assign):
                    for t in node.targets:
                        if isinstance(t, ast.Name):
                            if _built(node.value):
                                built[t.id] = node
                            else:
                                built.pop(t.id, None)
            for ret in (n for n in ast.walk(step) if isinstance(n, ast.Return) and n.value is not None):
                loss = _returned_loss(ret)
                if loss is None:
                    continue
                source = loss if _built(loss) else built.get(loss.id) if isinstance(loss, ast.Name) else None
                if source is None:
                    continue
                yield ctx.finding(
                    self, ret,
                    f"`training_step` returns `{ast.unparse(loss)}`, a tensor freshly built with "
                    "`torch.tensor(...)` (from Python floats), not the loss of the forward pass: it has no "
                    "grad_fn, so Lightning's automatic backward raises \"element 0 of tensors does not require "
                    "grad\" (or trains nothing). Return the graph-connected loss and keep the float average for "
                    "logging only",
                    evidence=[ctx.evidence(source, "built from floats here")])
