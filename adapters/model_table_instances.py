"""A project model picked by name from a module-level table of models already built.

Some projects build every model they offer once, at import, into a dict, and pick one by an option
(huyvnphan/PyTorch_CIFAR10 @ 641cac2 ``module.py:9,13-27,30-38``: ``from cifar10_models.resnet import
resnet18, ...``; ``all_classifiers = {"vgg11_bn": vgg11_bn(), ..., "resnet18": resnet18(), ...}``; in
``class CIFAR10Module(pl.LightningModule)``: ``def __init__(self, hparams): ... self.hparams = hparams``
then ``self.model = all_classifiers[self.hparams.classifier]``; ``train.py:40`` ``model =
CIFAR10Module(args)`` with ``--classifier`` declared ``default="resnet18"``). Read, never imported:

- ``T[opts.NAME]`` in the script (``opts`` its one ``parse_args()`` result), or ``self.X =
  T[self.H.NAME]`` in ``__init__(self, p, ...)`` of a class the script builds as ``Cls(opts)``, with
  ``self.H = p`` or ``self.save_hyperparameters(p)`` (``H`` then ``hparams``) there, and no layer of
  ``torch.nn`` other than a loss built beside it;
- ``T`` bound once at the top of the module to a dict literal, every key a string written once, every
  value a call of a function or class the module imports from a project module, with literal arguments;
- ``NAME`` resolved as the script's parsed options are (launch line, declared default) and in the table;
- the count: ``module_params_calls.count_call`` of the entry's function (``count_module`` of a class) in
  its module with the project modules it imports: ``model.ref`` (the key), ``model.num_parameters``,
  medium. A key not known or not in the table, a table changed in code, an entry not counted: nothing.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter


def _table(tree: ast.Module, name: str) -> Optional[dict[str, ast.Call]]:
    """``NAME = {'k': f(lit, ...), ...}`` bound once at the top of ``tree`` and never written to."""
    bound = [n for n in tree.body if isinstance(n, ast.Assign) and any(
        isinstance(t, ast.Name) and t.id == name for t in n.targets)]
    if len(bound) != 1 or not isinstance(bound[0].value, ast.Dict):
        return None
    out: dict[str, ast.Call] = {}
    for k, v in zip(bound[0].value.keys, bound[0].value.values):
        if not (isinstance(k, ast.Constant) and isinstance(k.value, str) and isinstance(v, ast.Call)
                and isinstance(v.func, ast.Name)) or k.value in out:
            return None
        out[k.value] = v
    from preflight.adapters.model_registry_args import written_elsewhere

    return None if not out or written_elsewhere(tree, name) else out


def _literals(call: ast.Call) -> Optional[tuple[list[Any], dict[str, Any]]]:
    try:
        args = [ast.literal_eval(a) for a in call.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg is not None}
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        return None
    if any(k.arg is None for k in call.keywords):
        return None
    return args, kwargs


def _holder_key(cls: ast.ClassDef) -> Optional[tuple[str, str]]:
    """(table name, option name) of ``self.X = T[self.H.NAME]`` in ``__init__`` with ``self.H`` the first
    parameter; None otherwise (or when the class builds a layer of ``torch.nn`` beside it)."""
    from preflight.adapters.model_registry_exp import _method, _self_attr

    init = _method(cls, "__init__")
    if init is None or len(init.args.args) < 2:
        return None
    first = init.args.args[1].arg
    holders: set[str] = set()
    picks: list[tuple[str, str, str]] = []
    for node in ast.walk(init):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and _self_attr(node.targets[0]) is not None:
            v = node.value
            if isinstance(v, ast.Name) and v.id == first:
                holders.add(str(_self_attr(node.targets[0])))
            elif isinstance(v, ast.Subscript) and isinstance(v.value, ast.Name) \
                    and isinstance(v.slice, ast.Attribute) and _self_attr(v.slice.value) is not None:
                picks.append((v.value.id, v.slice.attr, str(_self_attr(v.slice.value))))
            elif isinstance(v, ast.Call):
                name = ast.unparse(v.func)
                if name.startswith(("nn.", "torch.nn.")) and not name.endswith("Loss"):
                    return None  # a layer of its own beside the picked model: not the model alone
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "save_hyperparameters" and [ast.unparse(a) for a in node.args] == [first]:
            holders.add("hparams")
    found = {(t, opt) for t, opt, h in picks if h in holders}
    return next(iter(found)) if len(found) == 1 and len(picks) == 1 else None


@register_adapter
class ModelTableInstancesAdapter(Adapter):
    name = "model_table_instances"
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
        from preflight.adapters.model_registry_exp import _Classes, _parsed_options
        from preflight.adapters.module_params_imports import _parse

        opts = _parsed_options(script.tree)
        if opts is None:
            return
        path = Path(str(script.source.path))
        sites: set[tuple[str, str, str]] = set()  # (module path, table, option)
        for node in ast.walk(script.tree):
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
                    and isinstance(node.slice, ast.Attribute) and isinstance(node.slice.value, ast.Name) \
                    and node.slice.value.id == opts and isinstance(node.ctx, ast.Load):
                home = self._home(path, script.tree, node.value.id)
                if home is not None:
                    sites.add((str(home), node.value.id, node.slice.attr))
        built = {n.func.id for n in ast.walk(script.tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                 and [ast.unparse(a) for a in n.args[:1]] == [opts]}
        classes = _Classes(path, script.tree)
        for name in built:
            for cpath, _tree, cls in classes.by_name.get(name, []):
                got = _holder_key(cls)
                if got is not None:
                    sites.add((str(cpath), got[0], got[1]))
        if len(sites) != 1:
            return
        mpath, tname, opt = next(iter(sites))
        tree = _parse(Path(mpath))
        entries = _table(tree, tname) if tree is not None else None
        if entries is None:
            return
        idx = project.index(script)
        node = ast.copy_location(ast.Attribute(value=ast.Name(opts, ast.Load()), attr=opt, ctx=ast.Load()),
                                 script.tree.body[0])
        resolved = idx.resolve(node)
        key = resolved.value if resolved is not None else None
        if not isinstance(key, str) or key not in entries or tree is None:
            return
        self._count(project, plan, script, Path(mpath), tree, tname, key, entries[key])

    @staticmethod
    def _home(path: Path, tree: ast.Module, name: str) -> Optional[Path]:
        """The module that binds ``name``: the script itself, or the project module it imports it from."""
        from preflight.adapters.model_registry_args import _table_module

        if _table(tree, name) is not None:
            return path

        class _S:  # the two attributes ``_table_module`` reads
            def __init__(self) -> None:
                self.tree = tree
                self.source = type("_Src", (), {"path": path})()

        got = _table_module(_S(), name)
        return got[0] if got is not None else None

    def _count(self, project: Project, plan: TrainingPlan, script: Any, mpath: Path, tree: ast.Module,
               tname: str, key: str, call: ast.Call) -> None:
        from preflight.adapters.module_params_calls import count_call
        from preflight.adapters.module_params_imports import with_imports
        from preflight.adapters.module_params_nested import _Ctx, count_module

        lit = _literals(call)
        entry = call.func.id  # type: ignore[attr-defined]
        if lit is None:
            return
        if any(isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name == entry for n in tree.body):
            home: Optional[tuple[Path, ast.Module]] = (mpath, tree)
        else:
            home = self._imported(mpath, tree, entry)
        if home is None:
            return
        merged = with_imports(*home)
        counted = count_call(merged, entry, *lit) if entry in _Ctx(merged).functions \
            else count_module(merged, entry, *lit)
        if counted is None:
            return
        total, layers = counted
        detail = (f"{tname}[{key!r}] = {ast.unparse(call)} ({mpath.name}:{call.lineno}), from {home[0].name}: "
                  f"{total:,} parameters of {len(layers)} layers counted from their sizes")
        src = project.source(script, None, "code", detail=detail)
        self.add_checked(plan, "model.ref", key, src, "medium")
        self.add_checked(plan, "model.num_parameters", total, src, "medium")

    @staticmethod
    def _imported(mpath: Path, tree: ast.Module, entry: str) -> Optional[tuple[Path, ast.Module]]:
        """The project module ``tree`` imports ``entry`` from (``from pkg.mod import entry``), parsed."""
        from preflight.adapters.module_params_imports import _parse, imported_files

        nodes = [n for n in tree.body if isinstance(n, ast.ImportFrom)
                 and any(a.name == entry and a.asname is None for a in n.names)]
        if len(nodes) != 1:
            return None
        files = imported_files(mpath, ast.Module(body=[nodes[0]], type_ignores=[]))
        files = [f for f in files if f.name != "__init__.py"] or files
        if len(files) != 1:
            return None
        t = _parse(files[0])
        return (files[0], t) if t is not None else None
