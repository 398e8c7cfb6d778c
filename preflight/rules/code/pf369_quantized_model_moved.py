"""PF369 quantized-model-moved: a bitsandbytes-quantized model moved or cast after loading."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator, Optional, Union

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import has_unpacking, is_from, kwarg, literal
from preflight.rules.base import Rule, examples

_Scope = Union[ast.Module, ast.FunctionDef, ast.AsyncFunctionDef]
_CASTS = frozenset({"half", "float"})  # the casts transformers overrides to refuse (not bfloat16/double)
_DTYPES = frozenset({"float16", "half", "bfloat16", "float32", "float", "float64", "double"})


def _own_nodes(scope: _Scope) -> Iterator[ast.AST]:
    """The nodes of ``scope`` outside nested functions and classes."""
    nested = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
    stack: list[ast.AST] = [n for n in scope.body if not isinstance(n, nested)]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(child for child in ast.iter_child_nodes(node) if not isinstance(child, nested))


def _config_bits(ctx: FileContext, call: ast.Call) -> Optional[int]:
    """8 or 4 for ``BitsAndBytesConfig(load_in_8bit=True)`` / ``(load_in_4bit=True)``."""
    if has_unpacking(call):
        return None
    if literal(ctx, kwarg(call, "load_in_8bit")) is True:
        return 8
    if literal(ctx, kwarg(call, "load_in_4bit")) is True:
        return 4
    return None


def _is_dtype(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Attribute) and expr.attr in _DTYPES and \
        isinstance(expr.value, ast.Name) and expr.value.id == "torch"


@register
class QuantizedModelMoved(Rule):
    code = "PF369"
    needs_text = ("from_pretrained",)
    name = "quantized-model-moved"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("transformers",)
    summary = "A bitsandbytes 8-bit model is moved with `.to()`/`.cuda()`, or a quantized model is cast to a float dtype"
    explanation = """
## What it finds

A model loaded with `from_pretrained(..., quantization_config=BitsAndBytesConfig(load_in_8bit=True))`
(or the older `load_in_8bit=True` keyword) that the same function then moves with
`model.cuda()` or `model.to(device)`, or any bitsandbytes-quantized model (8-bit or 4-bit)
that is then cast with `.half()`, `.float()` or `.to(torch.float16)` / `.to(dtype=...)`.

## Why it matters

`from_pretrained` already places a quantized model (through `device_map`) and keeps its
weights in the quantized storage; transformers overrides the model's `.to`, `.cuda`, `.half`
and `.float` to refuse what would break that storage, and the script stops at the call:

* a cast: `ValueError: You cannot cast a bitsandbytes model in a new dtype` (`.to(dtype)`),
  `` `.half()` is not supported for quantized model `` (`.half()`, `.float()`), in every release;
* `.cuda()` of an 8-bit model: `` Calling `cuda()` is not supported for `8-bit` quantized models ``;
* `.to(device)` of an 8-bit model: `` `.to` is not supported for `8-bit` bitsandbytes models.
  Please use the model as it is, since the model has already been set to the correct devices ``
  (the newest transformers releases allow it with bitsandbytes 0.48 or later).

This is among the most reported loading errors in the transformers, bitsandbytes and
downstream trackers (transformers#38717, bitsandbytes#547, MiniCPM-V#719).

## How to fix it

Drop the call: choose the GPU with `device_map={"": local_rank}` (or `device_map="auto"`) and
the dtype of the layers left unquantized with `torch_dtype` (and the compute dtype with
`bnb_4bit_compute_dtype`) in `from_pretrained`.

## When preflight stays silent

* A 4-bit model moved with `.to(device)` / `.cuda()`: bitsandbytes 0.43.2 and later allow it.
* `.bfloat16()` / `.double()`: transformers does not override them, and torch's own cast
  skips the integer quantized weights.
* The name is reassigned (e.g. `model = get_peft_model(model, ...)`) before the call, or the
  call is on another model (a float reference model, a reward model) of the same function.
* The call sits in a `try`, or under an `if` that tests the model's device or quantization
  (`if model.device.type != "cuda":`): the author handles the case.
* The quantization config comes through `**kwargs`, from another function, or its name is bound
  to an 8-bit config in one branch and a 4-bit one in another.
"""
    bad_examples = examples("preflight.rules.code._pf369_examples", "PF369_BAD")
    good_examples = examples("preflight.rules.code._pf369_examples", "PF369_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        scopes: list[_Scope] = [ctx.tree] if isinstance(ctx.tree, ast.Module) else []
        scopes.extend(n for n in ctx.nodes(ast.FunctionDef))
        scopes.extend(n for n in ctx.nodes(ast.AsyncFunctionDef))
        module_names = self._config_names(ctx, list(_own_nodes(scopes[0])) if scopes else [], {})
        for scope in scopes:
            nodes = sorted((n for n in _own_nodes(scope) if hasattr(n, "lineno")), key=_order)
            names = self._config_names(ctx, nodes, dict(module_names))
            yield from self._scope(ctx, nodes, names)

    @staticmethod
    def _config_names(ctx: FileContext, nodes: list[ast.AST], names: dict[str, int]) -> dict[str, int]:
        """Names bound to a bitsandbytes config of known bits; a name bound twice to different
        values (an 8-bit and a 4-bit branch, or anything else) is unknown and left out."""
        seen: dict[str, set[Optional[int]]] = {}
        for node in nodes:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                bits = None
                if isinstance(node.value, ast.Call) and is_from(_qual(ctx, node.value.func), "transformers",
                                                                "BitsAndBytesConfig"):
                    bits = _config_bits(ctx, node.value)
                seen.setdefault(node.targets[0].id, set()).add(bits)
        for name, values in seen.items():
            names.pop(name, None)
            if len(values) == 1 and None not in values:
                names[name] = next(iter(values))  # type: ignore[assignment]
        return names

    def _load_bits(self, ctx: FileContext, call: ast.Call, names: dict[str, int]) -> Optional[int]:
        if not (isinstance(call.func, ast.Attribute) and call.func.attr == "from_pretrained"):
            return None
        config = kwarg(call, "quantization_config")
        if isinstance(config, ast.Name):
            return names.get(config.id)
        if isinstance(config, ast.Call) and is_from(_qual(ctx, config.func), "transformers", "BitsAndBytesConfig"):
            return _config_bits(ctx, config)
        if config is None and not has_unpacking(call):
            if literal(ctx, kwarg(call, "load_in_8bit")) is True:
                return 8
            if literal(ctx, kwarg(call, "load_in_4bit")) is True:
                return 4
        return None

    def _scope(self, ctx: FileContext, nodes: list[ast.AST], names: dict[str, int]) -> Iterator[Finding]:
        loaded: dict[str, tuple[int, ast.AST, ast.stmt]] = {}  # target text -> (bits, load call, its statement)
        for node in nodes:
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                owner = ast.unparse(node.func.value)
                if owner in loaded and _runs_after(ctx, loaded[owner][2], node) and not _guarded(ctx, node, owner):
                    bits, load, _ = loaded[owner]
                    refused = self._refused(node, bits)
                    if refused:
                        reason, error = refused
                        yield ctx.finding(
                            self, node,
                            f"`{owner}` was loaded {bits}-bit quantized by bitsandbytes (line {load.lineno}"  # type: ignore[attr-defined]
                            f"); {reason}: transformers raises \"ValueError: {error}\". Drop the call and place "
                            "the model with `device_map` (and the dtype with `torch_dtype` / the compute dtype) "
                            "in `from_pretrained`",
                            evidence=[ctx.evidence(load, f"{bits}-bit bitsandbytes load")])
                        del loaded[owner]
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    text = ast.unparse(target)
                    loaded.pop(text, None)
                    value = node.value
                    if len(targets) == 1 and isinstance(value, ast.Call) and \
                            isinstance(target, (ast.Name, ast.Attribute)):
                        got = self._load_bits(ctx, value, names)
                        if got is not None:
                            loaded[text] = (got, value, node)

    @staticmethod
    def _refused(call: ast.Call, bits: int) -> Optional[tuple[str, str]]:
        """(what the call does, the error transformers raises) when it refuses the call."""
        attr = call.func.attr  # type: ignore[attr-defined]
        if attr in _CASTS and not call.args and not call.keywords:
            return (f"`.{attr}()` casts it", f"`.{attr}()` is not supported for quantized model")
        if attr == "to":
            casts = [a for a in call.args if _is_dtype(a)] + \
                [kw.value for kw in call.keywords if kw.arg == "dtype" and _is_dtype(kw.value)]
            if casts:
                return ("`.to(<dtype>)` casts it", "You cannot cast a bitsandbytes model in a new `dtype`")
            if bits == 8 and (call.args or call.keywords):
                return ("`.to(...)` moves it (refused for 8-bit models unless bitsandbytes >= 0.48 with a "
                        "transformers release that checks for it)",
                        "`.to` is not supported for `8-bit` bitsandbytes models")
        if attr == "cuda" and bits == 8:
            return ("`.cuda()` moves it", "Calling `cuda()` is not supported for `8-bit` quantized models")
        return None


def _runs_after(ctx: FileContext, load: ast.stmt, call: ast.AST) -> bool:
    """``call`` sits in the statement list of ``load`` (directly or nested), so it runs only after the
    quantized load: a move after an ``if``/``else`` whose one branch loads quantized is not decided."""
    parent = ctx.parent(load)
    block = next((getattr(parent, f) for f in ("body", "orelse", "finalbody", "handlers")
                  if load in getattr(parent, f, ())), None)
    if block is None:
        return False
    child: ast.AST = call
    for anc in ctx.ancestors(call):
        if anc is parent:
            return any(child is stmt for stmt in block)
        child = anc
    return False


def _guarded(ctx: FileContext, call: ast.AST, owner: str) -> bool:
    """The call sits under an ``if``/``try`` that asks where the model is or whether it is quantized
    (``if model.device.type != "cuda":``, ``if not model.is_loaded_in_8bit:``): the author knows."""
    for anc in ctx.ancestors(call):
        if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return False
        if isinstance(anc, ast.Try):
            return True
        test = anc.test if isinstance(anc, (ast.If, ast.IfExp)) else None
        if test is not None:
            text = ast.unparse(test)
            if f"{owner}.device" in text or "quantiz" in text or "8bit" in text or "4bit" in text:
                return True
    return False


def _order(node: ast.AST) -> tuple[int, int]:
    """Source order; an assignment counts at its end, after the calls of its value."""
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        return (node.end_lineno or node.lineno, node.end_col_offset or 0)
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _qual(ctx: FileContext, node: ast.AST) -> str:
    from preflight.rules._pf4_support import qualify

    return qualify(ctx, node)
