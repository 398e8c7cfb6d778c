"""A project class whose constructor loads one named section of a YAML file and makes its keys the
object's attributes, read as that section (a root of :mod:`preflight.adapters.config_object_roots`,
beside :mod:`preflight.adapters.config_object_yaml_class`, which reads a whole file).

NVlabs/FourCastNet @ the benchmark's commit, ``utils/YParams.py:5-21`` and ``train.py:543``::

    class YParams():
      def __init__(self, yaml_filename, config_name, print_params=False):
        ...
        with open(yaml_filename) as _file:
          for key, val in YAML().load(_file)[config_name].items():
            ...
            self.params[key] = val
            self.__setattr__(key, val)

    params = YParams(os.path.abspath(args.yaml_config), args.config)

launched ``--yaml_config=./config/AFNO.yaml --config=afno_backbone``: ``params.batch_size`` is the key of the
file's ``afno_backbone`` section (its ``<<:`` merge keys applied by the loader). Read, never run: the
constructor opens the file its parameter names (``with open(p) as f``), iterates ``.items()`` of the loaded
document subscripted by another of its parameters, and sets each key as an attribute of ``self``
(``self.__setattr__(k, v)``, ``setattr(self, k, v)``). The loader is ``yaml.load``/``safe_load``/... or
ruamel's ``YAML().load`` / ``YAML(typ=...).load``. The section's name must resolve (a literal, an option of
the launch line or its default); a section that is not a mapping leaves the object unknown."""

from __future__ import annotations

import ast
from typing import Any, Optional

_YAML_LOADS = ("load", "safe_load", "full_load", "unsafe_load")


def _loads_handle(node: ast.AST, handles: set[str]) -> bool:
    """``yaml.safe_load(f)`` / ``YAML().load(f)`` with ``f`` one of ``handles``."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _YAML_LOADS
            and len(node.args) == 1 and isinstance(node.args[0], ast.Name) and node.args[0].id in handles):
        return False
    owner = node.func.value
    if isinstance(owner, ast.Name):
        return owner.id == "yaml"
    return isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "YAML" \
        and not owner.args and node.func.attr == "load"


def _sets_self(loop: ast.For, me: str) -> bool:
    """The loop's body makes its key an attribute of ``me`` (``me.__setattr__(k, v)``/``setattr(me, k, v)``)."""
    if not (isinstance(loop.target, ast.Tuple) and len(loop.target.elts) == 2
            and isinstance(loop.target.elts[0], ast.Name)):
        return False
    key = loop.target.elts[0].id
    for call in ast.walk(loop):
        if not isinstance(call, ast.Call):
            continue
        f = call.func
        args = call.args
        if isinstance(f, ast.Name) and f.id == "setattr" and len(args) == 3 and isinstance(args[0], ast.Name) \
                and args[0].id == me and isinstance(args[1], ast.Name) and args[1].id == key:
            return True
        if isinstance(f, ast.Attribute) and f.attr == "__setattr__" and isinstance(f.value, ast.Name) \
                and f.value.id == me and len(args) == 2 and isinstance(args[0], ast.Name) and args[0].id == key:
            return True
    return False


def section_params(init: ast.FunctionDef) -> Optional[tuple[str, str]]:
    """(the parameter naming the file, the parameter naming the section) of such a constructor, else None."""
    if not init.args.args:
        return None
    me = init.args.args[0].arg
    params = {a.arg for a in init.args.args[1:]}
    found: Optional[tuple[str, str]] = None
    for with_ in ast.walk(init):
        if not isinstance(with_, ast.With):
            continue
        handles: dict[str, str] = {}
        for item in with_.items:
            call = item.context_expr
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "open" \
                    and call.args and isinstance(call.args[0], ast.Name) and call.args[0].id in params \
                    and isinstance(item.optional_vars, ast.Name):
                handles[item.optional_vars.id] = call.args[0].id
        for loop in ast.walk(with_):
            if not (isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call)
                    and isinstance(loop.iter.func, ast.Attribute) and loop.iter.func.attr == "items"
                    and not loop.iter.args):
                continue
            sub = loop.iter.func.value
            if not (isinstance(sub, ast.Subscript) and isinstance(sub.slice, ast.Name) and sub.slice.id in params
                    and _loads_handle(sub.value, set(handles))):
                continue
            if not _sets_self(loop, me):
                continue
            handle = sub.value.args[0]  # type: ignore[attr-defined]
            got = (handles[handle.id], sub.slice.id)
            if found is not None and found != got:
                return None
            found = got
    return found


def yaml_section_call(call: ast.AST, builder: Any) -> Optional[tuple[ast.AST, ast.AST]]:
    """(the argument naming the file, the argument naming the section) when ``call`` builds such a class."""
    if builder is None or not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name) \
            or not call.func.id[:1].isupper() or any(k.arg is None for k in call.keywords) \
            or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    got = builder.m.klass(call.func.id)
    if got is None:
        return None
    cls = got[1]
    methods = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}
    init = methods.get("__init__")
    if init is None or any(n in methods for n in ("__getattr__", "__getattribute__")):
        return None
    found = section_params(init)
    if found is None:
        return None
    names = [a.arg for a in init.args.args[1:]]
    out = []
    for param in found:
        given = next((k.value for k in call.keywords if k.arg == param), None)
        index = names.index(param)
        if given is None and index < len(call.args):
            given = call.args[index]
        if given is None:
            return None
        out.append(given)
    return out[0], out[1]
