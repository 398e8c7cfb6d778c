"""PF424 backward-bypasses-deepspeed-engine: ``loss.backward()`` next to a DeepSpeed engine."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import target_text
from preflight.rules._pf414_support import assigned_names, call_last
from preflight.rules.base import Rule, examples


@register
class BackwardBypassesDeepspeedEngine(Rule):
    code = "PF424"
    needs_text = ('initialize',)
    name = "backward-bypasses-deepspeed-engine"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = "`loss.backward()` / `optimizer.step()` bypass the engine returned by `deepspeed.initialize`"
    explanation = """
## What it finds

A file that builds an engine with `deepspeed.initialize(...)` and trains with
`loss.backward()` (or steps the optimizer `initialize` returned) instead of
`engine.backward(loss)` and `engine.step()`.

## Why it matters

`engine.backward` is where DeepSpeed scales the loss (fp16), reduces and
partitions the gradients across ranks (ZeRO) and counts the accumulation
window; `engine.step` clips, steps, zeroes and advances the schedule. A plain
`loss.backward()` trains every rank on its own gradients ("gradients will not
be averaged", DeepSpeed issue 329) or fails inside ZeRO ("'DeepSpeedZeroOptimizer'
object has no attribute 'ipg_index'", issue 6995).

## How to fix it

`engine.backward(loss)` then `engine.step()`.

## When preflight stays silent

* The file calls `engine.backward(...)` (another model may be trained by hand beside it),
  also under another name: `x.backward(loss)` where `x` is called as a module and
  `x.step()` in the same function (`policy_engine` handed to an update function). A
  `DeepSpeedEngine` stepped after every micro-batch is the intended use: `engine.step()`
  only updates the weights at the accumulation boundary (`is_gradient_accumulation_boundary`
  in deepspeed/runtime/engine.py; open-instruct issue 495).
* The backward comes before `initialize` in the file, unless it sits in a function that
  an in-file call hands the engine (`def train(engine, optimizer, loader)` above `main()`).
* The loop steps an optimizer it built itself (`optimizer = AdamW(layer.parameters())`
  rebound after `initialize`): a part of the model is trained by hand with an optimizer
  the engine does not own (DeepSpeedExamples' layer-wise distillation), so pointing at
  `engine.step()` would step a different optimizer.
"""
    bad_examples = examples("preflight.rules.code._pf424_examples", "PF424_BAD")
    good_examples = examples("preflight.rules.code._pf424_examples", "PF424_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if "initialize" not in ctx.call_names():
            return  # no ``deepspeed.initialize(...)``
        inits = [c for c in ctx.nodes(ast.Call) if call_last(c) == "initialize"
                 and isinstance(c.func, ast.Attribute) and target_text(c.func.value) == "deepspeed"]
        if not inits:
            return
        engines = set()
        for call in inits:
            names = assigned_names(ctx, call)
            if names:
                engines.add(names[0])
        if not engines:
            return
        backwards = [c for c in ctx.nodes(ast.Call) if isinstance(c.func, ast.Attribute) and c.func.attr == "backward"]
        if any(target_text(c.func.value) in engines or _engine_backward(ctx, c)
               for c in backwards if isinstance(c.func, ast.Attribute)):
            return
        for call in backwards:
            recv = call.func.value  # type: ignore[attr-defined]
            if isinstance(recv, ast.Name) and recv.id in ("torch", "self", "accelerator"):
                continue
            if call.lineno < inits[0].lineno and not _handed_an_engine(ctx, call, engines):
                continue
            if _steps_own_optimizer(ctx, call):
                continue
            engine = sorted(engines)[0]
            yield ctx.finding(
                self, call,
                f"`.backward()` bypasses the DeepSpeed engine `{engine}`: the loss is not scaled, the gradients "
                "are not reduced or partitioned across ranks and the accumulation window is not counted. Call "
                f"`{engine}.backward(loss)` and `{engine}.step()`",
                evidence=[ctx.evidence(inits[0], f"`{engine}` is the engine `deepspeed.initialize` returned")])
            return


_OPTIMIZER_CLASS = re.compile(r"(Adam\w*|SGD|RMSprop|Adagrad|Adadelta|Adafactor|Lion|Lamb|LAMB|\w*Optimizer)$")


def _steps_own_optimizer(ctx: FileContext, backward: ast.Call) -> bool:
    """Every ``X.step()`` of the backward's loop steps a name last bound, before the backward
    in the same function, to an optimizer constructor (not to what ``initialize`` returned)."""
    scope = ctx.enclosing_function(backward) or ctx.tree
    body = ctx.enclosing(backward, ast.For, ast.While, ast.AsyncFor) or scope
    stepped = {c.func.value.id for c in ast.walk(body) if isinstance(c, ast.Call)
               and isinstance(c.func, ast.Attribute) and c.func.attr == "step"
               and isinstance(c.func.value, ast.Name)}
    if not stepped:
        return False
    for name in stepped:
        latest: Optional[ast.Assign] = None
        for node in ast.walk(scope):
            if (isinstance(node, ast.Assign) and node.lineno < backward.lineno
                    and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
                    and (latest is None or node.lineno > latest.lineno)):
                latest = node
        value = latest.value if latest is not None else None
        if not (isinstance(value, ast.Call) and call_last(value) != "initialize"
                and _OPTIMIZER_CLASS.match(call_last(value) or "")):
            return False
    return True


def _handed_an_engine(ctx: FileContext, backward: ast.Call, engines: set[str]) -> bool:
    """The backward's function is called in this file with an engine as an argument."""
    fn = ctx.enclosing_function(backward)
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    for call in ctx.nodes(ast.Call):
        if isinstance(call.func, ast.Name) and call.func.id == fn.name and any(
                isinstance(a, ast.Name) and a.id in engines for a in [*call.args, *(k.value for k in call.keywords)]):
            return True
    return False


def _engine_backward(ctx: FileContext, backward: ast.Call) -> bool:
    """``x.backward(loss)`` where ``x`` is called as a module and stepped in the same function
    (``engine(batch)``, ``engine.backward(loss)``, ``engine.step()``): an engine handed in under
    another name (``policy_engine``), not a tensor (``Tensor.backward`` is not called as a module)."""
    recv = backward.func.value  # type: ignore[attr-defined]
    if not backward.args or not isinstance(recv, (ast.Name, ast.Attribute)):
        return False
    text = target_text(recv)
    scope = ctx.enclosing_function(backward) or ctx.tree
    called = stepped = False
    for node in ast.walk(scope):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, (ast.Name, ast.Attribute)) and target_text(node.func) == text:
            called = True
        elif (isinstance(node.func, ast.Attribute) and node.func.attr == "step"
              and isinstance(node.func.value, (ast.Name, ast.Attribute)) and target_text(node.func.value) == text):
            stepped = True
    return called and stepped
