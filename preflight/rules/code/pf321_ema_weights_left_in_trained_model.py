"""PF321 ema-weights-left-in-trained-model: an EMA copied into the model that is being trained, mid-training,
and the training weights never restored."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_COPIES = ("copy_to", "apply_shadow")
# calls that put the training weights back (torch_ema / diffusers EMAModel ``restore``, a saved state loaded back)
_RESTORES = ("restore", "load_state_dict", "swap")


def _ema_like(node: ast.expr, built_as_ema: set[str]) -> bool:
    """``ema``, ``model_ema``, ``self.ema_unet``, ``emaModel``, or a name bound to ``EMAModel(...)``."""
    text = ast.unparse(node)
    if text in built_as_ema:
        return True
    last = text.rsplit(".", 1)[-1].lower()
    return last.startswith("ema") or last.endswith("ema") or "_ema" in last or "ema_" in last


def _ema_builds(tree: ast.AST) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call):
            name = ast.unparse(node.value.func).rsplit(".", 1)[-1]
            if "EMA" in name or "MovingAverage" in name or "Averaged" in name:
                out.add(ast.unparse(node.targets[0]))
    return out


def _steps_training(node: ast.AST) -> bool:
    """A loop whose body back-propagates or steps an optimizer."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute):
            if sub.func.attr == "backward":
                return True
            if sub.func.attr == "step" and "optim" in ast.unparse(sub.func.value).lower():
                return True
    return False


def _training_loops(ctx: FileContext) -> list[ast.AST]:
    """Loops that back-propagate or step an optimizer, or call a function of the file that does
    (``for epoch in ...: train_one_epoch(...)``)."""
    trainers = {d.name for d in ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef) if _steps_training(d)}

    def trains(loop: ast.AST) -> bool:
        return _steps_training(loop) or any(
            isinstance(sub, ast.Call) and _called_name(sub) in trainers for sub in ast.walk(loop))

    return [loop for loop in ctx.nodes(ast.For, ast.While) if trains(loop)]


def _called_name(call: ast.Call) -> Optional[str]:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) \
            and call.func.value.id in ("self", "cls"):
        return call.func.attr
    return None


def _reached_functions(ctx: FileContext, loops: list[ast.AST]) -> set[str]:
    """Names of the functions (and methods, called as ``self.f``) called from a training loop, and the
    ones they call in turn (three levels)."""
    reached: set[str] = set()
    frontier: list[ast.AST] = list(loops)
    defs = {d.name: d for d in ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef)}
    for _ in range(3):
        nxt: list[ast.AST] = []
        for root in frontier:
            for sub in ast.walk(root):
                if isinstance(sub, ast.Call):
                    name = _called_name(sub)
                    if name and name in defs and name not in reached:
                        reached.add(name)
                        nxt.append(defs[name])
        frontier = nxt
    return reached


def _target(call: ast.Call) -> Optional[str]:
    """``unet`` of ``ema.copy_to(unet.parameters())`` / ``ema.copy_to(unet)``; None without an argument."""
    if not call.args:
        return None
    arg = call.args[0]
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "parameters":
        return ast.unparse(arg.func.value)
    return ast.unparse(arg)


def _trained(ctx: FileContext, target: str, loops: list[ast.AST]) -> bool:
    """``target`` runs forward in a training loop, is unwrapped from a model, or feeds an optimizer."""
    for loop in loops:
        for sub in ast.walk(loop):
            if isinstance(sub, ast.Call) and ast.unparse(sub.func) == target:
                return True
    for node in ctx.nodes(ast.Assign):
        if len(node.targets) == 1 and ast.unparse(node.targets[0]) == target and isinstance(node.value, ast.Call) \
                and ast.unparse(node.value.func).endswith("unwrap_model"):
            return True
    for call in ctx.nodes(ast.Call):
        name = ast.unparse(call.func).rsplit(".", 1)[-1]
        if ("optim" in ast.unparse(call.func).lower() or name in ("Adam", "AdamW", "SGD")) and any(
                isinstance(a, ast.Call) and isinstance(a.func, ast.Attribute) and a.func.attr == "parameters"
                and ast.unparse(a.func.value) == target for a in call.args):
            return True
    return False


def _restored(ctx: FileContext, call: ast.Call, receiver: str, target: Optional[str]) -> bool:
    """The file calls ``receiver.restore(...)`` anywhere (a store/copy/restore pair split over hooks), or the
    target loads a state back after the copy in the same function."""
    fn = ctx.enclosing_function(call)
    for other in ctx.nodes(ast.Call):
        if not isinstance(other.func, ast.Attribute) or other.func.attr not in _RESTORES:
            continue
        owner = ast.unparse(other.func.value)
        if owner == receiver and other.func.attr != "load_state_dict":
            return True
        if target is not None and owner == target and other.func.attr == "load_state_dict" \
                and ctx.enclosing_function(other) is fn and other.lineno > call.lineno:
            return True
    return False


@register
class EmaWeightsLeftInTrainedModel(Rule):
    code = "PF321"
    needs_text = ("copy_to", "apply_shadow")
    name = "ema-weights-left-in-trained-model"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "accelerate")
    summary = ("The EMA weights are copied into the model being trained mid-training and the training "
               "weights are never restored")
    explanation = """
## What it finds

`ema.copy_to(model.parameters())` (diffusers `EMAModel`, `torch_ema`, the CompVis
`LitEma`-style classes; also `ema.apply_shadow()`) reached while training goes on: inside
a loop that back-propagates or steps an optimizer (itself or through a function of the file
it calls, `train_one_epoch(...)`), or in a function such a loop calls
(a `save_checkpoint(step)` or `evaluate()` run every N steps), where `model` is the
network the loop trains (it runs forward there, feeds the optimizer, or is unwrapped from
it), and the file never calls the EMA's `restore(...)` nor loads the saved training state
back into the model after the copy.

## Why it matters

`copy_to` overwrites the live parameters with the averages. Without
`store()`/`restore()` around it, training continues from the EMA weights after every save
or evaluation: the optimizer's moments no longer match the weights, and the result depends
on how often the save fires (waifu-diffusion PR 31, "Restore non-EMA weights after saving
checkpoint").

## How to fix it

`ema.store(model.parameters())` before the copy and `ema.restore(model.parameters())` once
the EMA weights are saved or evaluated, or copy the averages into a separate copy of the
model.

## When preflight stays silent

* The copy comes after the training loop (final weights) or before it (initialising from
  a checkpoint's EMA).
* The file calls the EMA's `restore(...)` anywhere (a store/copy in one hook and the restore
  in another), or loads a saved state back into the model after the copy.
* The target is not the trained model (a separate evaluation copy).
"""
    bad_examples = examples("preflight.rules.code._pf321_examples", "PF321_BAD")
    good_examples = examples("preflight.rules.code._pf321_examples", "PF321_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        copies = [c for c in ctx.nodes(ast.Call)
                  if isinstance(c.func, ast.Attribute) and c.func.attr in _COPIES]
        if not copies:
            return
        loops = _training_loops(ctx)
        if not loops:
            return
        built = _ema_builds(ctx.tree)
        reached = _reached_functions(ctx, loops)
        for call in copies:
            assert isinstance(call.func, ast.Attribute)
            if not _ema_like(call.func.value, built):
                continue
            in_loop = any(ctx.under(call, loop) for loop in loops)
            fn = ctx.enclosing_function(call)
            if not in_loop and not (isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.name in reached):
                continue
            target = _target(call)
            if call.func.attr == "copy_to" and (target is None or not _trained(ctx, target, loops)):
                continue
            receiver = ast.unparse(call.func.value)
            if _restored(ctx, call, receiver, target):
                continue
            where = "inside the training loop" if in_loop else \
                f"in `{getattr(fn, 'name', '?')}`, which the training loop calls"
            yield ctx.finding(
                self, call,
                f"`{ast.unparse(call)}` overwrites the weights being trained with the EMA averages {where}, and "
                f"the training weights are never restored (no `{receiver}.restore(...)`): training continues "
                "from the EMA weights after every call, so the run depends on how often it fires. "
                f"`{receiver}.store(...)` before the copy and `{receiver}.restore(...)` after saving or "
                "evaluating, or copy the averages into a separate model")
