"""PF245 ema-in-place-over-integer-buffers: an EMA update multiplies every ``state_dict()`` entry in place
by a float decay, with no dtype check, in a project whose models keep integer buffers (BatchNorm's
``num_batches_tracked``): the first update fails."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.project_imports import sibling_modules
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

_IN_PLACE = ("mul_", "lerp_", "add_", "sub_", "addcmul_", "div_")
# a dtype check anywhere in the class (or function) of the loop: the integer entries are handled
_GUARDS = ("is_floating_point", "dtype", ".type()", "num_batches_tracked", "isinstance", "is_complex", "long",
           "int64", "LongTensor")
# what says that a model of the project holds integer buffers: BatchNorm (num_batches_tracked, int64)
_INTEGER_BUFFERS = ("BatchNorm", "torchvision.models", "resnet", "timm.create_model", "SyncBatchNorm")


def _state_dict_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and call_last(node) == "state_dict" and not any(
        kw.arg == "keep_vars" for kw in node.keywords)


def _iterates_state_dict(iterator: ast.AST, bound: set[str]) -> bool:
    """``X.state_dict().items()``/``.values()``, a name bound to ``X.state_dict()`` the same way,
    or ``zip(...)`` of those."""
    if isinstance(iterator, ast.Call) and call_last(iterator) == "zip":
        return any(_iterates_state_dict(a, bound) for a in iterator.args)
    if isinstance(iterator, ast.Call) and isinstance(iterator.func, ast.Attribute) \
            and iterator.func.attr in ("items", "values"):
        inner = iterator.func.value
        return _state_dict_call(inner) or (isinstance(inner, ast.Name) and inner.id in bound)
    return False


def _loop_names(target: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}


def _receiver_root(node: ast.AST) -> Optional[str]:
    """The loop variable an in-place call writes: ``v.mul_``, ``v.data.mul_``, ``shadow[k].mul_``
    (the key a loop variable), through chained in-place calls (``v.mul_(d).add_(...)``)."""
    while True:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _IN_PLACE:
            node = node.func.value
        elif isinstance(node, ast.Attribute) and node.attr == "data":
            node = node.value
        else:
            break
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Name):
        return node.slice.id
    return None


def _float_update(call: ast.Call) -> bool:
    """An in-place update by a non-integer factor: ``mul_(decay)``, ``lerp_(v, w)``, ``add_(v, alpha=1 - d)``,
    ``sub_((1 - d) * (e - v))``."""
    last = call_last(call)
    if last in ("mul_", "lerp_", "div_", "addcmul_"):
        return True
    if last in ("add_", "sub_"):
        if any(kw.arg == "alpha" for kw in call.keywords):
            return True
        return bool(call.args) and isinstance(call.args[0], ast.BinOp)
    return False


def _has_integer_buffers(ctx: FileContext) -> Optional[str]:
    """Where the project shows a model with integer buffers: this file or a module beside it."""
    text = ctx.parsed.source.text
    for needle in _INTEGER_BUFFERS:
        if needle in text:
            return "this file"
    for needle in _INTEGER_BUFFERS:
        found = sibling_modules(ctx, needle)
        if found:
            return found[0][1]
    return None


@register
class EmaInPlaceOverIntegerBuffers(Rule):
    code = "PF245"
    name = "ema-in-place-over-integer-buffers"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    needs_text = ("state_dict",)
    summary = ("an EMA update multiplies every `state_dict()` entry in place by a float decay with no dtype "
               "check: BatchNorm's int64 `num_batches_tracked` makes the first update fail")
    explanation = """
## What it finds

A loop over a model's `state_dict()` (`.items()`, `.values()`, `zip` of two of them) that updates
each entry in place with a float factor (`v.mul_(decay).add_(m, alpha=1 - decay)`,
`v.lerp_(m, w)`, `v.sub_((1 - decay) * (v - m))`) and checks no dtype, in a project that uses
BatchNorm (the file or a module beside it names `BatchNorm`, `torchvision.models`, a ResNet or
`timm.create_model`).

## Why it matters

`state_dict()` holds the buffers as well as the parameters, and every BatchNorm layer keeps
`num_batches_tracked`, an int64 counter. An in-place multiply of a Long tensor by a float
cannot store its result: the first EMA update fails with "RuntimeError: result type Float can't
be cast to the desired output type Long" (MixMatch-pytorch issue 27), or, for `add_` with a
float `alpha`, "For integral input tensors, argument alpha must not be a floating point number".

## How to fix it

Average only floating-point entries and copy the others: `if v.dtype.is_floating_point:
v.mul_(d).add_(m, alpha=1 - d) else: v.copy_(m)`, or iterate `parameters()` (and copy the
buffers).

## When preflight stays silent

* The class or function of the loop checks a dtype (`is_floating_point`, `.dtype`, `.type()`,
  `isinstance`) or names `num_batches_tracked`.
* The loop iterates `parameters()`/`named_parameters()` (always floating point), or the update
  is not in place (`ema[k] = d * ema[k] + (1 - d) * v` turns the counter into a float, silently).
* Nothing in the file or the modules beside it uses BatchNorm (a transformer-only project has
  no integer buffers in its state_dict).
"""
    bad_examples = examples("preflight.rules.code._pf245_examples", "PF245_BAD")
    good_examples = examples("preflight.rules.code._pf245_examples", "PF245_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for loop in ctx.nodes(ast.For):
            scope = ctx.enclosing(loop, ast.ClassDef) or ctx.enclosing_function(loop) or ctx.tree
            bound = {t.id for n in ast.walk(scope) if isinstance(n, ast.Assign) and _state_dict_call(n.value)
                     for t in n.targets if isinstance(t, ast.Name)}
            if not _iterates_state_dict(loop.iter, bound):
                continue
            names = _loop_names(loop.target)
            update = next((c for stmt in loop.body for c in ast.walk(stmt) if isinstance(c, ast.Call)
                           and call_last(c) in _IN_PLACE and _float_update(c) and _receiver_root(c) in names), None)
            if update is None:
                continue
            scope_text = ast.unparse(scope)
            if any(g in scope_text for g in _GUARDS):
                continue
            where = _has_integer_buffers(ctx)
            if where is None:
                return
            yield ctx.finding(
                self, update,
                "this EMA update multiplies every `state_dict()` entry in place by a float, but a state_dict also "
                f"holds BatchNorm's int64 `num_batches_tracked` counters (BatchNorm models in {where}): the first "
                "update fails with \"result type Float can't be cast to the desired output type Long\". Update "
                "only floating-point entries (`if v.dtype.is_floating_point: ...` else `v.copy_(...)`)",
                evidence=[ctx.evidence(loop.iter, "iterates every state_dict entry, buffers included")])
