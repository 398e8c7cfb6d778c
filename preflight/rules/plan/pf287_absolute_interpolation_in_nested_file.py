"""PF287 absolute-interpolation-in-nested-file: a YAML file whose ``${key}`` interpolations name its own
top-level keys, loaded with ``OmegaConf.load`` and then nested under a key of another config."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._job_files import job_files

# ``${a}`` / ``${a.b}``: absolute (no leading dot), no resolver (``${oc.env:X}``)
_ABSOLUTE = re.compile(r"\$\{\s*([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_]+)*)\s*\}")


def _is_call(node: ast.AST, *names: str) -> bool:
    """``OmegaConf.<name>(...)`` for one of ``names``."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in names \
        and ast.unparse(node.func.value).split(".")[-1] == "OmegaConf"


def _loads(tree: ast.AST) -> dict[str, tuple[str, ast.AST]]:
    """Name -> (literal path, assignment) of ``name = OmegaConf.load("file.yaml")``."""
    out: dict[str, tuple[str, ast.AST]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and _is_call(node.value, "load") and isinstance(node.value, ast.Call) and node.value.args \
                and isinstance(node.value.args[0], ast.Constant) and isinstance(node.value.args[0].value, str):
            out[node.targets[0].id] = (node.value.args[0].value, node)
    return out


def _nestings(tree: ast.AST, names: set[str]) -> Iterator[tuple[str, str, set[str], ast.AST]]:
    """(loaded name, key it is nested under, the other keys set beside it, where): ``cfg.update(key=name)``,
    ``OmegaConf.create({"key": name})``, ``dict(key=name)``, ``cfg.key = name``, ``cfg["key"] = name``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            pairs: list[tuple[str, ast.AST]] = []
            func = node.func
            if (isinstance(func, ast.Attribute) and func.attr == "update") or \
                    (isinstance(func, ast.Name) and func.id == "dict"):
                pairs = [(k.arg, k.value) for k in node.keywords if k.arg]
            if _is_call(node, "create", "merge"):
                for arg in node.args:
                    if isinstance(arg, ast.Dict):
                        pairs.extend((k.value, v) for k, v in zip(arg.keys, arg.values)
                                     if isinstance(k, ast.Constant) and isinstance(k.value, str))
            keys = {k for k, _ in pairs}
            for key, value in pairs:
                if isinstance(value, ast.Name) and value.id in names:
                    yield value.id, key, keys - {key}, node
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Name) \
                and node.value.id in names:
            target = node.targets[0]
            if isinstance(target, ast.Attribute):
                yield node.value.id, target.attr, set(), node
            elif isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant) \
                    and isinstance(target.slice.value, str):
                yield node.value.id, target.slice.value, set(), node


def _resolved(tree: ast.AST, name: str) -> bool:
    """``OmegaConf.resolve(name)`` / ``OmegaConf.to_container(name, resolve=True)``: resolved while it is a root."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name) \
                and node.args[0].id == name and isinstance(node.func, ast.Attribute) \
                and (node.func.attr == "resolve" or (node.func.attr in ("to_container", "to_object")
                                                    and any(k.arg == "resolve" for k in node.keywords))):
            return True
    return False


def _interpolations(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str, str]]:
    """(key path, value, first key it names) of every absolute interpolation."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _interpolations(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _interpolations(value, (*path, i))
    elif isinstance(data, str) and "${" in data:
        for match in _ABSOLUTE.finditer(data):
            yield path, data, match.group(1)


def _load_file(pctx: PlanContext, script: str, literal: str) -> Optional[Any]:
    from preflight.loaders import LoadedConfig, load_config_text
    from preflight.sources import read_text_limited
    from preflight.workspace import display_path

    root = pctx.project.root
    for base in (os.path.dirname(os.path.join(str(root), script)), str(root)):
        path = Path(os.path.normpath(os.path.join(base, literal)))
        if not path.is_file() or not pctx.project.may_read(path):
            continue
        try:
            text = read_text_limited(path, errors="replace")
        except OSError:
            return None
        loaded = load_config_text(text, "yaml", display_path(path, root))
        return loaded if isinstance(loaded, LoadedConfig) else None
    return None


@register
class AbsoluteInterpolationInNestedFile(PlanRule):
    code = "PF287"
    name = "absolute-interpolation-in-nested-file"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A YAML file interpolates its own top-level keys (`${name}`) but the script nests the file under "
               "another key: OmegaConf resolves `${name}` from the new root, where the key is missing")
    explanation = """
## What it finds

A script loads a YAML file with `OmegaConf.load("dataset/wmt14.yaml")` and then nests it
under a key of another config (`configs.update(dataset=dataset_cfg)`,
`OmegaConf.create({"dataset": dataset_cfg, ...})`, `cfg.dataset = dataset_cfg`), while
the file's values interpolate the file's own top-level keys with absolute paths
(`source: data/${name}.train` beside `name: wmt14`).

## Why it matters

OmegaConf resolves `${name}` from the root of the config the value lives in. Once the
file is nested, its keys live at `dataset.name`; the root holds only `dataset`,
`model`, ...: reading the value raises `InterpolationKeyError` (or picks up a
different root key of that name), at the moment the code first reads it, often after
the model is built (omegaconf issue 369: "Variable interpolation breaks after key
updates").

## How to fix it

Write relative interpolations in the file (`${..name}` from a value one level down,
`${.name}` beside it), or reference the full path (`${dataset.name}`), or resolve the
file before nesting it (`OmegaConf.resolve(dataset_cfg)`).

## When preflight stays silent

* The interpolations are relative (`${..name}`), use a resolver (`${oc.env:X}`), or name
  a key that the combined config holds at its root (a sibling the same call sets:
  `${model.d_model}` beside `model=`).
* The script resolves the loaded file first, or the file name is not a literal.
"""
    bad_examples = examples("preflight.rules.plan._pf287_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf287_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        done: set[str] = set()
        for display, tree in job_files(pctx):
            loads = _loads(tree)
            if not loads:
                continue
            for name, key, siblings, where in _nestings(tree, set(loads)):
                literal, _ = loads[name]
                if _resolved(tree, name):
                    continue
                cfg = _load_file(pctx, display, literal)
                if cfg is None or cfg.path in done or not isinstance(cfg.data, dict):
                    continue
                own = {str(k) for k in cfg.data}
                hits = [(path, value, first) for path, value, first in _interpolations(cfg.data)
                        if first in own and first not in siblings and first != key]
                if not hits:
                    continue
                done.add(cfg.path)
                path, value, first = hits[0]
                line = cfg.line_of(path, nearest=True) or 1
                more = f" ({len(hits)} values in the file do this)" if len(hits) > 1 else ""
                yield pctx.location_finding(
                    self, cfg.path, line,
                    f"`{value}` interpolates `${{{first}}}` from the root of its config{more}, but "
                    f"{display}:{getattr(where, 'lineno', 1)} nests this file under `{key}`: `{first}` then lives at "
                    f"`{key}.{first}` and the root has no `{first}`, so reading the value fails "
                    f"(InterpolationKeyError). Write a relative interpolation (`${{..{first}}}`) or the full path "
                    f"(`${{{key}.{first}}}`)",
                    evidence=[Evidence(line=getattr(where, "lineno", 1), message=f"the loaded file is nested under `{key}` here",
                                       path=display)])
