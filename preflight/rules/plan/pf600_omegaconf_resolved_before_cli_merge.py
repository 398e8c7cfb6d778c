"""PF600 omegaconf-resolved-before-cli-merge: a loaded config is resolved (``to_container(resolve=True)``,
``OmegaConf.resolve``) before the command-line overrides are merged, so values that interpolate an
overridden key keep the file's value."""

from __future__ import annotations

import ast
import os
import re
from typing import Any, Iterable, Iterator, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._omegaconf_merge import YAML_NAME, is_omegaconf
from preflight.rules.plan.pf597_omegaconf_merge_keeps_default_entries import config_file

_REF = re.compile(r"\$\{\s*([A-Za-z_][\w.]*)\s*\}")


def _is_load(node: ast.AST, loads: set[str]) -> bool:
    return (isinstance(node, ast.Call) and is_omegaconf(node.func, "load")) or \
        (isinstance(node, ast.Name) and node.id in loads)


def _is_cli(node: ast.AST, clis: set[str]) -> bool:
    return (isinstance(node, ast.Call) and (is_omegaconf(node.func, "from_dotlist")
                                            or is_omegaconf(node.func, "from_cli"))) or \
        (isinstance(node, ast.Name) and node.id in clis)


def _resolving(node: ast.AST, loads: set[str]) -> Optional[ast.Call]:
    """The ``to_container(<loaded>, resolve=True)`` call inside ``node`` (also under ``OmegaConf.create``)."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and is_omegaconf(sub.func, "to_container") and sub.args \
                and _is_load(sub.args[0], loads) and any(
                    k.arg == "resolve" and isinstance(k.value, ast.Constant) and k.value.value is True
                    for k in sub.keywords):
            return sub
    return None


def _loaded_name(fn: ast.AST) -> Optional[str]:
    """The literal YAML path the function's ``OmegaConf.load`` reads, if it writes one."""
    for sub in ast.walk(fn):
        if isinstance(sub, ast.Call) and is_omegaconf(sub.func, "load") and sub.args:
            match = YAML_NAME.search(ast.unparse(sub.args[0]))
            if match:
                return match.group(1)
    return None


def _frozen(fn: ast.AST) -> Iterator[ast.AST]:
    """Where the function resolves a loaded config that it later merges with the command line."""
    loads: set[str] = set()
    clis: set[str] = set()
    resolved: dict[str, ast.AST] = {}
    body = sorted((n for n in ast.walk(fn) if isinstance(n, (ast.Assign, ast.Expr))), key=lambda n: n.lineno)
    for stmt in body:
        value = stmt.value
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name = stmt.targets[0].id
            if _is_load(value, loads):
                loads.add(name)
            elif _is_cli(value, clis):
                clis.add(name)
            else:
                site = _resolving(value, loads)
                if site is not None:
                    resolved[name] = site
        if isinstance(value, ast.Call) and is_omegaconf(value.func, "resolve") and value.args \
                and isinstance(value.args[0], ast.Name) and value.args[0].id in loads:
            resolved[value.args[0].id] = value
        for sub in ast.walk(value):
            if isinstance(sub, ast.Call) and is_omegaconf(sub.func, "merge") and sub.args:
                first = sub.args[0]
                if isinstance(first, ast.Name) and first.id in resolved and any(_is_cli(a, clis) for a in sub.args[1:]):
                    yield resolved[first.id]


@register
class OmegaConfResolvedBeforeCliMerge(PlanRule):
    code = "PF600"
    name = "omegaconf-resolved-before-cli-merge"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A loaded config is resolved before the command-line overrides are merged: values that interpolate "
               "an overridden key keep the file's value")
    explanation = """
## What it finds

A script that resolves a loaded OmegaConf config (`OmegaConf.to_container(cfg,
resolve=True)`, `OmegaConf.resolve(cfg)`) and then merges the command-line overrides
into the result (`OmegaConf.merge(conf, OmegaConf.from_dotlist(...))`), when the config
file has a value that interpolates a key the audited launch line overrides
(`output_dir: ${name}/logs` with `name=llama3_lora_r16`).

## Why it matters

Resolving replaces every `${...}` by the value it has at that moment; the merge that
follows changes `name` but nothing interpolates it any more, so `output_dir` stays
`REPLACE_ME/logs` and every run writes its logs and checkpoints into the same folder
(meta-pytorch/torchtune PR 2236: "This happens because OmegaConf resolves values under
the hood").

## How to fix it

Merge the command line first and resolve the merged config
(`conf = OmegaConf.merge(OmegaConf.load(path), OmegaConf.from_dotlist(overrides));
OmegaConf.resolve(conf)`).

## When preflight stays silent

* The command line is merged before the config is resolved, or the resolved config is
  not merged with the command line.
* No value of the file interpolates a key the launch line overrides.
"""
    bad_examples = examples("preflight.rules.plan._pf600_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf600_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        project = pctx.project
        argv = [str(a) for a in (project.argv or ())]
        overridden = [a.partition("=")[0].lstrip("+~") for a in argv if "=" in a and not a.startswith("-")]
        if not overridden:
            return
        for script in project.scripts:
            if script.tree is None:
                continue
            for fn in ast.walk(script.tree):
                if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                for site in _frozen(fn):
                    config = self._config(pctx, script, fn, argv)
                    if config is None:
                        continue
                    hit = self._interpolated(config.data, overridden)
                    if hit is None:
                        continue
                    path, value, key = hit
                    yield pctx.code_finding(self, script, site, (
                        f"this resolves the config before the command line is merged (next: `OmegaConf.merge(..., "
                        f"OmegaConf.from_dotlist/from_cli(...))`): `{'.'.join(path)}: {value}` in {config.path} is "
                        f"frozen with the file's `{key}`, so the launch override `{key}=...` changes `{key}` but not "
                        f"`{'.'.join(path)}`. Merge the overrides first, then resolve"), evidence=[
                        Evidence(line=config.line_of(path, nearest=True) or 1, path=config.path,
                                 message=f"`{'.'.join(path)}` interpolates `{key}`")])

    @staticmethod
    def _config(pctx: PlanContext, script: Any, fn: ast.AST, argv: list[str]) -> Optional[Any]:
        """The loaded file: a literal path in the function, else a YAML config named on the launch line."""
        literal = _loaded_name(fn)
        if literal:
            return config_file(pctx.project, script, literal)
        named = {os.path.basename(a.partition("=")[2] or a) for a in argv}
        for source, config in pctx.project.configs:
            if os.path.basename(str(source.path)) in named and config.kind == "yaml" and isinstance(config.data, dict):
                return config
        return None

    @staticmethod
    def _interpolated(data: Any, overridden: list[str],
                      path: tuple[str, ...] = ()) -> Optional[tuple[tuple[str, ...], str, str]]:
        if isinstance(data, dict):
            for key, value in data.items():
                found = OmegaConfResolvedBeforeCliMerge._interpolated(value, overridden, (*path, str(key)))
                if found is not None:
                    return found
        elif isinstance(data, str):
            for ref in _REF.findall(data):
                for key in overridden:
                    if ref == key or ref.startswith(key + "."):
                        return path, data, key
        return None
