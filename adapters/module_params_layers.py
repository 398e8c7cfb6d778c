"""Layers, local dataclasses and tensors of the module counter's interpreter
(``module_params_exprs._Exprs`` mixes this in): ``nn.Sequential``/``ModuleList``/``ModuleDict``,
``nn.Parameter`` and counted layers, a local ``@dataclass`` read as a dict, the size of a tensor
factory call, the weight of ``self.a.b``; read from the source, never run."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, Optional, cast

from preflight.adapters.module_params import _prod, _Unknown
from preflight.adapters.module_params_lists import empty_list
from preflight.adapters.module_params_norms import weight_rows
from preflight.adapters.module_params_torch import _bias_of, _counted_layer, _merge
from preflight.adapters.module_params_values import (
    _SIZE_FACTORIES,
    _UNK,
    _Ctx,
    _Mod,
    _number,
    _Tensor,
)

from preflight.analysis.syntax import dotted_name


class _LayerExprs:
    """The layer half of ``_Exprs`` (which supplies the state and ``ev``/``items``/``bound_args``)."""

    ctx: _Ctx
    env: dict[str, Any]
    depth: int
    attrs: dict[str, Any]

    if TYPE_CHECKING:
        def ev(self, node: ast.AST) -> Any: ...

        def items(self, elts: list[ast.expr]) -> list[Any]: ...

        def bound_args(self, call: ast.Call) -> tuple[list[Any], dict[str, Any]]: ...

    def dataclass(self, cls: ast.ClassDef, args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
        """A local ``@dataclass`` instance as a dict of its fields (read as ``config.n_embd``): the
        class's defaults, then the arguments; a field with no default and no argument, or a
        ``default_factory``, is unknown. A class with a ``__post_init__`` is not read."""
        if cls.bases or any(isinstance(n, ast.FunctionDef) and n.name == "__post_init__" for n in cls.body):
            raise _Unknown("a dataclass with bases or a __post_init__")
        fields: list[str] = []
        out: dict[str, Any] = {}
        for stmt in cls.body:
            if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
                continue
            if "ClassVar" in ast.unparse(stmt.annotation):
                continue
            fields.append(stmt.target.id)
            value: Any = _UNK
            default: Optional[ast.AST] = stmt.value
            if isinstance(default, ast.Call) and (dotted_name(default.func) or "").endswith("field"):
                default = next((k.value for k in default.keywords if k.arg == "default"), None)
            if default is not None:
                try:
                    value = cast(Any, type(self))(self.ctx, {}, self.depth).ev(default)
                except _Unknown:
                    value = _UNK
            out[stmt.target.id] = value
        if len(args) > len(fields) or set(kwargs) - set(fields):
            raise _Unknown("dataclass arguments")
        out.update(zip(fields, args))
        out.update(kwargs)
        return out

    def layer(self, name: str, node: ast.Call) -> Any:
        if name in ("Sequential", "ModuleList"):
            args, kwargs = self.bound_args(node)
            parts = list(args[0]) if name == "ModuleList" and len(args) == 1 and isinstance(args[0], (tuple, list)) \
                else args
            if name == "ModuleList" and not args:
                parts = []
            if kwargs or not all(isinstance(p, _Mod) for p in parts):
                raise _Unknown(name)
            if not parts:
                return empty_list()  # filled by ``append`` later (module_params_lists.py)
            return _merge(parts, {})
        if name == "ModuleDict":
            args, kwargs = self.bound_args(node)
            if kwargs or len(args) > 1 or (args and not isinstance(args[0], dict)):
                raise _Unknown(name)
            named: dict[str, Any] = dict(args[0]) if args else {}
            if not all(isinstance(p, _Mod) for p in named.values()):
                raise _Unknown(name)
            return _merge(list(named.values()), named)
        if name == "Module" and not node.args and not node.keywords:
            return _Mod(0, {}, [], {"container": True})  # an empty namespace filled by attribute (``container_of``)
        if name == "Parameter":
            # a frozen one (``requires_grad=False``, DiT's fixed sin-cos position table) is still in parameters()
            if len(node.args) != 1 or any(k.arg != "requires_grad" for k in node.keywords):
                raise _Unknown("Parameter")
            n = self.tensor_size(node.args[0])
            return _Mod(n, {"": n}, [f"Parameter@{node.lineno}={n}"])
        args, kwargs = self.bound_args(node)
        n = _counted_layer(name, args, kwargs)
        weight = n - _bias_of(name, args, kwargs)
        return _Mod(n, {"": weight}, [f"{name}@{node.lineno}={n}"] if n else [], weight_rows(name, args, kwargs))

    def method(self, name: str) -> Optional[ast.FunctionDef]:
        """The method ``name`` of the class whose ``__init__`` runs (or of its local bases)."""
        todo = [str(self.env.get("__cls__", ""))]
        seen: set = set()
        while todo:
            cls = self.ctx.classes.get(todo.pop())
            if cls is None or cls.name in seen:
                continue
            seen.add(cls.name)
            for item in cls.body:
                if isinstance(item, ast.FunctionDef) and item.name == name:
                    return item
            todo.extend(b for b in (dotted_name(x) for x in cls.bases) if b is not None and b in self.ctx.classes)
        return None

    def tensor_size(self, node: ast.AST) -> int:
        """The number of elements of ``torch.zeros(a, b)`` / ``torch.randn((a, b)) * 0.02`` ..."""
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div, ast.Add, ast.Sub)):
            for tensor, other in ((node.left, node.right), (node.right, node.left)):
                if isinstance(tensor, ast.Call) and _number(self.ev(other)):
                    return self.tensor_size(tensor)
            raise _Unknown("tensor")
        if isinstance(node, ast.Name):
            held = self.ev(node)  # a tensor built in a local, its shape known (glow-tts ``modules.py:200-203``)
            if isinstance(held, _Tensor) and held.shape is not None:
                return _prod(held.shape)
            raise _Unknown("tensor")
        if not isinstance(node, ast.Call):
            raise _Unknown("tensor")
        name = dotted_name(node.func) or ""
        if not name.startswith("torch.") or name.rsplit(".", 1)[-1] not in _SIZE_FACTORIES:
            raise _Unknown("tensor")
        if any(kw.arg in ("size",) or kw.arg is None for kw in node.keywords):
            raise _Unknown("tensor")
        dims = self.items(list(node.args))
        if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
            dims = list(dims[0])
        return _prod(tuple(dims)) if dims else 1

    def weight_of(self, node: ast.AST) -> Optional[int]:
        """The weight size of ``self.a`` or ``self.a.b`` (a layer of a ModuleDict)."""
        path = dotted_name(node) or ""
        parts = path.split(".")
        if len(parts) < 2 or parts[0] != "self":
            return None
        mod = self.attrs.get(parts[1])
        if not isinstance(mod, _Mod):
            return None
        return mod.weights.get(".".join(parts[2:]))
