"""PF577 listconfig-into-pydantic-v1: a composed Hydra/OmegaConf node unpacked into a pydantic v1 model
whose list fields then receive OmegaConf ``ListConfig`` objects."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Iterator, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._omegaconf_chains import (
    attribute_chain,
    base_name,
    config_at,
    config_names,
)

_SEQUENCES = frozenset({"List", "list", "Tuple", "tuple", "Set", "set", "FrozenSet", "frozenset", "Deque", "deque"})
_BASES = frozenset({"BaseModel", "BaseSettings"})


def _sequence_annotation(node: Optional[ast.AST]) -> bool:
    """``List[float]``, ``list[int]``, ``Tuple[int, ...]``, ``Optional[List[str]]``, ``typing.List``."""
    if node is None:
        return False
    if isinstance(node, ast.Subscript):
        head = base_name(node.value)
        if head in _SEQUENCES:
            return True
        if head in ("Optional", "Union"):
            inner = node.slice
            items = inner.elts if isinstance(inner, ast.Tuple) else [inner]
            return any(_sequence_annotation(i) for i in items)
        return False
    return base_name(node) in _SEQUENCES


def _pydantic_models(tree: ast.AST) -> dict[str, set[str]]:
    """Classes deriving from pydantic's BaseModel/BaseSettings in the file: name -> list-typed fields."""
    out: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(base_name(b) in _BASES or base_name(b) in out
                                                  for b in node.bases):
            fields = {stmt.target.id for stmt in node.body
                      if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
                      and _sequence_annotation(stmt.annotation)}
            for base in node.bases:
                fields |= out.get(base_name(base), set())
            out[node.name] = fields
    return out


def _calls(tree: ast.AST, models: dict[str, set[str]]) -> Iterator[tuple[ast.Call, str, tuple[str, ...], set[str]]]:
    """(call, model, config path, list fields fed from it) for ``Model(**cfg.node)``."""
    seen: set[int] = set()
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
            continue
        roots = config_names(fn)
        if not roots:
            continue
        aliases: dict[str, tuple[str, ...]] = {}
        for node in ast.walk(fn):  # node = cfg.augment
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                path = attribute_chain(node.value, roots)
                if path is not None:
                    aliases[node.targets[0].id] = path
        for node in ast.walk(fn):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in models):
                continue
            for kw in node.keywords:
                if kw.arg is None:
                    value = kw.value
                    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict" \
                            and len(value.args) == 1 and not value.keywords:
                        value = value.args[0]  # dict(cfg.node): the top level only
                    if isinstance(value, ast.Name) and value.id in aliases:
                        path = aliases[value.id]
                    else:
                        path = attribute_chain(value, roots)
                    if path is not None and models[node.func.id] and id(node) not in seen:
                        seen.add(id(node))
                        yield node, node.func.id, path, models[node.func.id]


@register
class ListConfigIntoPydanticV1(PlanRule):
    code = "PF577"
    name = "listconfig-into-pydantic-v1"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A composed config node is unpacked into a pydantic v1 model with list fields: they receive "
               "OmegaConf ListConfig objects, which pydantic v1 rejects")
    explanation = """
## What it finds

`Model(**cfg.node)` in a Hydra/OmegaConf script (the `@hydra.main` function's
config, `compose(...)`, `OmegaConf.load(...)`), where `Model` is a pydantic
`BaseModel`/`BaseSettings` class of the file with a `List[...]`/`Tuple[...]`/`Set[...]`
field that the node fills with a list, in a project that pins pydantic below 2.

## Why it matters

Attribute access on an OmegaConf config returns `DictConfig`/`ListConfig` nodes,
not Python containers. Pydantic v1's list validator accepts only `list`, `tuple`,
`set`, `frozenset`, `deque` and generators (pydantic 1.x docs, "Field Types"), and
`ListConfig` is none of them: the model raises `ValidationError: value is not a
valid list (type=type_error.list)` before training starts (hydra issue 1184; the
answer there: convert with `OmegaConf.to_container`). `dict(cfg.node)` does not
help: it converts the top level only. Pydantic 2 accepts the `ListConfig` (any
iterable is validated in lax mode), so the rule needs a pin below 2.

## How to fix it

`Model(**OmegaConf.to_container(cfg.node, resolve=True))`, or upgrade to
pydantic 2.

## When preflight stays silent

* pydantic is not pinned, or pinned at 2 or later.
* The node is converted first (`OmegaConf.to_container`, `to_object`), the
  model has no list-typed field, or the composed node holds no list for one of
  them.
* The model class is defined in another module (not read).
"""
    bad_examples = examples("preflight.rules.plan._pf577_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf577_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        configs: dict[str, Any] = {}
        try:
            from preflight.adapters.hydra import Composed, compositions

            for comp in compositions(pctx.project):
                if isinstance(comp, Composed) and comp.app.script is not None:
                    configs.setdefault(comp.app.script.source.display, comp.config)
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            pass
        for script in pctx.project.scripts:
            text = script.text if script.text is not None else script.source.text
            if "pydantic" not in text or ("hydra" not in text and "omegaconf" not in text.lower()):
                continue
            version = pctx.version("pydantic", script)
            if version is None or version.how != "pinned" or version.at_least(2):
                continue
            models = _pydantic_models(script.tree)
            if not models:
                continue
            config = configs.get(script.source.display)
            for call, model, path, fields in _calls(script.tree, models):
                node = config_at(config, path) if config is not None else None
                if not isinstance(node, dict):
                    continue
                lists = sorted(f for f in fields if isinstance(node.get(f), list))
                if not lists:
                    continue
                where = version.where.rsplit(":", 1)
                evidence = [Evidence(line=int(where[1]) if len(where) > 1 and where[1].isdigit() else 1,
                                     path=where[0], message="the pinned pydantic version")]
                shown = ", ".join(f"`{f}`" for f in lists)
                dotted = ".".join(path)
                yield pctx.code_finding(
                    self, script, call,
                    f"`{model}(**…{dotted})` fills the list field(s) {shown} from the composed config, whose lists "
                    f"are OmegaConf ListConfig objects: {version.describe()} accepts only list/tuple/set/deque there "
                    "and raises \"value is not a valid list\" before training. Pass "
                    f"`OmegaConf.to_container(….{dotted}, resolve=True)`", evidence=evidence)
