"""PF176 training-step-loss-under-no-grad: a LightningModule's ``training_step`` returns a loss computed under
``torch.no_grad()`` / ``torch.inference_mode()`` (a decorated helper, or a ``with`` block), so Lightning's
automatic backward has no graph to differentiate."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._lightning_code import imports_lightning, lightning_classes

_NO_GRAD = frozenset({"no_grad", "inference_mode"})


def _no_grad_expr(node: ast.AST) -> bool:
    """``torch.no_grad()``, ``torch.no_grad``, ``no_grad()``, ``torch.inference_mode()`` (not
    ``inference_mode(False)`` / ``inference_mode(mode=False)``)."""
    if isinstance(node, ast.Call):
        if node.args or node.keywords:
            arg = node.args[0] if node.args else node.keywords[0].value
            if not (isinstance(arg, ast.Constant) and arg.value is True):
                return False
        node = node.func
    last = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
    root = ast.unparse(node).split(".")[0]
    return last in _NO_GRAD and root in ("torch", "no_grad", "inference_mode")


def _manual(cls: ast.ClassDef) -> bool:
    """The class switches automatic optimization off (any ``automatic_optimization`` assignment or property)."""
    for node in ast.walk(cls):
        if isinstance(node, ast.Attribute) and node.attr == "automatic_optimization" and isinstance(node.ctx, ast.Store):
            return True
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "automatic_optimization" for t in targets):
                return True
        if isinstance(node, ast.FunctionDef) and node.name == "automatic_optimization":
            return True
    return False


def _returned_loss(fn: ast.FunctionDef) -> list[ast.AST]:
    """What each top-level-or-nested ``return`` of ``training_step`` hands Lightning as the loss: the value
    itself, or the ``"loss"`` entry of a returned dict literal."""
    out: list[ast.AST] = []
    for node in ast.walk(fn):
        if not isinstance(node, ast.Return) or node.value is None:
            continue
        value = node.value
        if isinstance(value, ast.Dict):
            for key, item in zip(value.keys, value.values):
                if isinstance(key, ast.Constant) and key.value == "loss":
                    out.append(item)
        else:
            out.append(value)
    return out


def _bound_names(target: ast.AST) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for e in target.elts for n in _bound_names(e)]
    return []


def _assignments(fn: ast.FunctionDef) -> dict[str, list[ast.AST]]:
    """Every statement of ``fn`` that binds each plain name."""
    out: dict[str, list[ast.AST]] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                for name in _bound_names(t):
                    out.setdefault(name, []).append(node)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name):
            out.setdefault(node.target.id, []).append(node)
        elif isinstance(node, (ast.For, ast.With)):
            targets = [node.target] if isinstance(node, ast.For) else [i.optional_vars for i in node.items
                                                                         if i.optional_vars is not None]
            for t in targets:
                for name in _bound_names(t):
                    out.setdefault(name, []).append(node)
    return out


def _no_grad_blocks(fn: ast.FunctionDef) -> list[ast.With]:
    return [n for n in ast.walk(fn) if isinstance(n, ast.With)
            and any(_no_grad_expr(i.context_expr) for i in n.items)]


def _inside(node: ast.AST, block: ast.AST) -> bool:
    return any(n is node for n in ast.walk(block))


def _enables_grad(block: ast.AST) -> bool:
    """Something in the block turns gradients back on (``enable_grad``, ``set_grad_enabled``, ``requires_grad_``)."""
    text = ast.unparse(block)
    return "enable_grad" in text or "set_grad_enabled" in text or "requires_grad" in text


def _self_call(value: ast.AST) -> Optional[str]:
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
            and isinstance(value.func.value, ast.Name) and value.func.value.id == "self":
        return value.func.attr
    return None


@register
class TrainingStepLossUnderNoGrad(Rule):
    code = "PF176"
    name = "training-step-loss-under-no-grad"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    summary = ("A LightningModule's `training_step` returns a loss computed under `torch.no_grad()` (a decorated "
               "helper or a `with` block): the automatic backward fails on the first batch")
    frameworks = ("lightning",)
    needs_text = ("training_step",)
    explanation = """
## What it finds

In a file that imports Lightning, a `LightningModule` (automatic optimization: the class never
sets `automatic_optimization`) whose `training_step` returns a loss (the returned value, or the
`"loss"` entry of a returned dict literal) that is

* the result of a method of the same class decorated with `@torch.no_grad()` /
  `@torch.inference_mode()` (`loss, acc = self.shared_step(batch)`; `return self.step(batch)`),
  or
* a name that `training_step` binds only inside a `with torch.no_grad():` /
  `with torch.inference_mode():` block.

## Why it matters

Lightning calls `loss.backward()` on what `training_step` returns. A loss computed with
gradients disabled has no `grad_fn`, so the first batch stops with "element 0 of tensors does
not require grad and does not have a grad_fn" (Lightning issues 7405 and 9299). The usual
cause is a shared step decorated with `@torch.no_grad()` to speed up validation: Lightning
already disables gradients in `validation_step`, `test_step` and `predict_step`, so the
decorator only breaks training.

## How to fix it

Drop the decorator (or the `with` block) from the path that computes the training loss; keep
`torch.no_grad()` for what needs no gradient, such as a frozen teacher's outputs or targets.

## When preflight stays silent

* The returned loss is computed outside the no-grad block (targets or teacher logits under
  `no_grad`, the loss after it), or it is bound again outside the block.
* Something in the block re-enables gradients (`torch.enable_grad()`,
  `torch.set_grad_enabled(True)`, `requires_grad_`), or `inference_mode(False)`.
* The module uses manual optimization, or the helper is not a method of the same class.
"""
    bad_examples = examples("preflight.rules.code._pf176_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf176_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not imports_lightning(ctx, ctx.tree):
            return
        modules = lightning_classes(ctx)
        for cls in ctx.nodes(ast.ClassDef):
            if cls.name not in modules or _manual(cls):
                continue
            methods = {f.name: f for f in cls.body if isinstance(f, ast.FunctionDef)}
            step = methods.get("training_step")
            if step is None:
                continue
            decorated = {name for name, f in methods.items() if name != "training_step"
                         and any(_no_grad_expr(d) for d in f.decorator_list)
                         and not _enables_grad(f)}
            if any(_no_grad_expr(d) for d in step.decorator_list):
                yield ctx.finding(
                    self, step,
                    "`training_step` itself runs under a no-grad decorator: the loss it returns has no `grad_fn` and "
                    "Lightning's automatic backward fails on the first batch (\"element 0 of tensors does not require "
                    "grad\"); remove the decorator")
                continue
            found = self._check_step(ctx, step, decorated, methods)
            if found is not None:
                yield found

    def _check_step(self, ctx: FileContext, step: ast.FunctionDef, decorated: set[str],
                    methods: dict[str, ast.FunctionDef]) -> Optional[Finding]:
        binds = _assignments(step)
        blocks = [b for b in _no_grad_blocks(step) if not _enables_grad(b)]
        for value in _returned_loss(step):
            helper = _self_call(value)
            if helper in decorated:
                return self._helper_finding(ctx, methods[helper or ""], value)
            if not isinstance(value, ast.Name):
                continue
            sites = binds.get(value.id, [])
            if not sites:
                continue
            helpers = {_self_call(s.value) for s in sites if isinstance(s, ast.Assign)}
            if len(helpers) == 1 and next(iter(helpers)) in decorated and all(isinstance(s, ast.Assign) for s in sites):
                return self._helper_finding(ctx, methods[next(iter(helpers)) or ""], sites[0])
            for block in blocks:
                if all(_inside(s, block) for s in sites):
                    return ctx.finding(
                        self, sites[0],
                        f"`{value.id}`, which `training_step` returns as the loss, is computed only inside "
                        f"`{ast.unparse(block.items[0].context_expr)}` (line {block.lineno}): it has no `grad_fn`, "
                        "so Lightning's automatic backward fails on the first batch (\"element 0 of tensors does not "
                        "require grad\"); compute the loss outside the no-grad block",
                        evidence=[ctx.evidence(block, "gradients are disabled here")])
        return None

    def _helper_finding(self, ctx: FileContext, helper: ast.FunctionDef, use: ast.AST) -> Finding:
        decorator = next(d for d in helper.decorator_list if _no_grad_expr(d))
        return ctx.finding(
            self, decorator,
            f"`training_step` returns the loss computed by `self.{helper.name}` (line {getattr(use, 'lineno', 0)}), which this "
            f"`@{ast.unparse(decorator)}` runs without gradients: the loss has no `grad_fn`, so Lightning's automatic "
            "backward fails on the first batch (\"element 0 of tensors does not require grad and does not have a "
            "grad_fn\"); drop the decorator (Lightning already disables gradients in validation, test and predict "
            "steps)",
            evidence=[ctx.evidence(use, "training_step takes its loss from the no-grad helper here")])
