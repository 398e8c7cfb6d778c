"""``num_workers`` given to a data-loader builder of a local module: yl4579/StyleTTS2 @ 5cedc71
``train_finetune_accelerate.py:18,97-104`` ``train_dataloader = build_dataloader(train_list, ...,
num_workers=2, ...)`` with ``meldataset.py:233-253`` ``def build_dataloader(..., num_workers=1, ...)``
returning ``DataLoader(dataset, ..., num_workers=num_workers, ...)``. The builder is read (never imported):
a function of a module the script imports, whose ``DataLoader(...)`` takes ``num_workers=`` straight from
a parameter the function never rebinds. The script's value for that parameter (given by keyword or
position, else the parameter's default) is ``data.num_workers`` (medium, a fallback any other reading
outranks), for the loaders not named for evaluation (``val``/``eval``/``test`` in the name they are bound
to), when those agree. A builder that zips list arguments into one DataLoader per element (BLIP's
``create_loader(..., num_workers=[4], ...)[0]``) gives the training element (:mod:`preflight.adapters.loader_zip`),
whatever the call's result is bound to.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.loader_zip import training_element, zipped_param

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.local_trees import parse_file
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_EVAL_NAME = re.compile(r"val|eval|test|dev(?!ice)", re.I)
_MAX_BYTES = 500_000


def _builder(script_path: Path, qualified: str) -> Optional[tuple[Path, ast.FunctionDef]]:
    from preflight.script_parsers import _module_file

    module, _, name = qualified.rpartition(".")
    if not module:
        return None
    path = _module_file(script_path.parent, module)
    if path is None:
        return None
    try:
        if path.stat().st_size > _MAX_BYTES:
            return None
        tree = parse_file(path)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    return (path, defs[0]) if len(defs) == 1 else None


def _loader_arg(fn: ast.FunctionDef, kw: str) -> Optional[tuple[str, Any]]:
    """What the function's one ``DataLoader(...)`` takes as ``kw``: ("param", name) for a parameter
    never rebound, ("const", value) for a literal, ("absent", None) when the call leaves it out
    (no ``**kwargs`` either: the DataLoader default), else None."""
    loaders = [n for n in ast.walk(fn) if isinstance(n, ast.Call)
               and (dotted_name(n.func) or "").rsplit(".", 1)[-1] == "DataLoader"]
    if len(loaders) != 1:
        return None
    if any(k.arg is None for k in loaders[0].keywords) or any(isinstance(a, ast.Starred) for a in loaders[0].args):
        return None
    given = next((k.value for k in loaders[0].keywords if k.arg == kw), None)
    if given is None:
        return ("absent", None) if kw == "pin_memory" and len(loaders[0].args) < 8 else None
    if isinstance(given, ast.Constant):
        return "const", given.value
    params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)]
    if not isinstance(given, ast.Name) or given.id not in params:
        return None
    rebound = any(isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and any(
        isinstance(t, ast.Name) and t.id == given.id
        for t in (n.targets if isinstance(n, ast.Assign) else [n.target])) for n in ast.walk(fn))
    return None if rebound else ("param", given.id)


def _workers_param(fn: ast.FunctionDef) -> Optional[str]:
    """The parameter the function's one ``DataLoader(...)`` takes as ``num_workers``, never rebound."""
    got = _loader_arg(fn, "num_workers")
    return got[1] if got is not None and got[0] == "param" else None


def _default(fn: ast.FunctionDef, param: str) -> Optional[ast.expr]:
    positional = [*fn.args.posonlyargs, *fn.args.args]
    names = [a.arg for a in positional]
    if param in names:
        first = len(positional) - len(fn.args.defaults)
        index = names.index(param)
        return fn.args.defaults[index - first] if index >= first else None
    k = [a.arg for a in fn.args.kwonlyargs].index(param)
    return fn.args.kw_defaults[k]


@register_adapter
class LoaderHelperAdapter(Adapter):
    name = "loader_helper"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any("loader" in s.source.text.lower() and "num_workers" in s.source.text for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            if script.tree is None or script.source.path is None:
                continue
            idx = project.index(script)
            found: list[tuple[Any, Source]] = []
            pinned: list[tuple[Any, Source, str]] = []
            for site in idx.calls:
                if not isinstance(site.call.func, ast.Name) or idx.runs(site) is False:
                    continue
                qualified = idx.imports.get(site.call.func.id)
                if not qualified or (site.target and _EVAL_NAME.search(site.target)):
                    continue
                got = _builder(Path(str(script.source.path)), qualified)
                if got is None:
                    continue
                path, fn = got
                if site.target is not None:
                    pinned.extend(_pinned(project, script, idx, site, path, fn))
                param = _workers_param(fn)
                if param is not None and site.target is None:
                    continue
                if param is None:  # BLIP's ``create_loader(..., num_workers=[4], ...)[0]`` zips lists (loader_zip.py)
                    param = zipped_param(fn, "num_workers")
                    element = training_element(site.call, fn, "num_workers") if param is not None else None
                    if element is None:
                        continue
                    expr: Optional[ast.expr] = element
                    param = str(param)
                else:
                    names = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
                    expr = next((k.value for k in site.call.keywords if k.arg == param), None)
                    if expr is None and param in names and names.index(param) < len(site.call.args):
                        expr = site.call.args[names.index(param)]
                    if expr is None and any(k.arg is None for k in site.call.keywords):
                        continue  # a **kwargs may carry it
                value = idx.resolve(expr if expr is not None else _default(fn, param))
                if value is None or not isinstance(value.value, int) or isinstance(value.value, bool) \
                        or value.value < 0:
                    continue
                detail = (f"{site.target or 'the training loader'} = {site.label}(..., {param}={value.value}): "
                          f"{path.name}:{fn.lineno} {fn.name} hands {param} to its DataLoader(num_workers=...)")
                found.append((value.value, project.source(script, site.call, "code", detail=detail)))
            if found and len({v for v, _ in found}) == 1:
                self.add_checked(plan, "data.num_workers", found[0][0], found[0][1], "medium", -1)
            if pinned and len({v for v, _, _ in pinned}) == 1:
                self.add_checked(plan, "data.pin_memory", pinned[0][0], pinned[0][1], "medium", -1)


def _pinned(project: Project, script: Any, idx: Any, site: Any, path: Path,
            fn: ast.FunctionDef) -> list[tuple[Any, Source, str]]:
    """``pin_memory`` of the builder's DataLoader for this call: the DataLoader default False when
    the builder leaves it out, its literal, or the call's value for the parameter it hands on."""
    got = _loader_arg(fn, "pin_memory")
    if got is None:
        return []
    how, what = got
    where = f"{path.name}:{fn.lineno} {fn.name}"
    if how == "absent":
        detail = f"{site.target} = {site.label}(...): {where} builds DataLoader(...) without pin_memory (default False)"
        return [(False, project.source(script, site.call, "default", detail=detail), detail)]
    if how == "const":
        if not isinstance(what, bool):
            return []
        detail = f"{site.target} = {site.label}(...): {where} builds DataLoader(pin_memory={what})"
        return [(what, project.source(script, site.call, "code", detail=detail), detail)]
    names = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    expr = next((k.value for k in site.call.keywords if k.arg == what), None)
    if expr is None and what in names and names.index(what) < len(site.call.args):
        expr = site.call.args[names.index(what)]
    if expr is None and any(k.arg is None for k in site.call.keywords):
        return []
    value = idx.resolve(expr if expr is not None else _default(fn, what))
    if value is None or not isinstance(value.value, bool):
        return []
    detail = f"{site.target} = {site.label}(..., {what}={value.value}): {where} hands it to DataLoader(pin_memory=...)"
    return [(value.value, project.source(script, site.call, "code", detail=detail), detail)]
