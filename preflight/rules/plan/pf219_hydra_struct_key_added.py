"""PF219 hydra-struct-key-added: the ``@hydra.main`` function assigns a key its composed config does
not have (``cfg.model.vocab_size = ...``); Hydra's config is in struct mode, so the assignment raises."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.analysis.syntax import root_name, unpacked_key_path
from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_app_support import hydra_main_apps


def _target_chain(target: ast.AST, root: str) -> Optional[tuple[str, ...]]:
    """``cfg.a.b`` / ``cfg["a"]["b"]`` / ``cfg.a["b"]`` -> ("a", "b"); None for anything else."""
    path = unpacked_key_path(target)
    return path if path and root_name(target) == root else None


def _node(config: Any, path: tuple[str, ...]) -> Any:
    for part in path:
        if not isinstance(config, dict) or part not in config:
            return None
        config = config[part]
    return config


def _unlocks(fn: ast.AST, root: str) -> bool:
    """Whether the function opens the config (``open_dict``, ``set_struct(cfg, False)``, ...) or
    rebinds its parameter to another object (``cfg = OmegaConf.to_container(cfg)``)."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in ("open_dict", "read_write", "set_struct", "flag_override"):
                return True
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == root for t in targets):
                return True
    return False


@register
class HydraStructKeyAdded(PlanRule):
    code = "PF219"
    name = "hydra-struct-key-added"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("The `@hydra.main` function assigns a key that its composed config does not have; Hydra's config is "
               "in struct mode, so the assignment raises ConfigAttributeError")
    explanation = """
## What it finds

An assignment in the `@hydra.main` function to a key of the config it is handed
(`cfg.model.vocab_size = len(vocab)`, `cfg["model"]["vocab_size"] = ...`) where the
composed config (primary config, defaults list, the launch's overrides) has the
parent node (`model`) as a mapping but not the key (`vocab_size`).

## Why it matters

hydra-core sets the composed config to struct mode before it calls the task
function (`OmegaConf.set_struct(cfg, True)` in
`hydra/_internal/config_loader_impl.py`, "Set config root to struct mode ... One
must use + to add new fields"). In struct mode OmegaConf refuses new keys: the
assignment raises `ConfigAttributeError: Key 'vocab_size' is not in struct` (hydra
issue 258) after the data was loaded and tokenised.

## How to fix it

Declare the key in the config with a placeholder (`vocab_size: ???`, the maintainers'
advice), or add it under `with open_dict(cfg):`.

## When preflight stays silent

* The key is in the composed config (a `???` placeholder included).
* The function uses `open_dict`, `read_write`, `set_struct` or `flag_override`, the
  script mentions `open_dict` or `set_struct` anywhere (a helper may open the config),
  or the function rebinds the config parameter (`cfg = OmegaConf.to_container(cfg)`).
* The script registers a structured config (`ConfigStore`): its schema may declare the key.
* The parent node is not a mapping of the composed config (not known here), or the
  config was not composed.
"""
    bad_examples = examples("preflight.rules.plan._pf219_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf219_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for comp, script, fn in hydra_main_apps(pctx.project):
            if not fn.args.args:
                continue
            root = fn.args.args[0].arg
            if _unlocks(fn, root) or any(w in (script.source.text or "") for w in ("set_struct", "open_dict", "ConfigStore")):
                continue
            for node in ast.walk(fn):
                if not isinstance(node, (ast.Assign, ast.AnnAssign)):
                    continue
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    path = _target_chain(target, root)
                    if not path:
                        continue
                    parent = _node(comp.config, path[:-1])
                    if not isinstance(parent, dict) or path[-1] in parent:
                        continue
                    key = ".".join(path)
                    where = comp.origins.get(path[:-1]) if len(path) > 1 else None
                    message = (f"`{ast.unparse(target)} = ...` adds `{key}`, which the composed Hydra config does not "
                               "have: Hydra hands the task function its config in struct mode, so the assignment "
                               f"raises ConfigAttributeError (\"Key '{path[-1]}' is not in struct\"); declare "
                               f"`{path[-1]}: ???` in the config, or assign under `with open_dict({root}):`")
                    evidence = []
                    if where is not None and where[0] and where[1]:
                        evidence.append(Evidence(line=where[1], path=where[0],
                                                 message=f"`{'.'.join(path[:-1])}` is defined here without "
                                                         f"`{path[-1]}`"))
                    yield pctx.location_finding(self, script.source.display, node.lineno, message,
                                                evidence=evidence)
