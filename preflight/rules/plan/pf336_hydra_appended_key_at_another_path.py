"""PF336 hydra-appended-key-at-another-path: a ``+a.key=v`` / ``++a.key=v`` override that adds a
key the config has only deeper under the same node (``data.train.key``), and that no code reads."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_apps import hydra_main_apps
from preflight.rules.plan._hydra_launch_support import launch_finding


def _has(config: Any, path: tuple[str, ...]) -> bool:
    node = config
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True


def _paths(node: Any, prefix: tuple[str, ...], leaf: str, out: list[tuple[str, ...]], depth: int = 0) -> None:
    """Every key path under ``prefix`` that ends in ``leaf`` (not counting ``prefix + (leaf,)``)."""
    if not isinstance(node, dict) or depth > 6:
        return
    for key, value in node.items():
        if not isinstance(key, str):
            continue
        path = (*prefix, key)
        if key == leaf and depth > 0:
            out.append(path)
        _paths(value, path, leaf, out, depth + 1)


def _subtree(config: Any, path: tuple[str, ...]) -> Any:
    node = config
    for part in path:
        node = node.get(part) if isinstance(node, dict) else None
    return node


def _read_elsewhere(pctx: PlanContext, leaf: str, holders: set[str]) -> bool:
    """Whether some script of the job reads ``leaf`` other than through the nodes that hold it
    in the config (``cfg.data.train.dataset_name`` reads it through ``train``; ``data_cfg.dataset_name``,
    ``cfg["dataset_name"]`` or ``.get("dataset_name")`` might read the appended key)."""
    for script in pctx.scripts:
        text = script.source.text
        if leaf not in text:
            continue
        for node in ast.walk(script.tree):
            if isinstance(node, ast.Attribute) and node.attr == leaf:
                owner = node.value
                name = owner.attr if isinstance(owner, ast.Attribute) else owner.id if isinstance(owner, ast.Name) \
                    else None
                if name not in holders:
                    return True
            elif isinstance(node, ast.Constant) and node.value == leaf:
                return True
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.endswith(f".{leaf}"):
                return True  # OmegaConf.select(cfg, "data.dataset_name")
    return False


@register
class HydraAppendedKeyAtAnotherPath(PlanRule):
    code = "PF336"
    name = "hydra-appended-key-at-another-path"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A `+a.key=v`/`++a.key=v` override adds a key the config has only deeper under `a` "
               "(`a.train.key`) and no code reads: the run keeps the configured value")
    explanation = """
## What it finds

A `+a.key=value` or `++a.key=value` override on the launch line of a `@hydra.main` app
where the composed config has no `a.key`, but has `key` deeper under the same node
(`a.train.key`, `a.val.key`), and no script of the job reads `key` other than through
the nodes that hold it (`cfg.a.train.key`).

## Why it matters

`+` adds a key and `++` adds it when it is missing, so Hydra's struct check, which would
stop a plain override of a wrong path ("Could not override 'data.dataset_name'. Key
'dataset_name' is not in struct"), is bypassed. The run starts with a new key that
nothing reads while the keys the code does read keep their configured values: the job
trains on the default dataset while the command line says otherwise ("using the
documented path has no effect and causes silent misconfiguration", NVIDIA-NeMo/RL issue
2719: `++data.dataset_name=...` where the dataset is read from `data.train.dataset_name`).

## How to fix it

Override the keys the code reads, without `+`, so that a wrong path fails:
`data.train.dataset_name=X data.val.dataset_name=X`.

## When preflight stays silent

* The config has the key at the override's path (an ordinary `++` override), or nowhere
  under the same node (a new key: PF258 reports near-miss spellings).
* A script reads the key other than through the nodes that hold it (`data_cfg.key`,
  `cfg["key"]`, `.get("key")`, `OmegaConf.select(cfg, "a.key")`): it may read the added key.
* Keys under `hydra.` (Hydra's own config), group overrides (`+group=option`, `@` packages).
"""
    bad_examples = examples("preflight.rules.plan._pf336_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf336_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        project = pctx.project
        if not project.argv:
            return
        for comp in hydra_main_apps(pctx):
            for tok in project.script_args(comp.app.script):
                head, eq, _ = tok.partition("=")
                if not eq or not head.startswith("+") or "$" in tok or "@" in head or "/" in head:
                    continue
                parts = tuple(head.lstrip("+").split("."))
                if parts[0] == "hydra" or any(not p for p in parts):
                    continue
                message = self._message(pctx, comp, tok, parts)
                if message is not None:
                    yield launch_finding(self, pctx, comp, message[0], message[1])

    @staticmethod
    def _message(pctx: PlanContext, comp: Any, tok: str, parts: tuple[str, ...]) -> Optional[tuple[str, list[Evidence]]]:
        if comp.origins.get(parts) is not None:
            return None  # the key is in a config file: an ordinary override
        parent, leaf = parts[:-1], parts[-1]
        if parent and not _has(comp.config, parent):
            return None
        found: list[tuple[str, ...]] = []
        _paths(_subtree(comp.config, parent), parent, leaf, found)
        found = [p for p in found if comp.origins.get(p) is not None]
        if not found:
            return None
        holders = {p[-2] for p in found}
        if _read_elsewhere(pctx, leaf, holders):
            return None
        shown = ", ".join("`" + ".".join(p) + "`" for p in found[:3])
        evidence = []
        for p in found[:3]:
            origin = comp.origins.get(p)
            if origin and origin[1]:
                evidence.append(Evidence(line=origin[1], path=origin[0], message=f"`{'.'.join(p)}` is set here"))
        key = ".".join(parts)
        return (f"`{tok}` adds a new key `{key}`, but the config has `{leaf}` only at {shown}, and no script reads "
                f"`{leaf}` except through those nodes: the `+` bypasses Hydra's check that `{key}` exists, nothing "
                f"reads it, and the run keeps the configured {shown}. Override the key the code reads "
                f"({shown}) without `+`, so that a wrong path fails", evidence)
