"""PF483 model-moved-after-optimizer-state-load: ``model.cuda()``/``model.to(device)`` after
``optimizer.load_state_dict``: the restored state was cast to the parameters' old device and stays there."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, target_text
from preflight.rules.base import Rule, examples


def _parameters_of(call: ast.Call) -> Optional[str]:
    """``torch.optim.X(model.parameters(), ...)``: ``model``."""
    if not call.args:
        return None
    first = call.args[0]
    if isinstance(first, ast.Call) and isinstance(first.func, ast.Attribute) \
            and first.func.attr in ("parameters", "named_parameters"):
        return target_text(first.func.value)
    return None


def _move_of(node: ast.AST) -> Optional[tuple[str, ast.Call]]:
    """``model.cuda()`` / ``model.to(x)`` (a statement or ``model = model.cuda()``): the model's name."""
    value = node.value if isinstance(node, (ast.Expr, ast.Assign)) else None
    if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute):
        return None
    if value.func.attr == "cuda" or (value.func.attr == "to" and (value.args or value.keywords)):
        if value.func.attr == "to" and any(k.arg == "dtype" for k in value.keywords) and not value.args:
            return None
        name = target_text(value.func.value)
        if name:
            return name, value
    return None


@register
class ModelMovedAfterOptimizerStateLoad(Rule):
    code = "PF483"
    needs_text = ("load_state_dict",)
    name = "model-moved-after-optimizer-state-load"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = ("The model is moved to the GPU after `optimizer.load_state_dict`: the restored optimizer state "
               "stays on the old device and `optimizer.step()` fails or runs on mixed devices")
    explanation = """
## What it finds

In one function: an optimizer built on `model.parameters()`, then
`optimizer.load_state_dict(...)`, then `model.cuda()` / `model.to(device)` (or
`model = model.cuda()`), with no move of the model before the load and no hand-moving
of `optimizer.state` in the function.

## Why it matters

`Optimizer.load_state_dict` casts every restored state tensor to the device of its
parameter *at load time* (`_process_value_according_to_param_policy`:
`value.to(dtype=param.dtype, device=param.device)`). Moving the model afterwards moves
the parameters (in place) but not the optimizer's `exp_avg`/`exp_avg_sq` buffers, which
stay on the CPU while the gradients are on the GPU: `optimizer.step()` fails on the
device mismatch (tacotron_pytorch issue 18). A fresh run is fine (the state is created
lazily on the parameters' device at the first step): only the resume path breaks.

## How to fix it

Move the model first, then build the optimizer and load its state; or pass the loaded
state after `model.cuda()`.

## When preflight stays silent

* The model is moved before the optimizer state is loaded.
* The function moves `optimizer.state` tensors itself (`for state in optimizer.state.values(): ...`).
* The optimizer is not built on `model.parameters()` in the same function.
"""
    bad_examples = examples("preflight.rules.code._pf483_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf483_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        optimizers: dict[tuple[int, str], str] = {}  # (function id, optimizer name) -> model name
        for call, qual in calls(ctx):
            if not (qual.startswith("torch.optim.") and qual.count(".") == 2 and qual.rsplit(".", 1)[-1][:1].isupper()):
                continue
            parent = ctx.parent(call)
            model = _parameters_of(call)
            if model and isinstance(parent, ast.Assign) and len(parent.targets) == 1:
                name = target_text(parent.targets[0])
                if name:
                    optimizers[(id(ctx.enclosing_function(call)), name)] = model
        if not optimizers:
            return
        for load in ctx.nodes(ast.Call):
            func = load.func
            if not (isinstance(func, ast.Attribute) and func.attr == "load_state_dict"):
                continue
            fn = ctx.enclosing_function(load)
            opt = target_text(func.value)
            model = optimizers.get((id(fn), opt or ""))
            if model is None or self._state_moved(ctx, fn, opt or ""):
                continue
            moves = [(stmt, m) for stmt in ctx.nodes(ast.Expr, ast.Assign) if ctx.enclosing_function(stmt) is fn
                     for m in [_move_of(stmt)] if m is not None and m[0] == model]
            if any(stmt.lineno < load.lineno for stmt, _ in moves):
                continue
            after = [m for stmt, m in moves if stmt.lineno > load.lineno]
            if not after:
                continue
            yield ctx.finding(
                self, after[0][1],
                f"`{model}` is moved after `{opt}.load_state_dict(...)`: the restored optimizer state was cast to "
                "the parameters' device at load time (the CPU) and does not follow them, so `step()` meets CPU "
                f"moment buffers and GPU gradients. Move `{model}` before building the optimizer and loading its "
                "state",
                evidence=[ctx.evidence(load, "the optimizer state is restored here, on the parameters' old device")])

    @staticmethod
    def _state_moved(ctx: FileContext, fn: Optional[ast.AST], opt: str) -> bool:
        for node in ctx.nodes(ast.Attribute):
            if node.attr == "state" and target_text(node.value) == opt and ctx.enclosing_function(node) is fn:
                return True
        return False
