"""PF244 sequence-first-encoder-pooled-over-dim-one: an ``nn.TransformerEncoderLayer`` (or decoder
layer, or ``nn.Transformer``) built with the default ``batch_first=False`` whose output the module
pools over dimension 1 (``x.mean(dim=1)``, ``x[:, 0]``): the tensors are batch-major, so attention
runs across the examples of the batch."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import qualify
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

_LAYERS = ("TransformerEncoderLayer", "TransformerDecoderLayer")
_STACKS = ("TransformerEncoder", "TransformerDecoder")
_WHOLE = ("Transformer",)
_POOLS = ("mean", "sum", "max", "amax", "logsumexp", "nanmean")
# any of these in the method means the layout is changed somewhere: the rule cannot tell
_LAYOUT = ("transpose", "permute", "swapaxes", "swapdims", "movedim", "rearrange", "einsum", "view", "reshape",
           "flatten", "squeeze", "unsqueeze", "unbind", "split", "chunk", "unflatten")


def _seq_first(call: ast.Call) -> bool:
    """The layer keeps ``batch_first=False``: the keyword is absent (no ``**kwargs``) or a literal False."""
    if any(kw.arg is None for kw in call.keywords):
        return False
    value = next((kw.value for kw in call.keywords if kw.arg == "batch_first"), None)
    return value is None or (isinstance(value, ast.Constant) and value.value is False)


def _self_attr(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def _torch_nn(ctx: FileContext, call: ast.Call) -> bool:
    """The callee is PyTorch's own class (``nn.TransformerEncoderLayer``), not a project class of the same name."""
    return qualify(ctx, call.func).startswith("torch.nn.")


def _layers_by_attribute(ctx: FileContext, cls: ast.ClassDef) -> dict[str, ast.Call]:
    """``self.<attr>`` -> the sequence-first layer call it is built from, in any method of ``cls``:
    ``self.encoder = nn.TransformerEncoder(layer, n)`` with ``layer = nn.TransformerEncoderLayer(...)``
    in the same method (or inline), or the layer (or ``nn.Transformer``) assigned directly."""
    out: dict[str, ast.Call] = {}
    for fn in cls.body:
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        local: dict[str, ast.Call] = {}
        for node in ast.walk(fn):
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call)):
                continue
            target, value = node.targets[0], node.value
            last = call_last(value)
            if not _torch_nn(ctx, value):
                continue
            layer: Optional[ast.Call] = None
            if last in _LAYERS or last in _WHOLE:
                layer = value
            elif last in _STACKS and value.args:
                inner = value.args[0]
                if isinstance(inner, ast.Call) and call_last(inner) in _LAYERS and _torch_nn(ctx, inner):
                    layer = inner
                elif isinstance(inner, ast.Name):
                    layer = local.get(inner.id)
            if layer is None:
                continue
            if isinstance(target, ast.Name):
                if last in _LAYERS:
                    local[target.id] = value
                continue
            attr = _self_attr(target)
            if attr is not None and _seq_first(layer):
                out[attr] = layer
    return out


def _pools_dim_one(node: ast.AST) -> bool:
    """``x.mean(dim=1)``/``x.mean(1)``/``torch.mean(x, dim=1)`` (and sum/max), or ``x[:, 0]``/``x[:, -1]``."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple) and len(node.slice.elts) >= 2:
        first, second = node.slice.elts[0], node.slice.elts[1]
        return (isinstance(first, ast.Slice) and first.lower is None and first.upper is None
                and not isinstance(second, ast.Slice))
    if isinstance(node, ast.Call) and call_last(node) in _POOLS:
        dim = next((kw.value for kw in node.keywords if kw.arg in ("dim", "axis")), None)
        if dim is None:
            positional = node.args if isinstance(node.func, ast.Attribute) and not _is_module_func(node) \
                else node.args[1:]
            dim = positional[0] if positional else None
        return isinstance(dim, ast.Constant) and dim.value == 1 and not isinstance(dim.value, bool)
    return False


def _is_module_func(call: ast.Call) -> bool:
    """``torch.mean(x, ...)``: the pooled tensor is the first argument."""
    return isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) and \
        call.func.value.id in ("torch", "th")


def _pooled(fn: ast.AST, attr: str) -> Optional[ast.expr]:
    """The first dim-1 pooling in ``fn`` of the output of ``self.<attr>(...)``: directly
    (``self.encoder(x).mean(dim=1)``) or through the name it is bound to, until that name is rebound."""
    calls = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and _self_attr(n.func) == attr]
    if not calls:
        return None
    outputs: set[int] = {id(c) for c in calls}
    names: dict[str, int] = {}  # name -> line it was bound to the output
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and id(node.value) in outputs \
                and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            names[node.targets[0].id] = node.lineno
    candidates: list[ast.expr] = [n for n in ast.walk(fn) if isinstance(n, (ast.Call, ast.Subscript))]
    for node in sorted(candidates, key=lambda n: (n.lineno, n.col_offset)):
        if not _pools_dim_one(node):
            continue
        pooled: ast.AST
        if isinstance(node, ast.Subscript):
            pooled = node.value
        elif isinstance(node, ast.Call) and _is_module_func(node):  # torch.mean(x, dim=1)
            if not node.args:
                continue
            pooled = node.args[0]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            pooled = node.func.value
        else:
            continue
        if id(pooled) in outputs:
            return node
        if isinstance(pooled, ast.Name) and pooled.id in names and _bound_last(fn, pooled.id, node.lineno) \
                == names[pooled.id]:
            return node
    return None


def _bound_last(fn: ast.AST, name: str, before: int) -> Optional[int]:
    """The line of the last binding of ``name`` in ``fn`` before line ``before``."""
    lines = [n.lineno for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == name
             and isinstance(n.ctx, ast.Store) and n.lineno < before]
    return max(lines) if lines else None


def _changes_layout(fn: ast.AST) -> bool:
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and call_last(node) in _LAYOUT:
            return True
        if isinstance(node, ast.Attribute) and node.attr in ("T", "mT"):
            return True
    return False


@register
class SequenceFirstEncoderPooledOverDimOne(Rule):
    code = "PF244"
    name = "sequence-first-encoder-pooled-over-dim-one"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    needs_text = ("Transformer",)
    summary = ("`nn.TransformerEncoderLayer` keeps the default `batch_first=False` while the module pools its "
               "output over dimension 1 (`x.mean(dim=1)`, `x[:, 0]`): batch-major tensors, so attention mixes "
               "the examples of a batch")
    explanation = """
## What it finds

A module that builds `nn.TransformerEncoderLayer` / `nn.TransformerDecoderLayer` (through
`nn.TransformerEncoder`/`nn.TransformerDecoder`, or directly) or `nn.Transformer` without
`batch_first=True`, and whose method pools that block's output over dimension 1
(`x.mean(dim=1)`, `x.sum(1)`, `x.max(dim=1)`, `torch.mean(x, dim=1)`, `x[:, 0]`, `x[:, -1]`) with no
transpose, permute, reshape or einsum in between.

## Why it matters

With `batch_first=False` (the default) the layers read their input as (sequence, batch,
feature). Pooling the output over dimension 1 says the module holds (batch, sequence,
feature) tensors, as embedding layers and tokenizers produce them. The encoder then treats
the batch as the sequence: every example attends to the other examples of its batch, the
tokens of one example never attend to each other, and nothing fails; the loss stays high and
predictions depend on the batch composition (TorchLeet issue 5, PyTorch docs of
`TransformerEncoderLayer`: "batch_first: If True, then the input and output tensors are
provided as (batch, seq, feature). Default: False (seq, batch, feature)").

## How to fix it

`nn.TransformerEncoderLayer(d_model, nhead, ..., batch_first=True)`, or transpose to
(sequence, batch, feature) before the encoder and pool over dimension 0.

## When preflight stays silent

* `batch_first` is set to anything but a literal False, or the layer gets `**kwargs`.
* The class is not PyTorch's (a project's own `TransformerEncoderLayer`).
* The method transposes, permutes, reshapes or uses einsum/einops anywhere (the layout is
  changed somewhere preflight does not follow).
* The output is pooled over dimension 0 (`x.mean(dim=0)`, `x[0]`): sequence-first and consistent.
"""
    bad_examples = examples("preflight.rules.code._pf244_examples", "PF244_BAD")
    good_examples = examples("preflight.rules.code._pf244_examples", "PF244_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for cls in ctx.nodes(ast.ClassDef):
            layers = _layers_by_attribute(ctx, cls)
            if not layers:
                continue
            reported: set[int] = set()
            for fn in cls.body:
                if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or _changes_layout(fn):
                    continue
                for attr, layer in layers.items():
                    pool = _pooled(fn, attr)
                    if pool is None or id(layer) in reported:
                        continue
                    reported.add(id(layer))
                    yield ctx.finding(
                        self, layer,
                        f"this `{call_last(layer)}` keeps the default `batch_first=False`, so `self.{attr}` reads "
                        f"(sequence, batch, feature), but `{ast.unparse(pool)}` (line {pool.lineno}) pools its "
                        "output over dimension 1, the sequence of batch-major tensors: attention runs across the "
                        "examples of each batch instead of the tokens of each example. Pass `batch_first=True`",
                        evidence=[ctx.evidence(pool, "pooled over dimension 1 here")])
