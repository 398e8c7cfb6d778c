"""The calls of Python builtins and of plain values (``isinstance``, ``len``, ``int``/``max``/``min``, ``math``,
``dict(...)``, ``.get``, ``list``/``zip``/``enumerate``, ``list.pop``, ``copy.deepcopy``, a known string's methods,
a ``**kwargs`` dict's ``keys()``/``get``) as the module counter's expression interpreter
(``module_params_exprs._Exprs.call``) reads them: moved out of that module to keep it under the size limit; read
from the source, never run."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from preflight.adapters.module_params import _Unknown
from preflight.adapters.module_params_values import _UNK, _Factory, _Mod, _number, _Tensor

if TYPE_CHECKING:
    from preflight.adapters.module_params_exprs import _Exprs

_STR_METHODS = frozenset({"split", "strip", "lower", "upper", "rstrip", "lstrip"})

#: what ``builtin_call`` returns for a call it does not read (the caller goes on to its other readings)
NOT_BUILTIN: Any = object()


def builtin_call(frame: _Exprs, node: ast.Call, name: str) -> Any:
    """The value of ``node`` (called ``name``) when it is a builtin or a method of a plain value this reads;
    ``NOT_BUILTIN`` when it is none of these; ``_Unknown`` raised when it is one but cannot be worked out."""
    last = name.rsplit(".", 1)[-1]
    if name == "isinstance" and len(node.args) == 2 and not node.keywords:
        # ``isinstance(img_size, tuple)`` on a known plain value and builtin types
        types: dict[str, Any] = {"int": int, "float": float, "str": str, "bool": bool, "tuple": (tuple, list),
                                 "list": (tuple, list), "dict": dict}
        spec = node.args[1]
        names = [e for e in spec.elts] if isinstance(spec, ast.Tuple) else [spec]
        if not all(isinstance(e, ast.Name) and e.id in types for e in names):
            raise _Unknown("isinstance")
        value = frame.ev(node.args[0])
        if value is _UNK or isinstance(value, (_Mod, _Tensor, _Factory)):
            raise _Unknown("isinstance")
        return any(isinstance(value, types[e.id]) for e in names if isinstance(e, ast.Name))
    if name == "len" and len(node.args) == 1 and not node.keywords:
        seq = frame.ev(node.args[0])
        if not isinstance(seq, (list, tuple, str, dict)):
            raise _Unknown("len")
        return len(seq)
    if name in ("int", "max", "min", "abs", "round", "float", "bool", "sum"):
        args = frame.items(list(node.args))
        if node.keywords or not args:
            raise _Unknown(name)
        if name in ("max", "min", "sum") and len(args) == 1 and isinstance(args[0], (tuple, list)):
            args = list(args[0])
        if name in ("int", "float") and len(args) == 1 and isinstance(args[0], str):
            try:  # a number written in a known string (``int("16")``)
                return int(args[0]) if name == "int" else float(args[0])
            except ValueError:
                raise _Unknown(name) from None
        if not all(_number(a) or isinstance(a, bool) for a in args):
            raise _Unknown(name)
        return {"int": lambda: int(args[0]), "float": lambda: float(args[0]), "bool": lambda: bool(args[0]),
                "abs": lambda: abs(args[0]), "round": lambda: round(*args), "max": lambda: max(args),
                "min": lambda: min(args), "sum": lambda: sum(args)}[name]()
    if name in ("math.sqrt", "math.ceil", "math.floor", "math.log2"):
        import math
        arg = frame.ev(node.args[0]) if len(node.args) == 1 else _UNK
        if not _number(arg):
            raise _Unknown(name)
        try:
            return getattr(math, last)(arg)
        except ValueError:
            raise _Unknown(name) from None
    if name == "dict" and not node.args:
        return {kw.arg: frame.ev(kw.value) for kw in node.keywords if kw.arg is not None} \
            if all(kw.arg is not None for kw in node.keywords) else frame.unknown(name)
    if isinstance(node.func, ast.Attribute) and node.func.attr == "get" and 1 <= len(node.args) <= 2 \
            and not node.keywords:
        owner = frame.ev(node.func.value)
        if isinstance(owner, dict):
            key = frame.ev(node.args[0])
            if key in owner:
                return frame.known(owner[key])
            return frame.ev(node.args[1]) if len(node.args) == 2 else None
    if name in ("list", "tuple", "enumerate", "zip", "reversed") and node.args:
        return tuple(frame.iterate(node) if name != "list" and name != "tuple" else frame.iterate(node.args[0])) \
            if len(node.args) == 1 or name == "zip" else frame.unknown(name)
    if isinstance(node.func, ast.Attribute) and node.func.attr == "pop" and isinstance(node.func.value, ast.Name) \
            and isinstance(frame.env.get(node.func.value.id), tuple) and not node.keywords and len(node.args) <= 1:
        # a local list used as a stack (improved-diffusion ``unet.py``: ``input_block_chans.pop()``)
        held = list(frame.env[node.func.value.id])
        at = frame.ev(node.args[0]) if node.args else -1
        if not isinstance(at, int) or isinstance(at, bool) or not -len(held) <= at < len(held):
            raise _Unknown("pop")
        value = held.pop(at)
        frame.env[node.func.value.id] = tuple(held)
        return value
    if name in ("copy.deepcopy", "deepcopy") and len(node.args) == 1 and not node.keywords \
            and isinstance(node.args[0], ast.Name) and isinstance(frame.env.get(node.args[0].id), _Mod):
        # a module copied (facebookresearch/detr ``models/transformer.py`` ``_get_clones``: ``nn.ModuleList(
        # [copy.deepcopy(module) for i in range(N)])``): each copy is a module of its own; the original is
        # counted only if it too reaches ``self``
        original: _Mod = frame.env[node.args[0].id]
        return _Mod(original.n, dict(original.weights), list(original.layers), dict(original.facts))
    if name in ("copy.deepcopy", "deepcopy") and len(node.args) == 1 and not node.keywords \
            and not (isinstance(node.args[0], ast.Name) and isinstance(frame.env.get(node.args[0].id), _Mod)):
        copied = frame.ev(node.args[0])  # a plain value copied (poolformer ``self.init_cfg = copy.deepcopy(init_cfg)``)
        if isinstance(copied, (_Mod, _Tensor, _Factory)):
            raise _Unknown("deepcopy")
        return copied
    if isinstance(node.func, ast.Attribute) and node.func.attr in _STR_METHODS and not node.keywords \
            and len(node.args) <= 1:
        # a method of a known string (improved-diffusion ``script_util.py:109``: ``for res in
        # attention_resolutions.split(","): attention_ds.append(image_size // int(res))``)
        owner = frame.ev(node.func.value)
        given = [frame.ev(a) for a in node.args]
        if isinstance(owner, str) and all(isinstance(a, str) for a in given):
            done = getattr(owner, node.func.attr)(*given)
            return tuple(done) if isinstance(done, list) else done
    if isinstance(node.func, ast.Attribute) and node.func.attr in ("keys", "get") and not node.keywords \
            and isinstance(node.func.value, ast.Name) and isinstance(frame.env.get(node.func.value.id), dict):
        # a ``**kwargs`` dict asked (sihyun-yu/REPA @ 67f7145 ``models/sit.py:116``: ``"fused_attn" in
        # block_kwargs.keys()``; ``kwargs.get("qk_norm", False)``)
        held = frame.env[node.func.value.id]
        given = [frame.ev(a) for a in node.args]
        if node.func.attr == "keys" and not given:
            return tuple(held)
        if node.func.attr == "get" and given and len(given) <= 2 and isinstance(given[0], str):
            return held.get(given[0], given[1] if len(given) == 2 else None)
    return NOT_BUILTIN
