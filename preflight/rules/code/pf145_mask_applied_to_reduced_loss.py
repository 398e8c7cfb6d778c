"""PF145 mask-applied-to-reduced-loss: a padding/validity mask multiplied into the output of a loss that
already reduced it to one number (the default ``reduction="mean"``), so the mask removes nothing."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import has_unpacking, kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

# nn losses whose default reduction is "mean" and that can return the element-wise loss
_LOSSES = frozenset({"BCEWithLogitsLoss", "BCELoss", "MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss",
                     "CrossEntropyLoss", "NLLLoss", "SoftMarginLoss", "MultiLabelSoftMarginLoss"})
_FUNCTIONAL = frozenset({"binary_cross_entropy_with_logits", "binary_cross_entropy", "mse_loss", "l1_loss",
                         "smooth_l1_loss", "huber_loss", "cross_entropy", "nll_loss"})
_REDUCERS = frozenset({"sum", "mean", "nansum", "nanmean"})
# element-wise shape/dtype changes of a mask
_KEEP = frozenset({"float", "double", "half", "bfloat16", "to", "type", "type_as", "unsqueeze", "view",
                   "reshape", "view_as", "reshape_as", "expand_as", "squeeze", "flatten", "cuda", "detach",
                   "contiguous"})


def _reduced(call: ast.Call, positional: int = 2) -> Optional[str]:
    """``mean``/``sum`` when the loss call or construction reduces to one number; None when it may not."""
    if len(call.args) > positional or has_unpacking(call) or kwarg(call, "reduce") is not None or kwarg(call, "size_average") is not None:
        return None
    value = kwarg(call, "reduction")
    if value is None:
        return "mean"
    if isinstance(value, ast.Constant) and value.value in ("mean", "sum"):
        return str(value.value)
    return None


def _target_key(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return f"self.{node.attr}"
    return None


def _criteria(ctx: FileContext) -> dict[str, tuple[ast.Call, str]]:
    """``self.bce``/``bce`` bound (every time in the file) to an ``nn.*Loss`` that reduces."""
    bound: dict[str, list[ast.expr]] = {}
    for node in ctx.nodes(ast.Assign, ast.AnnAssign, ast.AugAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for tgt in targets:
            for sub in ast.walk(tgt):
                key = _target_key(sub)
                if key is not None and isinstance(getattr(sub, "ctx", None), ast.Store):
                    value = node.value if tgt is sub and not isinstance(node, ast.AugAssign) else None
                    bound.setdefault(key, []).append(value if value is not None else ast.Constant(None))
    out: dict[str, tuple[ast.Call, str]] = {}
    for key, values in bound.items():
        calls = [v for v in values if isinstance(v, ast.Call) and call_last(v) in _LOSSES]
        if len(calls) != len(values):
            continue
        kinds = {_reduced(c) for c in calls}
        if len(kinds) == 1 and None not in kinds:
            out[key] = (calls[0], kinds.pop() or "mean")
    return out


def _mask_operand(node: ast.AST) -> bool:
    """A tensor named ``*mask*`` (a name, ``self.mask``, ``batch["mask"]``), maybe cast or reshaped."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _KEEP:
        node = node.func.value
    if isinstance(node, ast.Name):
        label = node.id
    elif isinstance(node, ast.Attribute):
        label = node.attr
    elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
            and isinstance(node.slice.value, str):
        label = node.slice.value
    else:
        return False
    return "mask" in label.lower()


def _masked_use(node: ast.AST, loss: str) -> Optional[ast.AST]:
    """The mask of ``loss * mask``, ``mask * loss``, ``loss.mul(mask)``, ``torch.mul(loss, mask)``."""
    pair: tuple[ast.AST, ...] = ()
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        pair = (node.left, node.right)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("mul", "multiply"):
        if len(node.args) == 1 and not node.keywords:
            pair = (node.func.value, node.args[0])
        if isinstance(node.func.value, ast.Name) and node.func.value.id == "torch" and len(node.args) == 2:
            pair = (node.args[0], node.args[1])
    if len(pair) != 2:
        return None
    for one, other in (pair, pair[::-1]):
        if isinstance(one, ast.Name) and one.id == loss and _mask_operand(other):
            return other
    return None


def _reduces(ctx: FileContext, node: ast.AST, fn: ast.AST) -> bool:
    """The masked product is summed or averaged: inside ``torch.sum(...)``/``(...).sum()``, or bound to a
    name the function then sums."""
    parent = ctx.parent(node)
    if isinstance(parent, ast.Call) and call_last(parent) in _REDUCERS and node in parent.args:
        return True
    if isinstance(parent, ast.Attribute) and parent.attr in _REDUCERS:
        return True
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
        name = parent.targets[0].id
        for use in ast.walk(fn):
            if isinstance(use, ast.Name) and use.id == name and isinstance(use.ctx, ast.Load) \
                    and getattr(use, "lineno", 0) > getattr(parent, "lineno", 0):
                above = ctx.parent(use)
                if isinstance(above, ast.Attribute) and above.attr in _REDUCERS:
                    return True
                if isinstance(above, ast.Call) and call_last(above) in _REDUCERS and use in above.args:
                    return True
    return False


def _loss_value(call: ast.AST, criteria: dict[str, tuple[ast.Call, str]]) -> Optional[tuple[ast.Call, str]]:
    """The construction (or the functional call) and reduction of a loss call that reduces."""
    if not isinstance(call, ast.Call):
        return None
    key = _target_key(call.func)
    if key is not None and key in criteria:
        return criteria[key]
    if call_last(call) in _FUNCTIONAL and isinstance(call.func, ast.Attribute) \
            and not (isinstance(call.func.value, ast.Name) and call.func.value.id == "self"):
        kind = _reduced(call, positional=3)
        return (call, kind) if kind is not None else None
    return None


def _bindings(fn: ast.AST, name: str) -> list[int]:
    return sorted(n.lineno for n in ast.walk(fn)
                  if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, (ast.Store, ast.Del)))


@register
class MaskAppliedToReducedLoss(Rule):
    code = "PF145"
    name = "mask-applied-to-reduced-loss"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = ("a mask is multiplied into the output of a loss that already averaged (or summed) it to one "
               "number: the mask removes nothing and padded positions are trained")
    needs_text = ("mask",)
    explanation = """
## What it finds

A loss built with the default `reduction="mean"` (or `"sum"`): an `nn.BCEWithLogitsLoss()`,
`nn.BCELoss()`, `nn.MSELoss()`, `nn.L1Loss()`, `nn.CrossEntropyLoss()`... bound to a name or a
`self.` attribute (every binding in the file), or a functional `F.binary_cross_entropy_with_logits`,
`F.mse_loss`, `F.cross_entropy`... without `reduction`, whose result is bound to a name that
is then multiplied by a tensor named `*mask*` (`loss * mask`, `mask * loss`, `loss.mul(mask)`,
`torch.mul(loss, mask)`, maybe cast or reshaped: `mask.float().unsqueeze(-1)`), and the product
is summed or averaged (`torch.sum(loss * mask) / torch.sum(mask)`, `(loss * mask).mean()`).

## Why it matters

With `reduction="mean"` the loss is already one number averaged over every position, padded
ones included. Multiplying that scalar by the mask broadcasts it, so
`sum(loss * mask) / sum(mask)` gives back the same scalar: the mask removes nothing, padded or
invalid positions are trained towards their (dummy) targets and weigh in the gradient, and the
reported loss is the unmasked one (OpenJERE issue 6, "Error about MaskedBCE": the maintainer
confirms it and switches to `reduction='none'`). With `reduction="sum"` the masked result is
the whole sum scaled by a constant.

## How to fix it

Build the loss with `reduction="none"` so it returns the element-wise loss, then mask and
average it: `(loss_fn(logits, y) * mask).sum() / mask.sum()`.

## When preflight stays silent

* The loss is built with `reduction="none"`, a reduction preflight cannot read
  (`reduction=self.reduction`, `**kwargs`), or the deprecated `reduce`/`size_average`.
* The name is bound to anything else anywhere in the file, the criterion comes from a
  parameter, or the loss name is rebound between the loss call and the masking.
* The mask is applied to the inputs before the loss (`loss_fn(pred * mask, y * mask)`), given
  as `weight=mask`, or the factor is a computed scalar (`mask.sum()`, `mask.any()`), or the
  product is never summed or averaged.
"""
    bad_examples = examples("preflight.rules.code._pf145_examples", "PF145_BAD")
    good_examples = examples("preflight.rules.code._pf145_examples", "PF145_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        criteria = _criteria(ctx)
        seen: set[int] = set()
        for assign in ctx.nodes(ast.Assign):
            if len(assign.targets) != 1 or not isinstance(assign.targets[0], ast.Name):
                continue
            made = _loss_value(assign.value, criteria)
            fn = ctx.enclosing_function(assign)
            if made is None or fn is None:
                continue
            name = assign.targets[0].id
            later = [line for line in _bindings(fn, name) if line > assign.lineno]
            limit = later[0] if later else 10 ** 9
            for node in ast.walk(fn):
                mask = _masked_use(node, name)
                line = getattr(node, "lineno", 0)
                if mask is None or not assign.lineno < line <= limit or not _reduces(ctx, node, fn):
                    continue
                built, kind = made
                if id(built) in seen:
                    break
                seen.add(id(built))
                yield ctx.finding(
                    self, built,
                    f"this loss reduces with `reduction=\"{kind}\"`, so `{name}` is already one number when "
                    f"it is multiplied by `{ast.unparse(mask)}` and summed: the mask removes nothing, padded or "
                    "masked positions are trained and weigh in the loss. Build it with `reduction=\"none\"` and "
                    "average the masked element-wise loss",
                    evidence=[ctx.evidence(assign, f"`{name}` is the reduced loss"),
                              ctx.evidence(node, "the mask multiplies a scalar")])
                break
