"""PF289 config-key-at-wrong-level: a YAML key written at a level of the file where the project's pydantic
config models have no such field (they drop unknown keys), while a nested section model has it."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Iterator

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._job_files import job_files

_MODEL_BASES = ("BaseModel", "BaseSettings")
_VALIDATORS = ("model_validate", "parse_obj", "validate")


def _base_name(node: ast.AST) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


class _Model:
    def __init__(self, node: ast.ClassDef, where: str) -> None:
        self.node = node
        self.where = where
        self.fields: dict[str, set[str]] = {}  # field -> names in its annotation
        for stmt in node.body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) \
                    and not stmt.target.id.startswith("_") and stmt.target.id != "model_config":
                self.fields[stmt.target.id] = {n.id for n in ast.walk(stmt.annotation) if isinstance(n, ast.Name)} | {
                    n.value for n in ast.walk(stmt.annotation)
                    if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        source = ast.unparse(node)
        self.strict = "forbid" in source  # extra="forbid" (ConfigDict, class Config, class keyword): keys raise


def _models(files: list[tuple[str, ast.AST]]) -> dict[str, _Model]:
    out: dict[str, _Model] = {}
    classes = [(display, node) for display, tree in files for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    changed = True
    while changed:
        changed = False
        for display, node in classes:
            if node.name in out:
                continue
            bases = [_base_name(b) for b in node.bases]
            if any(b in _MODEL_BASES or (b in out) for b in bases):
                model = _Model(node, display)
                for b in bases:  # inherited fields and strictness
                    parent = out.get(b)
                    if parent is not None:
                        model.fields = {**parent.fields, **model.fields}
                        model.strict = model.strict or parent.strict
                out[node.name] = model
                changed = True
    return out


def _roots(files: list[tuple[str, ast.AST]], models: dict[str, _Model]) -> list[str]:
    """Model classes built from a whole mapping: ``Config(**data)``, ``Config.model_validate(data)``."""
    out: list[str] = []
    for _, tree in files:
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = ""
            if isinstance(node.func, ast.Name) and any(k.arg is None for k in node.keywords) and not node.args:
                name = node.func.id
            elif isinstance(node.func, ast.Attribute) and node.func.attr in _VALIDATORS and node.args:
                name = _base_name(node.func.value)
            if name in models and name not in out:
                out.append(name)
    return out


def _sections(models: dict[str, _Model], root: str) -> dict[str, list[tuple[str, ...]]]:
    """Field name -> the key paths (below the root) where the model tree accepts it."""
    out: dict[str, list[tuple[str, ...]]] = {}
    todo: list[tuple[str, tuple[str, ...]]] = [(root, ())]
    seen: set[str] = set()
    while todo:
        name, path = todo.pop()
        if name in seen or len(path) > 6:
            continue
        seen.add(name)
        for field, names in models[name].fields.items():
            out.setdefault(field, []).append((*path, field))
            for sub in sorted(names & set(models)):
                todo.append((sub, (*path, field)))
    return out


def _misplaced(data: dict[Any, Any], models: dict[str, _Model], name: str, where: dict[str, list[tuple[str, ...]]],
               path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], str, tuple[str, ...]]]:
    model = models[name]
    if model.strict:
        return
    for key, value in data.items():
        if not isinstance(key, str):
            continue
        if key in model.fields:
            subs = sorted(model.fields[key] & set(models))
            if isinstance(value, dict) and len(subs) == 1:
                yield from _misplaced(value, models, subs[0], where, (*path, key))
            continue
        places = [p for p in where.get(key, []) if p[:-1] != path]
        if len(places) == 1:
            yield (*path, key), name, places[0]


@register
class ConfigKeyAtWrongLevel(PlanRule):
    code = "PF289"
    name = "config-key-at-wrong-level"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A YAML key written at a level where the project's pydantic config model has no such field (pydantic "
               "drops it) while a nested section model has it: the value is never used")
    explanation = """
## What it finds

A YAML config of the job that the code turns into pydantic models
(`RunConfig(**yaml.safe_load(f))`, `RunConfig.model_validate(data)`), in which a key is
written at a level whose model has no field of that name, while exactly one other
section of the model tree has it (`learning_rate:` at the top of the file, where only
`TrainingSection`, read as `training:`, declares `learning_rate`).

## Why it matters

A pydantic model ignores keys it does not declare unless it forbids them
(`extra="ignore"` is the default in pydantic v1 and v2): the misplaced value parses
cleanly, is thrown away, and the run trains with the section's default (unsloth PR
10452: `learning_rate` at the top level of the YAML was dropped and the run trained
with 2e-4 instead of 2e-5; "the first sign of trouble being the loss curve hours
later").

## How to fix it

Move the key into its section (`training:\\n  learning_rate: 2.0e-5`), and make the
config models reject unknown keys (`model_config = ConfigDict(extra="forbid")`).

## When preflight stays silent

* The model at that level declares the key, or forbids unknown keys (`extra="forbid"`,
  which raises at load time).
* The key is declared in no section, or in several (preflight cannot tell where it was
  meant to go).
* The YAML shares fewer than two top-level keys with the model's fields (it is not
  that model's file), or no code builds the model from a whole mapping.
"""
    bad_examples = examples("preflight.rules.plan._pf289_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf289_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        configs = [cfg for cfg in pctx.configs if cfg.kind == "yaml" and isinstance(cfg.data, dict)]
        if not configs:
            return
        files = job_files(pctx)
        models = _models(files)
        if not models:
            return
        for root in _roots(files, models):
            fields = models[root].fields
            where = _sections(models, root)
            for cfg in configs:
                if len({k for k in cfg.data if isinstance(k, str)} & set(fields)) < 2:
                    continue
                for path, owner, place in _misplaced(cfg.data, models, root, where):
                    model = models[owner]
                    yield pctx.config_finding(
                        self, cfg, path,
                        f"`{'.'.join(path)}` is not a field of {owner} ({model.where}:{model.node.lineno}), which "
                        f"ignores keys it does not declare (pydantic's default), so this value is dropped without "
                        f"an error and the run uses the default; the model tree reads it as `{'.'.join(place)}`: "
                        f"move it there (and set extra=\"forbid\" on the config models)",
                        evidence=[Evidence(line=model.node.lineno, message=f"{owner} is built from this file",
                                           path=model.where)])


