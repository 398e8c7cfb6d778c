"""A project model picked by name from a table of model modules inside an experiment class.

Time-series forecasting repositories and their many descendants build the model in a method of an
"experiment" class from a table of the project's model modules, each of which defines one ``Model``
class built from the parsed options (thuml/iTransformer @ c2426e6 ``experiments/exp_basic.py:3-21``:
``from model import Transformer, ..., iTransformer`` and ``self.model_dict = {'Transformer': Transformer,
..., 'iTransformer': iTransformer}`` in ``Exp_Basic.__init__(self, args)`` after ``self.args = args``;
``experiments/exp_long_term_forecasting.py:20-21`` ``model = self.model_dict[self.args.model].Model(
self.args).float()``; ``run.py`` ``exp = Exp(args)``; yuqinie98/PatchTST @ 204c21e
``PatchTST_supervised/exp/exp_main.py:26-36`` keeps the table local to ``_build_model``). Read, never
imported:

- a class of a project module the script imports, with a method calling ``T[self.args.NAME].Cls(
  self.args)`` (``.float()`` etc. after it are fine), ``T`` a name the method binds once to a dict literal,
  or ``self.T`` bound so in ``__init__`` of the class or of a base class (same module, or one it imports);
  ``self.args`` bound in that ``__init__`` to its first parameter;
- every key of the table a string written once, the entry a name the table's module imports from a
  package (``from model import iTransformer``: the module file ``model/iTransformer.py``);
- ``NAME`` resolved as the script's parsed options are (launch line, declared default) and in the table;
- the class counted by ``module_params_nested.count_module`` with the options whole (their known values
  by name, as ``model_registry_args`` hands them): ``model.ref`` (the key, as ``--model X`` is),
  ``model.class_name`` and ``model.num_parameters``, medium.

Nothing is stated when the class writes to the options (``self.args.enc_in = train_data.X.shape[2]``: a
size taken from the data, or ``args.x = ...`` in ``__init__``), when the key is not known or not in the
table, when two experiment classes pick different models, or when the class is not counted.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter

_MAX_CLASSES = 40


def _parsed_options(tree: ast.Module) -> Optional[str]:
    """The one name the script binds to ``<parser>.parse_args()`` (anywhere in it); None otherwise."""
    names = {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
             and isinstance(n.value.func, ast.Attribute) and n.value.func.attr == "parse_args"
             for t in n.targets if isinstance(t, ast.Name)}
    return next(iter(names)) if len(names) == 1 else None


def _self_attr(node: ast.AST, attr: Optional[str] = None) -> Optional[str]:
    """``self.X`` (``X`` == attr when given): X; None otherwise."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self" \
            and (attr is None or node.attr == attr):
        return node.attr
    return None


def _dict_of_names(node: ast.AST) -> Optional[dict[str, str]]:
    """``{'k': Name, ...}`` with every key a string written once; None otherwise."""
    if not isinstance(node, ast.Dict):
        return None
    out: dict[str, str] = {}
    for k, v in zip(node.keys, node.values):
        if not (isinstance(k, ast.Constant) and isinstance(k.value, str) and isinstance(v, ast.Name)) \
                or k.value in out:
            return None
        out[k.value] = v.id
    return out or None


def _bound_once(fn: ast.FunctionDef, match: Any) -> list[ast.expr]:
    """Values of the assignments in ``fn`` whose single target ``match`` accepts."""
    return [n.value for n in ast.walk(fn) if isinstance(n, ast.Assign) and len(n.targets) == 1
            and match(n.targets[0])]


def _method(cls: ast.ClassDef, name: str) -> Optional[ast.FunctionDef]:
    return next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == name), None)


def _writes_options(cls: ast.ClassDef) -> bool:
    """The class writes to the options: ``self.args.x = ...`` anywhere, or ``p.x = ...`` / ``setattr(p,
    ...)`` in ``__init__`` on its first parameter ``p``."""
    init = _method(cls, "__init__")
    first = init.args.args[1].arg if init is not None and len(init.args.args) > 1 else None
    for n in ast.walk(cls):
        targets: list[ast.expr] = []
        if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = list(n.targets) if isinstance(n, ast.Assign) else [n.target]
        for t in targets:
            if isinstance(t, ast.Attribute) and (_self_attr(t.value, "args") is not None or (
                    isinstance(t.value, ast.Name) and t.value.id == first)):
                return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "setattr" and n.args \
                and (_self_attr(n.args[0], "args") is not None
                     or (isinstance(n.args[0], ast.Name) and n.args[0].id == first)):
            return True
    return False


class _Classes:
    """The classes of the project modules reachable from the script (two imports deep)."""

    def __init__(self, script_path: Path, tree: ast.Module) -> None:
        from preflight.adapters.module_params_imports import _parse, imported_files

        self.by_name: dict[str, list[tuple[Path, ast.Module, ast.ClassDef]]] = {}
        self.modules: list[tuple[Path, ast.Module]] = []
        seen: set[Path] = {script_path}
        todo = [(p, 1) for p in imported_files(script_path, tree)]
        while todo and len(seen) < _MAX_CLASSES:
            p, depth = todo.pop(0)
            if p in seen:
                continue
            seen.add(p)
            t = _parse(p)
            if t is None:
                continue
            self.modules.append((p, t))
            for n in t.body:
                if isinstance(n, ast.ClassDef):
                    self.by_name.setdefault(n.name, []).append((p, t, n))
            if depth < 2:
                todo.extend((q, depth + 1) for q in imported_files(p, t))

    def bases(self, path: Path, tree: ast.Module, cls: ast.ClassDef) -> list[tuple[Path, ast.Module, ast.ClassDef]]:
        """The class and its project base classes, nearest first (one definition per name)."""
        out = [(path, tree, cls)]
        todo = list(cls.bases)
        while todo and len(out) < 8:
            b = todo.pop(0)
            if not isinstance(b, ast.Name):
                continue
            local = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == b.id]
            found = [(path, tree, local[0])] if len(local) == 1 else self.by_name.get(b.id, [])
            if len(found) != 1:
                continue
            out.append(found[0])
            todo.extend(found[0][2].bases)
        return out


def _module_of(path: Path, tree: ast.Module, name: str) -> Optional[tuple[Path, ast.Module]]:
    """The module file ``tree`` imports as ``name`` (``from pkg import name``), parsed."""
    from preflight.adapters.module_params_imports import _parse, imported_files

    nodes = [n for n in tree.body if isinstance(n, ast.ImportFrom)
             and any(a.name == name and a.asname is None for a in n.names)]
    if len(nodes) != 1:
        return None
    node = ast.ImportFrom(module=nodes[0].module, names=[ast.alias(name=name)], level=nodes[0].level)
    files = [f for f in imported_files(path, ast.Module(body=[node], type_ignores=[])) if f.stem == name]
    if len(files) != 1:
        return None
    t = _parse(files[0])
    return (files[0], t) if t is not None else None


@register_adapter
class ModelRegistryExpAdapter(Adapter):
    name = "model_registry_exp"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(s.tree is not None and s.source.path is not None and "parse_args" in s.source.text
                   for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        if plan.value("model.num_parameters") is not None:
            return
        for script in project.scripts:
            if script.tree is not None and script.source.path is not None:
                self._script(project, plan, script)

    def _script(self, project: Project, plan: TrainingPlan, script: Any) -> None:
        opts = _parsed_options(script.tree)
        if opts is None:
            return
        classes = _Classes(Path(str(script.source.path)), script.tree)
        picks = []
        for path, tree, cls in [c for group in classes.by_name.values() for c in group]:
            for fn in cls.body:
                if not isinstance(fn, ast.FunctionDef):
                    continue
                for call in ast.walk(fn):
                    site = self._site(classes, path, tree, cls, fn, call)
                    if site is not None:
                        picks.append(site)
        if not picks:
            return
        chains = {(str(p[0]), p[1], p[2], p[3]) for p in picks}
        opt_names = {p[4] for p in picks}
        if len(opt_names) != 1:
            return
        if any(p[5] for p in picks):
            return  # a class that writes to the options: sizes from the data
        idx = project.index(script)
        key_node = ast.Attribute(value=ast.Name(opts, ast.Load()), attr=next(iter(opt_names)), ctx=ast.Load())
        got = idx.resolve(ast.copy_location(key_node, script.tree.body[0]) if script.tree.body else key_node)
        key = got.value if got is not None else None
        targets = {(c[0], dict(c[1]).get(key) if isinstance(key, str) else None, c[3]) for c in chains}
        if len(targets) != 1:
            return  # two experiment classes that pick different models
        table_path, entry, attr = next(iter(targets))
        if entry is None or not isinstance(key, str):
            return  # a key not known, or not in the table
        self._count(project, plan, script, idx, opts, key, Path(table_path), entry, attr)

    def _site(self, classes: _Classes, path: Path, tree: ast.Module, cls: ast.ClassDef, fn: ast.FunctionDef,
              call: ast.AST) -> Optional[tuple]:
        """(table module path, table, key option, class attribute, option name, writes) of one
        ``T[self.args.NAME].Cls(self.args)`` call; None for any other call."""
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and isinstance(call.func.value, ast.Subscript) and len(call.args) == 1 and not call.keywords
                and _self_attr(call.args[0], "args") is not None and call.func.attr[:1].isupper()):
            return None
        sub = call.func.value
        key = sub.slice
        if not (isinstance(key, ast.Attribute) and _self_attr(key.value, "args") is not None):
            return None
        chain = classes.bases(path, tree, cls)
        init = next((m for _, _, c in chain for m in [_method(c, "__init__")]
                     if m is not None and _bound_once(m, lambda t: _self_attr(t, "args") is not None)), None)
        if init is None or len(init.args.args) < 2:
            return None
        if [ast.unparse(v) for v in _bound_once(init, lambda t: _self_attr(t, "args") is not None)] \
                != [init.args.args[1].arg]:
            return None
        where: Optional[tuple[Path, ast.Module]] = None
        entries: Optional[dict[str, str]] = None
        if isinstance(sub.value, ast.Name):
            name = sub.value.id
            values = _bound_once(fn, lambda t: isinstance(t, ast.Name) and t.id == name)
            if len(values) == 1:
                entries, where = _dict_of_names(values[0]), (path, tree)
        else:
            attr = _self_attr(sub.value)
            if attr is None:
                return None
            for p, t, c in chain:
                m = _method(c, "__init__")
                values = _bound_once(m, lambda x: _self_attr(x, attr) is not None) if m is not None else []
                if values:
                    if len(values) == 1:
                        entries, where = _dict_of_names(values[0]), (p, t)
                    break
        if entries is None or where is None:
            return None
        return (where[0], tuple(sorted(entries.items())), key.attr, call.func.attr, key.attr,
                any(_writes_options(c) for _, _, c in chain))

    def _count(self, project: Project, plan: TrainingPlan, script: Any, idx: Any, opts: str, key: str,
               table_path: Path, entry: str, cls: str) -> None:
        from preflight.adapters.model_registry_args import _none_options, _options
        from preflight.adapters.module_params_imports import _parse, with_imports
        from preflight.adapters.module_params_nested import count_module

        table_tree = _parse(table_path)
        if table_tree is None:
            return
        home = _module_of(table_path, table_tree, entry)
        if home is None:
            return
        count_tree = with_imports(*home)
        attrs = sorted({n.attr for n in ast.walk(count_tree) if isinstance(n, ast.Attribute)})
        node = ast.copy_location(ast.Name(opts, ast.Load()), script.tree.body[0])
        options = _options(idx, node, attrs, _none_options(project, script))
        counted = count_module(count_tree, cls, [options], {})
        if counted is None:
            return
        total, layers = counted
        detail = (f"{table_path.name}: {key!r} picks {entry}.{cls} ({home[0].name}), handed the parsed options: "
                  f"{total:,} parameters of {len(layers)} layers counted from their sizes")
        src = project.source(script, None, "code", detail=detail)
        self.add_checked(plan, "model.ref", key, src, "medium")  # the table's name, as ``--model X`` is
        self.add_checked(plan, "model.class_name", cls, src, "medium")
        self.add_checked(plan, "model.num_parameters", total, src, "medium")
