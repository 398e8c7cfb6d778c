"""PF352 fp16-weights-adam-default-eps: float16 parameters trained by Adam/AdamW with an ``eps`` that
rounds to zero in float16 (the default 1e-8)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import UNKNOWN, has_unpacking, kwarg, literal
from preflight.rules._pf414_support import call_last, is_fp16_dtype
from preflight.rules.base import Rule, examples

# torch.optim optimizers whose update divides by sqrt(v) + eps, with their default eps
_ADAMS = {"Adam": 1e-8, "AdamW": 1e-8, "Adamax": 1e-8, "NAdam": 1e-8, "RAdam": 1e-8, "SparseAdam": 1e-8}
# the smallest positive float16 (subnormal) is 2**-24 = 5.96e-8: an eps below half of it rounds to 0
_FP16_TINY = 2.0 ** -24
# master weights kept in float32 by the framework: the optimizer never sees the float16 tensors
_MASTER_COPIES = ("amp.initialize", "deepspeed.initialize", "FP16_Optimizer", "master_params", "MixedPrecision")


def _name(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


def _chain_top(ctx: FileContext, call: ast.Call) -> ast.expr:
    """``X(...).cuda().to(device)``: the outermost call of a method chain on ``call``."""
    node: ast.expr = call
    while True:
        attr = ctx.parent(node)
        outer = ctx.parent(attr) if isinstance(attr, ast.Attribute) and attr.value is node else None
        if not (isinstance(outer, ast.Call) and outer.func is attr and isinstance(attr, ast.Attribute)
                and attr.attr in ("cuda", "to", "train", "requires_grad_")):
            return node
        node = outer


def _assigned(ctx: FileContext, call: ast.Call) -> Optional[str]:
    parent = ctx.parent(_chain_top(ctx, call))
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1:
        return _name(parent.targets[0])
    return None


def _cast_target(ctx: FileContext, call: ast.Call) -> Optional[str]:
    """The module a call turns into float16: ``m.half()``, ``m.convert_to_fp16()``, ``m.to(torch.float16)``,
    ``m.to(device, dtype=torch.half)``; ``m = Net().half()`` names ``m``."""
    if not isinstance(call.func, ast.Attribute):
        return None
    attr = call.func.attr
    halves = attr in ("half", "convert_to_fp16") and not call.args
    casts = attr == "to" and (any(is_fp16_dtype(a) for a in call.args) or is_fp16_dtype(kwarg(call, "dtype")))
    if not (halves or casts):
        return None
    if isinstance(ctx.parent(call), ast.Expr):
        return _name(call.func.value)
    return _assigned(ctx, call)


def _loaded_fp16(ctx: FileContext, call: ast.Call) -> Optional[str]:
    """``m = X.from_pretrained(..., torch_dtype=torch.float16)`` (not quantized)."""
    if call_last(call) != "from_pretrained":
        return None
    if not any(is_fp16_dtype(kwarg(call, key)) for key in ("torch_dtype", "dtype")):
        return None
    if any(kwarg(call, key) is not None for key in ("quantization_config", "load_in_4bit", "load_in_8bit")):
        return None
    return _assigned(ctx, call)


def _params_of(arg: ast.AST) -> set[str]:
    """Names whose ``.parameters()``/``.named_parameters()`` feed the optimizer's first argument."""
    out: set[str] = set()
    for node in ast.walk(arg):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("parameters", "named_parameters"):
            name = _name(node.func.value)
            if name:
                out.add(name)
    return out


def _in_scope(ctx: FileContext, a: ast.AST, b: ast.AST) -> bool:
    fa, fb = ctx.enclosing_function(a), ctx.enclosing_function(b)
    return fa is fb or fa is None


@register
class Fp16WeightsAdamDefaultEps(Rule):
    code = "PF352"
    needs_text = ("Adam",)
    name = "fp16-weights-adam-default-eps"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = ("float16 parameters trained by Adam/AdamW with the default `eps=1e-8`, which is 0 in float16: "
               "the update divides by zero (NaN/inf after the first steps)")
    url = "https://github.com/afiaka87/glide-finetune/issues/5"
    explanation = """
## What it finds

A module turned into float16 (`model.half()`, `model.convert_to_fp16()`,
`model.to(torch.float16)`, or `from_pretrained(..., torch_dtype=torch.float16)` in a file
without PEFT adapters) whose `.parameters()` are then given to `torch.optim.Adam`,
`AdamW`, `Adamax`, `NAdam` or `RAdam` without `eps` (default `1e-8`) or with a literal
`eps` below float16's smallest positive value (5.96e-8).

## Why it matters

torch's Adam keeps its state in the parameters' dtype and computes
`denom = sqrt(v) / bias_correction + eps` in it. `1e-8` is not representable in float16: it
rounds to 0, and so does `v = grad**2` for every gradient below about 2.4e-4. Where `v` is 0
the update is `m / 0`: inf or NaN weights after the first steps, whatever the data
(glide-finetune issue 5: "Training on half precision leads to nan values"; the fix set
`eps=1e-4`). Mixed precision avoids this by keeping float32 weights and optimizer state.

## How to fix it

Keep the weights in float32 and train under autocast (`torch.autocast` + `GradScaler`), or
keep float32 master copies for the optimizer; if the weights must stay float16, pass
`eps=1e-4` (or larger).

## When preflight stays silent

* `eps` is at least 6e-8, not statically known, or chosen by a condition (`eps=1e-4 if fp16 else 1e-8`).
* The float16 cast comes after the optimizer is built, or is undone (`.float()`) before it.
* The file keeps float32 master weights (apex `amp.initialize`, `deepspeed.initialize`,
  `FP16_Optimizer`, `master_params`), or the optimizer gets other parameters than the cast
  module's.
* bfloat16 weights (its exponent range is float32's).
"""
    bad_examples = examples("preflight.rules.code._pf352_examples", "PF352_BAD")
    good_examples = examples("preflight.rules.code._pf352_examples", "PF352_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if any(ctx.mentions(key) for key in _MASTER_COPIES):
            return
        peft = ctx.mentions("peft") or ctx.mentions("get_peft_model")
        casts: list[tuple[str, ast.Call]] = []
        undone: list[tuple[str, ast.Call]] = []
        for call in ctx.nodes(ast.Call):
            name = _cast_target(ctx, call) or (None if peft else _loaded_fp16(ctx, call))
            if name:
                casts.append((name, call))
            elif isinstance(call.func, ast.Attribute) and call.func.attr == "float" and not call.args:
                target = _name(call.func.value)
                if target:
                    undone.append((target, call))
        if not casts:
            return
        for opt in ctx.nodes(ast.Call):
            last = call_last(opt)
            if last not in _ADAMS or not opt.args or has_unpacking(opt):
                continue
            eps_expr = kwarg(opt, "eps")
            if eps_expr is not None:
                # a conditional eps (`1e-4 if fp16 else 1e-8`) is chosen with the precision: never resolved
                eps = UNKNOWN if any(isinstance(n, ast.IfExp) for n in ast.walk(eps_expr)) else literal(ctx, eps_expr)
                if not isinstance(eps, (int, float)) or eps >= _FP16_TINY:
                    continue
            else:
                eps = _ADAMS[last]
            owners = _params_of(opt.args[0])
            if not owners and isinstance(opt.args[0], ast.Name):
                owners = {opt.args[0].id}  # params = model.parameters(); Adam(params): followed below
                owners = set().union(*(_params_of(a.value) for a in ctx.nodes(ast.Assign)
                                       if any(_name(t) == opt.args[0].id for t in a.targets)
                                       and a.lineno < opt.lineno)) if owners else owners
            for name, cast in casts:
                if name not in owners or cast.lineno > opt.lineno or not _in_scope(ctx, cast, opt):
                    continue
                if any(t == name and cast.lineno < u.lineno < opt.lineno for t, u in undone):
                    continue
                said = "the default eps=1e-8" if eps_expr is None else f"eps={eps:g}"
                yield ctx.finding(self, opt, (
                    f"`{name}`'s parameters are float16 and {last} runs with {said}, which rounds to 0 in "
                    "float16: torch's Adam keeps its state in the parameters' dtype, so sqrt(v) + eps is 0 "
                    "wherever v underflowed (every gradient below ~2.4e-4) and the update divides by zero: "
                    "NaN/inf weights after the first steps. Keep float32 weights under autocast, or pass "
                    "eps=1e-4 for float16 weights"),
                    evidence=[ctx.evidence(cast, f"`{name}` becomes float16 here")])
                break
