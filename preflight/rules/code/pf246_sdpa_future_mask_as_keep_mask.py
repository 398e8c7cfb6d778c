"""PF246 sdpa-future-mask-as-keep-mask: a boolean mask that is True above the diagonal (the future,
``torch.triu(..., diagonal=1).bool()``) passed as ``attn_mask`` to ``scaled_dot_product_attention``,
where True means "may attend": every token attends only to later tokens."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import qualify
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

_NEGATIONS = ("logical_not", "~", "== 0", "==0", "tril", "masked_fill", "where", "float(", "-inf", "inf")


def _diagonal_one(call: ast.Call) -> bool:
    """``torch.triu(x, diagonal=1)`` / ``torch.triu(x, 1)`` / ``x.triu(1)`` / ``x.triu(diagonal=1)``."""
    value = next((kw.value for kw in call.keywords if kw.arg == "diagonal"), None)
    if value is None:
        method = isinstance(call.func, ast.Attribute) and not (
            isinstance(call.func.value, ast.Name) and call.func.value.id in ("torch", "th"))
        args = call.args if method else call.args[1:]
        value = args[0] if args else None
    return isinstance(value, ast.Constant) and value.value == 1 and not isinstance(value.value, bool)


def _future_mask(expr: ast.AST) -> bool:
    """``expr`` builds a boolean strictly-upper-triangular mask and negates nothing."""
    text = ast.unparse(expr)
    if any(n in text for n in _NEGATIONS):
        return False
    triu = [n for n in ast.walk(expr) if isinstance(n, ast.Call) and call_last(n) == "triu"]
    if not triu or not all(_diagonal_one(t) for t in triu):
        return False
    return ".bool()" in text or "torch.bool" in text or "dtype=bool" in text


def _self_attr(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def _single_local(fn: ast.AST, name: str) -> Optional[ast.expr]:
    """The value of ``name``'s only assignment in ``fn``."""
    values = [n.value for n in ast.walk(fn) if isinstance(n, ast.Assign)
              and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)]
    stores = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)]
    return values[0] if len(values) == 1 and len(stores) == 1 else None


def _attribute_definition(cls: ast.ClassDef, attr: str) -> Optional[ast.expr]:
    """What ``self.<attr>`` is built from: ``self.register_buffer("<attr>", value)`` or ``self.<attr> = value``
    (a local name of the same method followed), when there is exactly one such binding."""
    found: list[tuple[ast.expr, ast.AST]] = []
    for fn in cls.body:
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and call_last(node) == "register_buffer" and len(node.args) >= 2 \
                    and isinstance(node.args[0], ast.Constant) and node.args[0].value == attr:
                found.append((node.args[1], fn))
            elif isinstance(node, ast.Assign) and any(_self_attr(t) == attr for t in node.targets):
                found.append((node.value, fn))
    if len(found) != 1:
        return None
    value, method = found[0]
    if isinstance(value, ast.Name):
        return _single_local(method, value.id)
    return value


def _mask_source(ctx: FileContext, call: ast.Call, mask: ast.expr) -> Optional[ast.expr]:
    """The expression the ``attn_mask`` argument is built from: through slicing, a local name of the
    function, or an attribute of the class."""
    while isinstance(mask, ast.Subscript):
        mask = mask.value
    if isinstance(mask, ast.Call) and isinstance(mask.func, ast.Attribute) and mask.func.attr in ("to", "cuda"):
        mask = mask.func.value
        while isinstance(mask, ast.Subscript):
            mask = mask.value
    fn = ctx.enclosing_function(call)
    if isinstance(mask, ast.Name) and fn is not None:
        return _single_local(fn, mask.id)
    attr = _self_attr(mask)
    if attr is not None:
        cls = ctx.enclosing(call, ast.ClassDef)
        return _attribute_definition(cls, attr) if cls is not None else None
    if isinstance(mask, ast.Call):
        return mask
    return None


@register
class SdpaFutureMaskAsKeepMask(Rule):
    code = "PF246"
    name = "sdpa-future-mask-as-keep-mask"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    needs_text = ("scaled_dot_product_attention",)
    summary = ("a boolean mask that is True above the diagonal (`triu(..., diagonal=1).bool()`) is passed as "
               "`attn_mask` to `scaled_dot_product_attention`, where True means \"may attend\": each token "
               "attends only to the tokens after it")
    explanation = """
## What it finds

`F.scaled_dot_product_attention(q, k, v, attn_mask=m)` where `m` (directly, sliced, through a local
name or a `register_buffer`/`self.<name>` attribute) is built as a boolean strictly upper
triangular matrix, `torch.triu(torch.ones(T, T), diagonal=1).bool()` (or with `dtype=torch.bool`),
and is not negated.

## Why it matters

That matrix is the "future" mask of `nn.MultiheadAttention` and `masked_fill`, where True marks
the positions to hide. `scaled_dot_product_attention` reads a boolean `attn_mask` the other way:
"A boolean mask where a value of True indicates that the element *should take part* in
attention" (PyTorch docs). Each token then attends only to the tokens after it, which is the
text it must predict, and the last row is all False, so its softmax is NaN. Training loss drops
fast, generation is garbage (rasbt/LLMs-from-scratch issue 1061).

## How to fix it

`is_causal=True` and no mask, or pass the negation: `attn_mask=~self.mask[:T, :T]` (or build the
mask with `torch.tril(...)`).

## When preflight stays silent

* The mask is negated (`~m`, `logical_not`, `== 0`), built with `tril`, or is a float additive mask
  (`masked_fill(..., float("-inf"))`, `-inf` above the diagonal): those are correct.
* The mask is built where preflight does not follow it (another module, a name bound more than once).
* The function called is not PyTorch's (a project's own `scaled_dot_product_attention`).
"""
    bad_examples = examples("preflight.rules.code._pf246_examples", "PF246_BAD")
    good_examples = examples("preflight.rules.code._pf246_examples", "PF246_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call in ctx.nodes(ast.Call):
            if call_last(call) != "scaled_dot_product_attention" or not qualify(ctx, call.func).startswith("torch."):
                continue  # a project's own attention function may read True as "hide"
            mask = next((kw.value for kw in call.keywords if kw.arg == "attn_mask"), None)
            if mask is None and len(call.args) >= 4:
                mask = call.args[3]
            if mask is None or isinstance(mask, ast.UnaryOp) or any(
                    n in ast.unparse(mask) for n in _NEGATIONS):
                continue
            source = _mask_source(ctx, call, mask)
            if source is None or not _future_mask(source):
                continue
            yield ctx.finding(
                self, mask,
                f"`{ast.unparse(source)}` is True above the diagonal (the future positions), but a boolean "
                "`attn_mask` of scaled_dot_product_attention marks the positions that TAKE PART in attention: "
                "each token attends only to the tokens after it and the last row is fully masked (NaN). Use "
                "`is_causal=True`, or pass the negated mask (`~mask`)",
                evidence=[ctx.evidence(source, "built True above the diagonal here")])
