"""A project class whose constructor loads a YAML/JSON file and makes its top-level keys the object's
attributes, read as that file (a root of :mod:`preflight.adapters.config_object_roots`).

VectorInstitute/vectorlm @ 9045f08 ``vectorlm/utils/data_utils.py:8-44`` and ``examples/llama_example.py:186``::

    class Config:
        def __init__(self, yaml_path: str, to_box: bool = True) -> None:
            self.yaml_path = yaml_path
            self.to_box = to_box
            self.load_yaml()

        def load_yaml(self) -> None:
            with open(self.yaml_path) as in_path:
                _config = yaml.safe_load(in_path)
            for k, v in _config.items():
                self.__setattr__(k, v)
            ...

    config = Config(yaml_path=args.yaml_path)

``config.train_parameters.max_seq_len`` is then the file's key. Read, never run: the constructor (or a
method it calls as ``self.m()``) loads the file its parameter names (directly or through ``self.x = param``)
and sets every loaded key as an attribute (``setattr(self, k, v)`` / ``self.__setattr__(k, v)`` over
``.items()``, ``self.__dict__.update(d)``, ``self.__dict__ = d``). The call's argument for that parameter is
the path (the launch line's option, a literal). Any other class: None.
"""

from __future__ import annotations

import ast
from typing import Any, Optional


def _self_calls(fn: ast.FunctionDef, me: str) -> set[str]:
    return {n.func.attr for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and isinstance(n.func.value, ast.Name) and n.func.value.id == me}


def _aliases(fn: ast.FunctionDef, loaded: str) -> set[str]:
    """``loaded`` and the names bound to a one-argument wrapper of it (melgan ``hp_dotdict = Dotdict(hp_dict)``)."""
    names = {loaded}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, ast.Call) and len(node.value.args) == 1 and not node.value.keywords \
                and isinstance(node.value.args[0], ast.Name) and node.value.args[0].id in names:
            names.add(node.targets[0].id)
    return names


def _sets_keys(fn: ast.FunctionDef, me: str, loaded: str) -> bool:
    """Whether ``fn`` makes every key of the dict ``loaded`` an attribute of ``me``."""
    names = _aliases(fn, loaded)
    for node in ast.walk(fn):
        if isinstance(node, ast.For) and isinstance(node.iter, ast.Call) and isinstance(node.iter.func, ast.Attribute) \
                and node.iter.func.attr == "items" and isinstance(node.iter.func.value, ast.Name) \
                and node.iter.func.value.id in names:
            for call in ast.walk(node):
                if not isinstance(call, ast.Call):
                    continue
                f = call.func
                if (isinstance(f, ast.Name) and f.id == "setattr" and call.args and isinstance(call.args[0], ast.Name)
                        and call.args[0].id == me) or (
                        isinstance(f, ast.Attribute) and f.attr == "__setattr__" and isinstance(f.value, ast.Name)
                        and f.value.id == me):
                    return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "update" \
                and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "__dict__" \
                and isinstance(node.func.value.value, ast.Name) and node.func.value.value.id == me \
                and len(node.args) == 1 and isinstance(node.args[0], ast.Name) and node.args[0].id in names:
            return True
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Attribute) \
                and node.targets[0].attr == "__dict__" and isinstance(node.value, ast.Name) and node.value.id in names:
            return True
    return False


_LOAD_CALLS = ("load", "safe_load", "full_load", "unsafe_load", "load_all", "safe_load_all")


def loads_its_file(fn: ast.FunctionDef) -> bool:
    """A function that opens the file its first parameter names and reads it with ``yaml``/``json`` (melgan
    ``utils/hparams.py:16-23`` ``load_hparam(filename)``: ``stream = open(filename, 'r')``, ``yaml.load_all(stream)``
    merged into the dict it returns)."""
    if not fn.args.args or not any(isinstance(n, ast.Return) and n.value is not None for n in ast.walk(fn)):
        return False
    param = fn.args.args[0].arg
    handles = set()
    for node in ast.walk(fn):
        calls = [i.context_expr for i in node.items] if isinstance(node, ast.With) else \
            [node.value] if isinstance(node, ast.Assign) else []
        names = [i.optional_vars for i in node.items] if isinstance(node, ast.With) else \
            node.targets if isinstance(node, ast.Assign) else []
        for call, name in zip(calls, names):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "open" \
                    and call.args and isinstance(call.args[0], ast.Name) and call.args[0].id == param \
                    and isinstance(name, ast.Name):
                handles.add(name.id)
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _LOAD_CALLS
               and isinstance(n.func.value, ast.Name) and n.func.value.id in ("yaml", "json") and n.args
               and isinstance(n.args[0], ast.Name) and n.args[0].id in handles for n in ast.walk(fn))


def _loaded_path(fn: ast.FunctionDef, me: str, stored: dict[str, str], params: set[str],
                 helper: Any = None) -> Optional[tuple[str, str]]:
    """(the parameter whose file ``fn`` loads, the name the loaded dict is bound to), or None. ``helper(name)``:
    whether the module function ``name`` loads the file of its first argument (:func:`loads_its_file`)."""
    from preflight.adapters.config_object_files import opened, path_expr

    handles: dict[str, ast.AST] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.With):
            handles.update(opened(node))
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            continue
        expr = path_expr(node.value, handles)
        value = node.value
        if expr is None and helper is not None and isinstance(value, ast.Call) and isinstance(value.func, ast.Name) \
                and len(value.args) == 1 and not value.keywords and helper(value.func.id):
            expr = value.args[0]  # ``hp_dict = load_hparam(file)``
        param: Optional[str] = None
        if isinstance(expr, ast.Name) and expr.id in params:
            param = expr.id
        elif isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == me:
            param = stored.get(expr.attr)
        if param is not None:
            return param, node.targets[0].id
    return None


def yaml_class_path(call: ast.AST, builder: Any) -> Optional[ast.AST]:
    """The argument naming the file when ``call`` builds such a class (see the module's docstring), else None."""
    if builder is None or not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name) \
            or not call.func.id[:1].isupper():
        return None
    got = builder.m.klass(call.func.id)
    if got is None:
        return None
    shown, cls = got

    def helper(name: str) -> bool:
        found = builder.m.function_in(name, shown)
        return found is not None and loads_its_file(found[1])

    methods = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}
    init = methods.get("__init__")
    if init is None or len(init.args.args) < 2 or any(n in methods for n in ("__getattr__", "__getattribute__")):
        return None
    me = init.args.args[0].arg
    names = [a.arg for a in init.args.args[1:]]
    stored = {t.attr: s.value.id for s in init.body if isinstance(s, ast.Assign) and isinstance(s.value, ast.Name)
              and s.value.id in names for t in s.targets
              if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == me}
    for fn in [init, *(methods[m] for m in sorted(_self_calls(init, me)) if m in methods)]:
        own = fn.args.args[0].arg if fn.args.args else me
        found = _loaded_path(fn, own, stored, set(names) if fn is init else set(), helper)
        if found is None or not _sets_keys(fn, own, found[1]):
            continue
        param = found[0]
        given = next((k.value for k in call.keywords if k.arg == param), None)
        index = names.index(param)
        if given is None and index < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[:index + 1]):
            given = call.args[index]
        return given
    return None
