"""Keyword dicts an entry script builds for a project function that unpacks them into the optimizer's
``construct_class_by_name`` or a ``DataLoader``: the NVlabs ``dnnlib`` shape, caller side.

NVlabs/edm @ 008a4e53 ``train.py:96-101``: ``c = dnnlib.EasyDict()``, ``c.data_loader_kwargs =
dnnlib.EasyDict(pin_memory=True, num_workers=opts.workers, prefetch_factor=2)``, ``c.optimizer_kwargs =
dnnlib.EasyDict(class_name='torch.optim.Adam', lr=opts.lr, betas=[0.9,0.999], eps=1e-8)``, then
``training_loop.training_loop(**c)`` (``:229``), whose parameters ``data_loader_kwargs`` and
``optimizer_kwargs`` (``training/training_loop.py:25-38``, defaulting to ``{}``) are unpacked into
``torch.utils.data.DataLoader(..., **data_loader_kwargs)`` (``:70``) and
``dnnlib.util.construct_class_by_name(params=net.parameters(), **optimizer_kwargs)`` (``:87``), which imports
the dotted ``class_name`` and calls it with the other keys. (The callee's own defaults are
:mod:`.class_name_kwargs`.)

Read (never imported): a function of the script or a local module it imports with a parameter ``P`` handed
whole as ``**P`` to ``...construct_class_by_name`` or a ``DataLoader``; the script's one assignment
``X.P = dict(...)``/``EasyDict(...)`` (keywords only), with ``X`` handed as ``**X`` to a call of the script
and ``X.P`` written nowhere else. ``class_name='torch.optim.<Name>'``: ``optimizer.name``; a DataLoader's
``pin_memory``/``num_workers`` given in the dict (a value the script resolves), unless the loader call
passes that keyword itself. Medium.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter

_BUILDER = "construct_class_by_name"
_CACHE = "class_name_callers.found"


def _unpacked_params(tree: ast.AST) -> dict[str, tuple[str, ast.Call]]:
    """parameter -> ("builder" | "loader", the call it is unpacked into)."""
    out: dict[str, tuple[str, ast.Call]] = {}
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
        for node in ast.walk(fn):
            if not isinstance(node, ast.Call):
                continue
            name = dotted_name(node.func) or ""
            kind = "builder" if name.endswith(_BUILDER) else "loader" if name.rsplit(".", 1)[-1] == "DataLoader" \
                else None
            if kind is None:
                continue
            for k in node.keywords:
                if k.arg is None and isinstance(k.value, ast.Name) and k.value.id in params:
                    out.setdefault(k.value.id, (kind, node))
                elif k.arg is None and isinstance(k.value, ast.Name):
                    for given in _looped_params(fn, k.value.id, params):
                        out.setdefault(given, (kind, node))
    return out


def _looped_params(fn: ast.AST, name: str, params: set[str]) -> list[str]:
    """The parameters a loop binds ``name`` to, one per pass: ``for name, module, opt_kwargs in [('D', D,
    D_opt_kwargs), ('G', G, G_opt_kwargs)]`` (autonomousvision/stylegan-t @ 36ab80c
    ``training/training_loop.py:329-330``; NVlabs/stylegan2-ada-pytorch and NVlabs/stylegan3
    ``training/training_loop.py`` the same with a ``reg_interval`` fourth): ``opt_kwargs`` is each tuple's
    element at its place, all parameters of the function; else none."""
    for loop in ast.walk(fn):
        if not (isinstance(loop, ast.For) and isinstance(loop.target, ast.Tuple)
                and isinstance(loop.iter, (ast.List, ast.Tuple))):
            continue
        names = [t.id if isinstance(t, ast.Name) else None for t in loop.target.elts]
        if name not in names:
            continue
        at = names.index(name)
        got = [row.elts[at] for row in loop.iter.elts
               if isinstance(row, ast.Tuple) and len(row.elts) == len(names)]
        if len(got) == len(loop.iter.elts) and all(isinstance(g, ast.Name) and g.id in params for g in got):
            return [g.id for g in got if isinstance(g, ast.Name)]
    return []


def _script_dicts(tree: ast.AST, keys: Optional[dict[str, set[Optional[str]]]] = None) -> dict[str, tuple[str, ast.Call]]:
    """attribute P -> (owner X, the dict call) for ``X.P = dict(...)`` written once, with ``**X`` handed on.
    A key of it set afterwards (``c.G_opt_kwargs.lr = 3e-6``, stylegan-t ``train.py:111-114``; NVlabs/stylegan3
    ``train.py`` ``c.G_opt_kwargs.lr = ...``) is collected in ``keys`` (None for ``X.P.update(...)``, any key)."""
    writes: dict[str, list[tuple[str, Optional[ast.Call]]]] = {}
    later: dict[str, set[Optional[str]]] = keys if keys is not None else {}
    spread: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            spread.update(k.value.id for k in node.keywords if k.arg is None and isinstance(k.value, ast.Name))
            f = node.func
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Attribute):
                later.setdefault(f.value.attr, set()).add(None)  # X.P.update(...), X.P.pop(...)
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
            if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        for t in targets:
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name):
                value = node.value if isinstance(node, ast.Assign) else None
                call = value if isinstance(value, ast.Call) and not value.args and all(
                    k.arg is not None for k in value.keywords) and (dotted_name(value.func) or "").rsplit(
                    ".", 1)[-1] in ("dict", "EasyDict") else None
                writes.setdefault(t.attr, []).append((t.value.id, call))
            elif isinstance(t, ast.Attribute) and isinstance(t.value, ast.Attribute):
                later.setdefault(t.value.attr, set()).add(t.attr)  # X.P.key = ...
            elif isinstance(t, ast.Subscript) and isinstance(t.value, ast.Attribute):
                key = t.slice.value if isinstance(t.slice, ast.Constant) and isinstance(t.slice.value, str) else None
                later.setdefault(t.value.attr, set()).add(key)  # X.P["key"] = ...
    out: dict[str, tuple[str, ast.Call]] = {}
    for attr, found in writes.items():
        if len(found) == 1 and found[0][1] is not None and found[0][0] in spread:
            out[attr] = (found[0][0], found[0][1])
    return out


def _find(project: Project) -> list[tuple[Any, str, str, ast.Call, ast.Call, str, set[Optional[str]]]]:
    from preflight.adapters.pytorch_local import _imported_local

    from preflight.local_trees import parse_project_file

    hits = []
    for script in project.scripts:
        if script.tree is None or script.source.path is None or "dict(" not in script.source.text.replace("Dict(", "dict("):
            continue  # the keyword dict is a dict(...)/EasyDict(...) call
        rewritten: dict[str, set[Optional[str]]] = {}
        dicts = _script_dicts(script.tree, rewritten)
        if not dicts:
            continue
        here = Path(str(script.source.path))
        trees = [(script.source.display, script.tree)]
        for path in _imported_local(script.tree, here.parent)[:40]:
            tree = parse_project_file(path)
            if tree is not None:
                trees.append((path.name, tree))
        for shown, tree in trees:
            for param, (kind, call) in _unpacked_params(tree).items():
                if param in dicts:
                    hits.append((script, param, kind, dicts[param][1], call, str(shown), rewritten.get(param, set())))
    return hits


@register_adapter
class ClassNameCallersAdapter(Adapter):
    name = "class_name_callers"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        found = _find(project)
        project.cache[_CACHE] = found
        return bool(found)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        found = project.cache.pop(_CACHE, [])
        classes: dict[int, set[Any]] = {}  # the builder call -> the classes its loop hands it
        for _, _, _, given, call, _, later in found:
            cls = next((k.value for k in given.keywords if k.arg == "class_name"), None)
            classes.setdefault(id(call), set()).add(
                cls.value if isinstance(cls, ast.Constant) and "class_name" not in later and None not in later else None)
        for script, param, kind, given, call, shown, later in found:
            if None in later:
                continue  # ``X.P.update(...)``: any key may change
            values = {k.arg: k.value for k in given.keywords if k.arg is not None and k.arg not in later}
            where = f"{param} = {dotted_name(given.func)}(...) handed to {shown}:{call.lineno}"
            if kind == "builder":
                cls = values.get("class_name")
                if isinstance(cls, ast.Constant) and isinstance(cls.value, str) and len(classes[id(call)]) == 1 \
                        and cls.value.startswith("torch.optim.") and cls.value.count(".") == 2:
                    detail = f"{where} {_BUILDER}(**{param}): class_name={cls.value!r}"
                    self.add_checked(plan, "optimizer.name", cls.value.rsplit(".", 1)[-1],
                                     project.source(script, given, "code", key=param, detail=detail), "medium")
                continue
            own = {k.arg for k in call.keywords if k.arg is not None}
            idx = project.index(script)
            for key, field in (("num_workers", "data.num_workers"), ("pin_memory", "data.pin_memory")):
                if key not in values or key in own:
                    continue
                resolved = idx.resolve(values[key])
                if resolved is None:
                    continue
                ok = isinstance(resolved.value, bool) if key == "pin_memory" else (
                    isinstance(resolved.value, int) and not isinstance(resolved.value, bool) and resolved.value >= 0)
                if not ok:
                    continue
                detail = f"{where} DataLoader(**{param}): {key}={resolved.value!r}"
                self.add_checked(plan, field, resolved.value,
                                 project.source(script, given, "code", key=param, detail=detail), "medium")
