"""PF599 omegaconf-merge-expands-interpolated-node: ``OmegaConf.merge(base, tweak, cli)`` where the tweak
file sets keys under a node the base writes as an interpolation (``backbone_optim: ${optim}``): the merge
expands the node into a copy there, so command-line overrides of the source merged later miss it."""

from __future__ import annotations

import ast
import re
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._omegaconf_chains import config_at
from preflight.rules.plan._omegaconf_merge import YAML_NAME, is_omegaconf
from preflight.rules.plan.pf597_omegaconf_merge_keeps_default_entries import config_file

_WHOLE = re.compile(r"^\$\{\s*([A-Za-z_][\w.]*)\s*\}$")


def _bindings(fn: ast.AST) -> dict[str, tuple[str, str]]:
    """Names the function binds to ``OmegaConf.load("<file>")`` (``("file", path)``) or to the command
    line (``OmegaConf.from_dotlist(...)``/``from_cli(...)``: ``("cli", "")``)."""
    out: dict[str, tuple[str, str]] = {}
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Call)):
            continue
        call = node.value
        if is_omegaconf(call.func, "load") and call.args:
            match = YAML_NAME.search(ast.unparse(call.args[0]))
            if match:
                out[node.targets[0].id] = ("file", match.group(1))
        elif is_omegaconf(call.func, "from_dotlist") or is_omegaconf(call.func, "from_cli"):
            out[node.targets[0].id] = ("cli", "")
    return out


def _mapping_keys(data: Any, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    if isinstance(data, dict):
        for key, value in data.items():
            out.append((*prefix, str(key)))
            out.extend(_mapping_keys(value, (*prefix, str(key))))
    return out


@register
class OmegaConfMergeExpandsInterpolatedNode(PlanRule):
    code = "PF599"
    name = "omegaconf-merge-expands-interpolated-node"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("`OmegaConf.merge(base, tweak, cli)`: the tweak sets keys under a node the base writes as `${other}`, "
               "which the merge expands into a copy, so command-line overrides of `other` merged later miss it")
    explanation = """
## What it finds

A script that builds its config with `OmegaConf.merge(base, tweak, ..., cli)`, where
`base` and `tweak` are `OmegaConf.load` of YAML files of the project and `cli` is
`OmegaConf.from_dotlist(...)`/`OmegaConf.from_cli()`, when the base writes a node as a
whole interpolation of another node (`backbone_optim: ${optim}`), the tweak sets keys
under it (`backbone_optim: {lr: 1.0e-4}`), and the audited launch line overrides a key of
the source (`optim.weight_decay=0.1`).

## Why it matters

Merging into a node that is an interpolation expands it into a copy of its target at
that moment (omegaconf issue 1184: "expansion is performed immediately on update to a
child, so updates to parent values do not affect later interpolations"). The
command-line value merged afterwards reaches `optim` and every node that still
interpolates it, but not the expanded copy: `backbone_optim` keeps the old weight decay
while `head_optim` gets the new one. Nothing fails.

## How to fix it

Merge the command line into the base before the tweak (`cfg = OmegaConf.merge(base,
cli)`, then merge the tweak and the command line again), or write the tweak as its own
interpolation-free node.

## When preflight stays silent

* The launch line overrides nothing under the interpolated source, or the command line
  is merged before the tweak.
* The tweak does not set keys under the interpolated node, or the node interpolates a
  single value rather than a mapping.
"""
    bad_examples = examples("preflight.rules.plan._pf599_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf599_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        project = pctx.project
        overridden = [str(a).partition("=")[0].lstrip("+~") for a in (project.argv or ()) if "=" in str(a)
                      and not str(a).startswith("-")]
        if not overridden:
            return
        for script in project.scripts:
            if script.tree is None:
                continue
            for fn in ast.walk(script.tree):
                if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
                    continue
                bound = _bindings(fn)
                if not bound:
                    continue
                for call in ast.walk(fn):
                    if not (isinstance(call, ast.Call) and is_omegaconf(call.func, "merge")):
                        continue
                    found = self._expanded(pctx, script, call, bound, overridden)
                    if found is not None:
                        yield found

    def _expanded(self, pctx: PlanContext, script: Any, call: ast.Call, bound: dict[str, tuple[str, str]],
                  overridden: list[str]) -> Optional[Finding]:
        kinds = [bound.get(a.id) if isinstance(a, ast.Name) else None for a in call.args]
        if len(kinds) < 3 or kinds[0] is None or kinds[0][0] != "file":
            return None
        base = config_file(pctx.project, script, kinds[0][1])
        if base is None:
            return None
        for index in range(1, len(kinds)):
            kind = kinds[index]
            if kind is None or kind[0] != "file" or not any(k is not None and k[0] == "cli" for k in kinds[index + 1:]):
                continue
            tweak = config_file(pctx.project, script, kind[1])
            if tweak is None or not isinstance(tweak.data, dict):
                continue
            for key, value in base.data.items():
                match = _WHOLE.match(value) if isinstance(value, str) else None
                if not match or not isinstance(tweak.data.get(key), dict):
                    continue
                source = match.group(1)
                if not isinstance(config_at(base.data, tuple(source.split("."))), dict):
                    continue
                hits = [o for o in overridden if o.startswith(source + ".")]
                if not hits:
                    continue
                evidence = [Evidence(line=base.line_of((key,)) or 1, path=base.path,
                                     message=f"`{key}: {value}` in the base"),
                            Evidence(line=tweak.line_of((key,)) or 1, path=tweak.path,
                                     message=f"{tweak.path} sets keys under `{key}`")]
                return pctx.code_finding(self, script, call, (
                    f"this merge expands `{key}` (`{value}` in {base.path}) into a copy when {tweak.path} sets keys "
                    f"under it, before the command line is merged: the launch override `{hits[0]}` reaches "
                    f"`{source}` and the nodes that still interpolate it, but `{key}` keeps the old value "
                    "(omegaconf issue 1184). Merge the command line into the base before the tweak"),
                    evidence=evidence)
        return None
