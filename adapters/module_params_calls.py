"""What a project function returns, counted (``count_call``): moved out of ``module_params_nested`` to keep
it near its size; interpreted by the same frames."""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters.module_params_nested import _bind, _Frame, _Unknown
from preflight.adapters.module_params_values import _Ctx, _Mod

from preflight.analysis.syntax import dotted_name

# decorators of a registry that records the function and returns it unchanged: timm's ``@register_model``,
# mmengine/mmcv's ``@MODELS.register_module()``, fvcore/detectron2's ``@REGISTRY.register()``
_REGISTERS = ("register_model", "register_module", "register")


def registers(decorator: ast.expr) -> bool:
    """``decorator`` is a registration (``_REGISTERS``, bare or called): the function it decorates is the
    function as written."""
    name = dotted_name(decorator.func if isinstance(decorator, ast.Call) else decorator) or ""
    return name.rsplit(".", 1)[-1] in _REGISTERS


def _returning_item(fn: ast.FunctionDef, element: int) -> Optional[ast.FunctionDef]:
    """A copy of ``fn`` whose ``return a, b`` statements return only item ``element`` (the other items, a
    diffusion schedule beside the model, need not be known), or ``return g(...)`` the item of what the local
    function ``g`` returns; None when a return is no tuple of that size."""
    import copy

    clone = copy.deepcopy(fn)
    for node in ast.walk(clone):
        if isinstance(node, ast.Return):
            if isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name):
                # ``def build_model(args): return build(args)`` over a builder of the tuple (facebookresearch/detr
                # ``models/__init__.py:5-6``): that builder's item, run by the counter
                node.value = ast.copy_location(ast.Subscript(value=node.value, slice=ast.Constant(element),
                                                             ctx=ast.Load()), node.value)
                continue
            if not (isinstance(node.value, ast.Tuple) and -len(node.value.elts) <= element < len(node.value.elts)) \
                    or any(isinstance(e, ast.Starred) for e in node.value.elts):
                return None
            node.value = node.value.elts[element]
    return clone


def count_call(tree: ast.Module, function: str, args: Optional[list[Any]] = None,
               kwargs: Optional[dict[str, Any]] = None, element: Optional[int] = None) -> Optional[tuple[int, list[str]]]:
    """``count_module`` for what the function ``function`` of ``tree`` returns when called with these
    arguments (FoundationVision/LlamaGen ``autoregressive/models/gpt.py:451-452``: ``def GPT_XXL(**kwargs):
    return Transformer(ModelArgs(n_layer=48, n_head=24, dim=1536, **kwargs))``): run as the counter runs a
    function of the file; None unless it returns one module, counted. With ``element``, the function returns a
    tuple and that item is the module (openai/improved-diffusion ``script_util.py:38-83``
    ``create_model_and_diffusion`` returns ``model, diffusion``)."""
    ctx = _Ctx(tree)
    fn = ctx.functions.get(function)
    if fn is None or not all(registers(d) for d in fn.decorator_list):
        return None
    if element is not None:
        fn = _returning_item(fn, element)
        if fn is None:
            return None
    frame = _Frame(ctx, {}, 0)
    try:
        env = _bind(ctx, fn, list(args or []), dict(kwargs or {}), 0)
        env["__plain__"] = set()
        frame.env = env
        frame.returning = True
        if frame.run(fn.body) or frame.attrs or frame.total:
            return None
    except (_Unknown, RecursionError):
        return None
    mod = frame.returned
    return (mod.n, mod.layers) if isinstance(mod, _Mod) and mod.layers and mod.n > 0 else None
