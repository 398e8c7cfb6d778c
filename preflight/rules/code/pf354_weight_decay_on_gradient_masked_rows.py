"""PF354 weight-decay-on-gradient-masked-rows: a parameter "frozen" in part by zeroing rows of its gradient,
held by an optimizer with weight decay (AdamW's default 0.01): the decay still shrinks the masked rows."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import UNKNOWN, has_unpacking, kwarg, literal
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

# optimizers and their default weight decay (torch.optim; AdamW's is 1e-2, transformers' AdamW 0.0)
_OPTIMIZERS = {"AdamW": 1e-2, "Adam": 0.0, "SGD": 0.0, "RMSprop": 0.0, "Adagrad": 0.0, "NAdam": 0.0,
               "RAdam": 0.0, "Adamax": 0.0, "AdamW8bit": 1e-2, "PagedAdamW": 1e-2, "PagedAdamW8bit": 1e-2,
               "Lion": 0.0, "Adafactor": 0.0}


def _strip_data(node: ast.expr) -> ast.expr:
    while isinstance(node, ast.Attribute) and node.attr == "data":
        node = node.value
    return node


def _grad_owner(ctx: FileContext, node: ast.expr, aliases: dict[str, ast.expr]) -> Optional[ast.expr]:
    """``P.grad``, ``P.grad.data``, or a name bound to one of them -> ``P``."""
    node = _strip_data(node)
    if isinstance(node, ast.Attribute) and node.attr == "grad":
        return node.value
    if isinstance(node, ast.Name) and node.id in aliases:
        return aliases[node.id]
    return None


def _is_mask(expr: ast.expr) -> bool:
    """A multiplier that masks rows (named like a mask), not a scalar that scales the whole gradient (clipping
    coefficients, loss-scale unscaling: ``p.grad.data.mul_(clip_coef)``)."""
    return "mask" in ast.unparse(expr).lower()


def _masks(ctx: FileContext) -> list[tuple[ast.stmt, ast.expr]]:
    """Statements that zero part of a gradient: ``P.grad[idx] = 0``, ``g.data[idx, :] = g.data[idx, :].fill_(0)``,
    ``P.grad[idx].zero_()``, ``P.grad *= mask``, ``P.grad.mul_(mask)``; with the parameter ``P``."""
    aliases: dict[str, ast.expr] = {}
    for assign in ctx.nodes(ast.Assign):
        if len(assign.targets) == 1 and isinstance(assign.targets[0], ast.Name):
            value = _strip_data(assign.value)
            if isinstance(value, ast.Attribute) and value.attr == "grad":
                aliases[assign.targets[0].id] = value.value
    out: list[tuple[ast.stmt, ast.expr]] = []
    for node in ctx.nodes(ast.Assign, ast.AugAssign, ast.Expr):
        if isinstance(node, ast.Assign):
            for tgt in node.targets:
                if isinstance(tgt, ast.Subscript):
                    owner = _grad_owner(ctx, tgt.value, aliases)
                    if owner is not None:
                        out.append((node, owner))
        elif isinstance(node, ast.AugAssign):
            if isinstance(node.op, ast.Mult) and _is_mask(node.value):
                target = node.target.value if isinstance(node.target, ast.Subscript) else node.target
                owner = _grad_owner(ctx, target, aliases)
                if owner is not None:
                    out.append((node, owner))
        elif isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute):
            method = node.value.func.attr
            base = node.value.func.value
            if method in ("zero_", "fill_") and isinstance(base, ast.Subscript):
                owner = _grad_owner(ctx, base.value, aliases)
            elif method in ("masked_fill_", "index_fill_") or (
                    method == "mul_" and node.value.args and _is_mask(node.value.args[0])):
                owner = _grad_owner(ctx, base.value if isinstance(base, ast.Subscript) else base, aliases)
            else:
                owner = None
            if owner is not None:
                out.append((node, owner))
    return out


def _decay(ctx: FileContext, opt: ast.Call, kind: str) -> Optional[float]:
    expr = kwarg(opt, "weight_decay")
    if expr is None:
        return _OPTIMIZERS[kind]
    value = literal(ctx, expr)
    return float(value) if value is not UNKNOWN and isinstance(value, (int, float)) else None


def _path(text: str) -> tuple[str, str]:
    """``enc.module.get_input_embeddings()`` -> (``enc``, ``get_input_embeddings()``): the root name and the
    path below it, DDP's ``.module`` dropped."""
    parts = [p for p in text.split(".") if p != "module"]
    return parts[0], ".".join(parts[1:])


def _holds(opt: ast.Call, owner: ast.expr) -> bool:
    """The optimizer's parameters include ``owner``: ``[P]``, ``M.parameters()`` for a module ``M`` on
    ``P``'s path (``enc.get_input_embeddings().parameters()`` holds ``enc.get_input_embeddings().weight``),
    also through another name for the same module (``enc_ = accelerator.prepare(enc)``: the same path below
    the root)."""
    params = opt.args[0] if opt.args else kwarg(opt, "params")
    if params is None:
        return False
    text = ast.unparse(owner)
    if any(isinstance(node, (ast.Name, ast.Attribute)) and ast.unparse(node) == text for node in ast.walk(params)):
        return True
    module = text.rsplit(".", 1)[0] if "." in text else text
    root, below = _path(module)
    for node in ast.walk(params):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("parameters", "named_parameters"):
            held = ast.unparse(node.func.value)
            if module == held or module.startswith(held + "."):
                return True
            held_root, held_below = _path(held)
            if below and (held_root, held_below) != (root, below) and held_below == below:
                return True
            if held_root == root and (below == held_below or below.startswith(held_below + ".")) and held_below:
                return True
    return False


def _aliases(ctx: FileContext) -> dict[str, str]:
    """``optimizer_class = torch.optim.AdamW`` (or ``bnb.optim.AdamW8bit``): the name -> the optimizer."""
    out: dict[str, str] = {}
    for assign in ctx.nodes(ast.Assign):
        if len(assign.targets) == 1 and isinstance(assign.targets[0], ast.Name) \
                and isinstance(assign.value, (ast.Attribute, ast.Name)):
            last = assign.value.attr if isinstance(assign.value, ast.Attribute) else assign.value.id
            if last in _OPTIMIZERS:
                name = assign.targets[0].id
                # two classes under one name (AdamW8bit or AdamW): both decay by default or neither
                out[name] = last if name not in out or _OPTIMIZERS[out[name]] else out[name]
    return out


def _restored(ctx: FileContext, owner: ast.expr) -> bool:
    """Rows of the parameter written back (``P[idx] = orig[idx]``, ``P.data[idx] = ...``, ``P.copy_``):
    the textual-inversion fix that undoes the decay after each step."""
    text = ast.unparse(owner)
    tail = text.rsplit(".", 1)[-1]
    for assign in ctx.nodes(ast.Assign):
        for tgt in assign.targets:
            if isinstance(tgt, ast.Subscript):
                base = ast.unparse(_strip_data(tgt.value))
                if "grad" not in base and (base in (text, tail) or base.endswith("." + tail)):
                    return True
    for call in ctx.nodes(ast.Call):
        if call_last(call) in ("copy_", "index_copy_") and isinstance(call.func, ast.Attribute):
            base = ast.unparse(_strip_data(call.func.value.value if isinstance(call.func.value, ast.Subscript)
                                           else call.func.value))
            if "grad" not in base and (base == text or base.endswith("." + tail)):
                return True
    return False


@register
class WeightDecayOnGradientMaskedRows(Rule):
    code = "PF354"
    needs_text = ("grad",)
    name = "weight-decay-on-gradient-masked-rows"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = ("rows of a parameter kept \"frozen\" by zeroing their gradient, in an optimizer with weight "
               "decay (AdamW's default 0.01): the decay still shrinks them every step")
    url = "https://github.com/huggingface/diffusers/issues/1009"
    explanation = """
## What it finds

A parameter whose gradient is zeroed in part after `backward` (`P.grad[idx] = 0`,
`grads.data[mask, :] = grads.data[mask, :].fill_(0)`, `P.grad[idx].zero_()`,
`P.grad *= mask`, `P.grad.mul_(mask)` with a multiplier named like a mask) to keep those rows unchanged, while an optimizer that holds `P`
applies weight decay: `AdamW` without `weight_decay` (torch's default is 0.01), or any
optimizer with a non-zero `weight_decay`.

## Why it matters

A zero gradient does not stop the update. AdamW's decoupled decay multiplies every weight
by `1 - lr * weight_decay` before the Adam step, whatever its gradient; with `Adam`/`SGD`,
`weight_decay` is added to the gradient after the mask. The rows meant to stay
frozen shrink towards 0 at every step (diffusers issue 1009: the textual-inversion
script's pretrained token embeddings drifted visibly after 3000 steps). Momentum also
moves rows whose gradient was non-zero earlier.

## How to fix it

Keep a copy of the parameter and write the frozen rows back after each optimizer step
(`P.data[frozen] = orig[frozen]`, what diffusers' script now does), train only the new rows
(a separate parameter), or use `weight_decay=0` for that parameter.

## When preflight stays silent

* `weight_decay=0` (or not statically known) for an optimizer whose default is 0.
* Rows of the parameter are written back in the file (`P[idx] = ...`, `P.data[idx] = ...`,
  `P.copy_(...)`).
* The optimizer does not hold the masked parameter.
* The whole gradient is multiplied by a scalar (`p.grad.data.mul_(clip_coef)`, loss-scale unscaling).
"""
    bad_examples = examples("preflight.rules.code._pf354_examples", "PF354_BAD")
    good_examples = examples("preflight.rules.code._pf354_examples", "PF354_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not ctx.mentions(".grad"):
            return
        masks = _masks(ctx)
        if not masks:
            return
        aliases = _aliases(ctx)
        for opt in ctx.nodes(ast.Call):
            kind = call_last(opt)
            kind = kind if kind in _OPTIMIZERS else aliases.get(kind, "")
            if not kind or has_unpacking(opt) or not (opt.args or kwarg(opt, "params")):
                continue
            decay = _decay(ctx, opt, kind)
            if not decay:
                continue
            for stmt, owner in masks:
                if not _holds(opt, owner) or _restored(ctx, owner):
                    continue
                said = "its default weight_decay=0.01" if kwarg(opt, "weight_decay") is None \
                    else f"weight_decay={decay:g}"
                yield ctx.finding(self, opt, (
                    f"this {kind} holds `{ast.unparse(owner)}` with {said}, and the script keeps "
                    "rows of it frozen only by zeroing their gradient: weight decay does not read the gradient "
                    "(AdamW multiplies every weight by 1 - lr * weight_decay each step; Adam/SGD add it to the "
                    "gradient after the mask), so the frozen rows shrink towards 0. Write the frozen rows back "
                    "after each step, or use weight_decay=0 for this parameter"),
                    evidence=[ctx.evidence(stmt, "the gradient rows are zeroed here")])
                break
