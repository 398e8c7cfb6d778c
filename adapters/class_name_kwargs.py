"""Objects built from a ``class_name`` dict by a project's ``construct_class_by_name``: the NVlabs
``dnnlib`` shape (NVlabs/edm2 @ 4bf8162f ``training/training_loop.py:58-64`` parameters defaulting to
``dict(class_name='torch.utils.data.DataLoader', pin_memory=True, num_workers=2, prefetch_factor=2)``
and ``dict(class_name='torch.optim.Adam', betas=(0.9, 0.99))``, built at ``:128`` and ``:145`` by
``dnnlib.util.construct_class_by_name(..., **optimizer_kwargs)``; also NVlabs/edm, stylegan2-ada).
``dnnlib.util.construct_class_by_name`` imports the dotted ``class_name`` and calls it with the other
keys (``dnnlib/util.py``), so the default dict is the loader's keywords and the optimizer's class.

Read (never imported) in the job's scripts and the local modules they import: a function parameter
whose default is such a dict, handed whole as ``**param`` to a ``...construct_class_by_name`` call in
that function, when no file read ever writes or passes that name elsewhere (a caller's
``data_loader_kwargs=...`` or ``c.data_loader_kwargs = ...`` replaces the default: then nothing is
said). ``torch.utils.data.DataLoader``: ``data.num_workers`` and ``data.pin_memory`` (DataLoader's
own defaults for keys the dict leaves out); ``torch.optim.<X>``: ``optimizer.name``. Medium."""

from __future__ import annotations

import ast
import contextlib
import re
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_BUILDER = "construct_class_by_name"


def _class_dict(node: Optional[ast.AST]) -> Optional[dict[str, Any]]:
    if not isinstance(node, ast.Call) or node.args or (dotted_name(node.func) or "").rsplit(".", 1)[-1] not in (
            "dict", "EasyDict"):
        return None
    out: dict[str, Any] = {}
    for k in node.keywords:
        if k.arg is None:
            return None
        if isinstance(k.value, ast.Constant):
            out[k.arg] = k.value.value
    return out if isinstance(out.get("class_name"), str) else None


def _found(tree: ast.Module) -> list[tuple[str, dict[str, Any], ast.FunctionDef, int]]:
    """(parameter, its default dict, the function, the builder call's line)."""
    out = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef):
            continue
        args = fn.args
        pos = args.posonlyargs + args.args
        defaults: dict[str, ast.AST] = {a.arg: d for a, d in zip(pos[len(pos) - len(args.defaults):], args.defaults)}
        defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
        dicts = {name: got for name, d in defaults.items() if (got := _class_dict(d)) is not None}
        if not dicts:
            continue
        for node in ast.walk(fn):
            if not isinstance(node, ast.Call) or not (dotted_name(node.func) or "").endswith(_BUILDER):
                continue
            for k in node.keywords:
                if k.arg is None and isinstance(k.value, ast.Name) and k.value.id in dicts:
                    out.append((k.value.id, dicts[k.value.id], fn, node.lineno))
    return out


def _replaced(name: str, fn: ast.FunctionDef, texts: list[tuple[Path, str]], home: Path) -> bool:
    """Whether any file read names ``name`` other than as the parameter and its ``**`` use."""
    pattern = re.compile(rf"\b{re.escape(name)}\b")
    for path, text in texts:
        for m in pattern.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            if path == home and fn.lineno <= line <= (fn.end_lineno or fn.lineno):
                after = text[m.end():m.end() + 40]
                before = text[max(0, m.start() - 2):m.start()]
                if before == "**" or (after.lstrip().startswith("=") and line < fn.body[0].lineno):
                    continue  # the parameter's default or its ``**`` handing
                return True
            if path != home:
                return True
    return False


@register_adapter
class ClassNameKwargsAdapter(Adapter):
    name = "class_name_kwargs"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return bool(self._hits(project))

    def _hits(self, project: Project) -> list:
        cache = project.cache.setdefault("class_name_kwargs", {})
        if "hits" in cache:
            return cache["hits"]
        from preflight.adapters.pytorch_local import _imported_local

        from preflight.local_trees import parse_project_file
        from preflight.sources import read_text_limited

        hits: list = []
        files: list[Path] = []
        known: dict[Path, str] = {}   # the scripts' text, already read with the project
        for script in project.scripts:
            if script.source.path is None or script.tree is None:
                continue
            here = Path(str(script.source.path))
            files.append(here)
            text = script.text if script.text is not None else script.source.text
            if text is not None:
                known[here] = text
            files.extend(p for p in _imported_local(script.tree, here.parent)[:40] if p not in files)
        texts: list[tuple[Path, str]] = []
        for path in files:
            if path in known:
                texts.append((path, known[path]))
                continue
            try:
                texts.append((path, read_text_limited(path, errors="replace")))
            except OSError:
                continue
        for path, text in texts:
            if _BUILDER not in text:
                continue
            tree = parse_project_file(path)
            if tree is None:
                continue
            for name, values, fn, line in _found(tree):
                if not _replaced(name, fn, texts, path):
                    hits.append((path, name, values, line))
        cache["hits"] = hits
        return hits

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        root = Path(str(project.root)) if project.root else None
        for path, name, values, line in self._hits(project):
            shown = path.name
            if root is not None:
                with contextlib.suppress(ValueError):
                    shown = path.resolve().relative_to(root.resolve()).as_posix()
            cls = values["class_name"]
            what = f"{name} default dict(class_name={cls!r}) built by {_BUILDER} at line {line}"
            if cls == "torch.utils.data.DataLoader":
                for key, field, default in (("num_workers", "data.num_workers", 0),
                                            ("pin_memory", "data.pin_memory", False)):
                    value = values.get(key, default)
                    detail = f"{what}: {key}={value!r}" + ("" if key in values else " (DataLoader default)")
                    self.add_checked(plan, field, value, Source("code", shown, line, name, detail), "medium")
            elif cls.startswith("torch.optim.") and cls.count(".") == 2:
                self.add_checked(plan, "optimizer.name", cls.rsplit(".", 1)[-1],
                                 Source("code", shown, line, name, what), "medium")
