"""A project config class with its own loader classmethod: ``Cls.from_json_path(path)`` that reads the file
and returns ``cls(**data)``; nested config classes of its fields get their own defaults under the file's keys.

lucidrains/DALLE2-pytorch @ 680dfc4 ``dalle2_pytorch/train_configs.py:338-350``::

    class TrainDecoderConfig(BaseModel):
        decoder: DecoderConfig
        data: DecoderDataConfig          # class DecoderDataConfig(BaseModel): num_workers: int = 4 ...
        train: DecoderTrainConfig
        ...
        @classmethod
        def from_json_path(cls, json_path):
            with open(json_path) as f:
                config = json.load(f)
            return cls(**config)

with ``train_decoder.py:643-647`` ``@click.option("--config_file", ...)`` and ``config =
TrainDecoderConfig.from_json_path(str(Path(config_file)))`` (the same classmethod on
``TrainDiffusionPriorConfig``, :214-225). The classmethod is recognised by its body, not its name: one
parameter after ``cls``, the file loaded by ``json``/``yaml`` (:func:`preflight.adapters.config_object_files.path_expr`)
into a name, and every return ``cls(**name)``, ``cls.parse_obj(name)``, ``cls.model_validate(name)`` or
``cls(**LOAD(...))``. A method that changes what it loaded, or returns anything else, is not one (its
keys are not known). Pydantic (and dataclass) semantics for the merge: a field annotated with a project
class (``data: DecoderDataConfig``, ``Optional[...]`` too) is that class's defaults with the file's
sub-dict over them; any other value is the file's. Nothing is imported or executed.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters.config_object import Tree

_BUILDS = ("parse_obj", "model_validate", "construct", "model_construct", "from_dict")


def loader_classmethod(klass: ast.ClassDef, name: str, modules: Any, depth: int = 0) -> Optional[ast.FunctionDef]:
    """The classmethod ``name`` of ``klass`` (or of a project base class of it) that loads its one
    parameter's file and returns the class built from it, else None."""
    if depth > 3:
        return None
    for stmt in klass.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name == name:
            return stmt if _loads_and_builds(stmt) else None
    for base in klass.bases:
        got = modules.klass(base.id) if isinstance(base, ast.Name) else None
        if got is not None and got[1] is not klass:
            return loader_classmethod(got[1], name, modules, depth + 1)
    return None


def _loads_and_builds(fn: ast.FunctionDef) -> bool:
    from preflight.adapters.config_object_files import opened, path_expr

    if not any(isinstance(d, ast.Name) and d.id == "classmethod" for d in fn.decorator_list):
        return False
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    if len(params) != 2 or fn.args.vararg or fn.args.kwarg or fn.args.kwonlyargs:
        return False
    cls, path = params
    handles: dict[str, ast.AST] = {}
    loaded: dict[str, int] = {}
    bound: dict[str, int] = {}
    returns: list[Optional[ast.AST]] = []
    for node in ast.walk(fn):
        if isinstance(node, ast.With):
            handles.update(opened(node))
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if not isinstance(t, ast.Name):
                    return False  # writes into what it loaded
                bound[t.id] = bound.get(t.id, 0) + 1
                expr = path_expr(node.value, handles)
                if isinstance(expr, ast.Name) and expr.id == path:
                    loaded[t.id] = loaded.get(t.id, 0) + 1
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) or (
                isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("update", "setdefault", "pop", "merge", "__setitem__")):
            return False
        elif isinstance(node, ast.Return):
            returns.append(node.value)
        elif isinstance(node, (ast.FunctionDef, ast.Lambda, ast.ClassDef)) and node is not fn:
            return False
    if path in bound or cls in bound or not returns:
        return False
    data = {n for n, k in loaded.items() if k == 1 and bound.get(n) == 1}

    def data_of(node: ast.AST) -> bool:
        if isinstance(node, ast.Name):
            return node.id in data
        expr = path_expr(node, handles)
        return isinstance(expr, ast.Name) and expr.id == path

    for value in returns:
        if not isinstance(value, ast.Call) or len(value.args) + len(value.keywords) != 1:
            return False
        f = value.func
        if isinstance(f, ast.Name) and f.id == cls and value.keywords and value.keywords[0].arg is None:
            ok = data_of(value.keywords[0].value)
        elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == cls \
                and f.attr in _BUILDS and value.args:
            ok = data_of(value.args[0])
        else:
            ok = False
        if not ok:
            return False
    return True


def _field_class(klass: ast.ClassDef, key: str, modules: Any, depth: int = 0) -> Optional[tuple[str, ast.ClassDef]]:
    """The project config class a field of ``klass`` is annotated with (``data: DataConfig``,
    ``Optional[DataConfig]``), through project base classes; None for any other annotation."""
    if depth > 3:
        return None
    for stmt in klass.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == key:
            ann: ast.AST = stmt.annotation
            if isinstance(ann, ast.Subscript) and isinstance(ann.value, ast.Name) and ann.value.id == "Optional":
                ann = ann.slice
            if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
                name = ann.value
            elif isinstance(ann, ast.Name):
                name = ann.id
            else:
                return None
            return modules.klass(name) if name.isidentifier() else None
    for base in klass.bases:
        got = modules.klass(base.id) if isinstance(base, ast.Name) else None
        if got is not None and got[1] is not klass:
            return _field_class(got[1], key, modules, depth + 1)
    return None


def typed_merge(base: Tree, over: Tree, klass: ast.ClassDef, builder: Any, depth: int = 0) -> None:
    """``over`` (the file's tree) into ``base`` (the class's defaults): a sub-dict given for a field
    annotated with a project class goes over that class's own defaults."""
    for key, value in over.items():
        sub = _field_class(klass, key, builder.m) if isinstance(value, dict) and depth < 4 else None
        if sub is not None:
            inner = builder.class_tree(sub[0], sub[1])
            if isinstance(base.get(key), dict):
                inner.update(base[key])
            typed_merge(inner, value, sub[1], builder, depth + 1)
            base[key] = inner
        elif isinstance(value, dict) and isinstance(base.get(key), dict):
            from preflight.adapters.config_object_files import _merge

            _merge(base[key], value)
        else:
            base[key] = value
