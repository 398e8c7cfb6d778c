"""PF380 hydra-group-never-read: the composed config selects an option of a config group (``scheduler:
plateau`` in the defaults list) and no code or config of the job reads that group's node: whatever the option
configures has no effect."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples
from preflight.rules.plan._hydra_apps import hydra_main_apps

# calls a whole config may be handed to without anything reading a group out of it
_HARMLESS = frozenset({"print", "to_yaml", "save", "info", "debug", "warning", "log", "str", "repr", "pprint",
                       "isinstance", "len", "type", "seed_everything", "set_struct", "set_readonly", "resolve",
                       "log_hyperparams", "extras", "print_config_tree", "print_config"})


def _trees(pctx: PlanContext, limit: int = 60) -> list[ast.AST]:
    """The job's scripts and the project modules they import, followed through the modules' own imports
    (``train.py`` -> ``src/utils/__init__.py`` -> ``src/utils/utils.py``), at most ``limit`` files."""
    from pathlib import Path

    from preflight.adapters.guarded_helpers import project_modules
    from preflight.local_trees import parse_file

    seen: set[str] = set()
    out: list[ast.AST] = []
    todo: list[tuple[Path, ast.Module]] = []
    for script in pctx.project.scripts:
        seen.add(str(Path(script.source.path).resolve()))
        out.append(script.tree)
        todo.append((Path(script.source.path), script.tree))
    while todo and len(out) < limit:
        path, tree = todo.pop(0)
        try:
            local = project_modules(tree, path)
        except (OSError, ValueError):
            continue
        for found in local:
            key = str(found.resolve())
            if key in seen:
                continue
            seen.add(key)
            try:
                parsed = parse_file(found, 1 << 20)
            except (SyntaxError, ValueError, OSError, RecursionError):
                continue
            out.append(parsed)
            todo.append((found, parsed))
    return out


def _hydra_params(trees: list[ast.AST]) -> set[str]:
    """The parameter names of the ``@hydra.main`` functions (``cfg``, ``config``)."""
    out: set[str] = set()
    for tree in trees:
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                    "hydra" in ast.unparse(d) or "main" in ast.unparse(d) for d in fn.decorator_list):
                out.update(a.arg for a in fn.args.args)
    return out


def _defined(trees: list[ast.AST]) -> set[str]:
    return {node.name for tree in trees for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}


def _escapes(trees: list[ast.AST]) -> bool:
    """A whole config leaves the project's code: handed to a callable the project does not define (``instantiate(
    cfg)``, ``Runner(cfg)``), splatted (``**cfg``), iterated (``for k in cfg``, ``cfg.items()``) or converted
    (``OmegaConf.to_container(cfg)``): some library may read any group of it."""
    params = _hydra_params(trees) | {"cfg", "config", "conf", "args", "hparams", "opt"}
    defined = _defined(trees)
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                whole = [a for a in node.args if isinstance(a, ast.Name) and a.id in params] + [
                    k.value for k in node.keywords if isinstance(k.value, ast.Name) and k.value.id in params]
                if whole and call_last(node) not in _HARMLESS and call_last(node) not in defined:
                    return True
                if any(k.arg is None and isinstance(k.value, ast.Name) and k.value.id in params
                       for k in node.keywords):
                    return True
                if isinstance(node.func, ast.Attribute) and node.func.attr in ("items", "values", "keys") \
                        and isinstance(node.func.value, ast.Name) and node.func.value.id in params:
                    return True
            elif isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.iter, ast.Name) \
                    and node.iter.id in params:
                return True
    return False


def _read_in_code(trees: list[ast.AST], key: str) -> bool:
    """An attribute ``.key``, or a string naming ``key`` (``cfg["key"]``, ``cfg.get("key")``,
    ``OmegaConf.select(cfg, "key.lr")``), in any script of the job or project module it imports."""
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == key:
                return True
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and key in node.value.split("."):
                return True
    return False


def _interpolated(config: Any, key: str, depth: int = 0) -> bool:
    """``${key...}`` in a value of the composed config."""
    if depth > 12:
        return False
    if isinstance(config, dict):
        return any(_interpolated(v, key, depth + 1) for v in config.values())
    if isinstance(config, list):
        return any(_interpolated(v, key, depth + 1) for v in config)
    return isinstance(config, str) and ("${" + key) in config.replace(" ", "")


def _selection(comp: Any, group: str) -> Optional[tuple[str, int]]:
    """The defaults-list entry that selects ``group`` (file, line)."""
    for _, loaded in comp.item_configs:
        data = loaded.data if hasattr(loaded, "data") else None
        entries = data.get("defaults") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            continue
        for index, entry in enumerate(entries):
            if isinstance(entry, dict) and any(isinstance(k, str) and k.replace("override ", "").strip() == group
                                               for k in entry):
                line = loaded.line_of(("defaults", index), nearest=True)
                if line is not None:
                    return loaded.path, line
    return None


@register
class HydraGroupNeverRead(PlanRule):
    code = "PF380"
    name = "hydra-group-never-read"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("a config group selected in the defaults list (`scheduler: plateau`) that no code or config of "
               "the job reads: the configured component is never built and its settings have no effect")
    explanation = """
## What it finds

A `@hydra.main` app whose composed config takes an option of a config group at the group's
own node (`- scheduler: plateau` in the defaults list puts `scheduler/plateau.yaml` under
`scheduler`), where nothing of the job reads that node: no script of the job, nor a project
module it imports (followed through their imports), names it (`cfg.scheduler`,
`cfg["scheduler"]`, `cfg.get("scheduler")`, `OmegaConf.select(cfg, "scheduler.lr")`) and no
config value interpolates it (`${scheduler.factor}`).

## Why it matters

The option is composed, printed and saved with the run, so the configuration reads as if the
job used it, but no code ever instantiates or reads it: a scheduler group whose
`ReduceLROnPlateau` is never built leaves the learning rate at its initial value for the whole
run, whatever the group or a command-line override says (NRCan/geo-deep-learning issue 385:
"the training code never calls the scheduler").

## How to fix it

Build and use the component (`scheduler = instantiate(cfg.scheduler, optimizer=optimizer)` and
step it), or remove the group from the defaults list so the config says what the job does.

## When preflight stays silent

* Some script reads the node by attribute or by a string naming it, or a config value
  interpolates it.
* The whole config leaves the project's code: handed to a callable the project does not define
  (`instantiate(cfg)`, a library runner), splatted (`**cfg`), iterated, or converted
  (`OmegaConf.to_container(cfg)`): a library may read any group of it.
* Options placed at another package (`@package _global_`, `group@pkg: option`), Hydra's own
  groups (`hydra/...`), nested groups (`model/encoder`).
"""
    bad_examples = examples("preflight.rules.plan._pf380_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf380_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        escapes: Optional[bool] = None
        trees: Optional[list[ast.AST]] = None
        for comp in hydra_main_apps(pctx):
            for item in comp.composition.items:
                if item.file is None or "/" not in item.config_path:
                    continue
                group = item.config_path.rsplit("/", 1)[0]
                if group != item.package or "/" in group or "." in group or group.startswith("hydra"):
                    continue
                node = comp.config.get(group) if isinstance(comp.config, dict) else None
                if not isinstance(node, dict) or not node:
                    continue
                if _interpolated(comp.config, group):
                    continue
                if trees is None:
                    trees = _trees(pctx)
                if _read_in_code(trees, group):
                    continue
                if escapes is None:
                    escapes = _escapes(trees)
                if escapes:
                    return
                where = _selection(comp, group)
                if where is None:
                    continue
                option = item.config_path.rsplit("/", 1)[1]
                target = node.get("_target_")
                what = f" (`_target_: {target}`)" if isinstance(target, str) else ""
                evidence = [Evidence(line=1, path=str(item.file), message=f"the `{group}/{option}` option")]
                yield pctx.location_finding(self, where[0], where[1], (
                    f"the defaults list selects `{group}: {option}`{what}, but no script of the job reads "
                    f"`{group}` (no `cfg.{group}`, `cfg[\"{group}\"]` or `.get(\"{group}\")`) and no config "
                    f"interpolates it: the option is composed and saved with the run but never used, so whatever it "
                    f"configures has no effect (NRCan/geo-deep-learning issue 385: a scheduler group never "
                    f"instantiated, the learning rate never changes). Build it from `cfg.{group}` or drop the "
                    "group from the defaults list"), evidence=evidence)
