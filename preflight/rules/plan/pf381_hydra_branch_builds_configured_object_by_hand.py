"""PF381 hydra-branch-builds-configured-object-by-hand: one branch of an ``if`` builds an object from its Hydra
node (``instantiate(cfg.trainer, ...)``) and the other branch builds the same class by hand without the node's
arguments (``pl.Trainer(resume_from_checkpoint=...)``): that path silently drops the configuration."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples
from preflight.rules.plan._hydra_apps import hydra_main_apps
from preflight.sources import ParsedPython

_SPECIAL = ("_target_", "_partial_", "_recursive_", "_convert_", "_args_")


def _assigned(body: list[ast.stmt]) -> dict[str, ast.Call]:
    """Name -> the call a top-level statement of the branch assigns to it."""
    out: dict[str, ast.Call] = {}
    for stmt in body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and isinstance(stmt.value, ast.Call):
            out[stmt.targets[0].id] = stmt.value
    return out


def _chain(node: ast.AST) -> Optional[list[str]]:
    """``conf.training.pl_trainer`` -> ["conf", "training", "pl_trainer"]; ``cfg["trainer"]`` too."""
    parts: list[str] = []
    while True:
        if isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
                and isinstance(node.slice.value, str):
            parts.append(node.slice.value)
            node = node.value
        elif isinstance(node, ast.Name):
            parts.append(node.id)
            return parts[::-1]
        else:
            return None


def _node(config: Any, path: list[str]) -> Optional[dict]:
    for part in path:
        if not isinstance(config, dict) or part not in config:
            return None
        config = config[part]
    return config if isinstance(config, dict) else None


def _configured(pctx: PlanContext, comps: list[Any], call: ast.Call) -> Optional[tuple[str, dict]]:
    """An ``instantiate(cfg.a.b, ...)`` call: (``cfg.a.b`` as written, the composed node) when the node has a
    ``_target_``."""
    if call_last(call) != "instantiate" or not call.args:
        return None
    chain = _chain(call.args[0])
    if chain is None or len(chain) < 2:
        return None
    for comp in comps:
        node = _node(comp.config, chain[1:])
        if node is not None and isinstance(node.get("_target_"), str):
            return ".".join(chain), node
    return None


@register
class HydraBranchBuildsConfiguredObjectByHand(PlanRule):
    code = "PF381"
    name = "hydra-branch-builds-configured-object-by-hand"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("one branch builds an object from its Hydra node (`instantiate(cfg.trainer)`), the other builds the "
               "same class by hand without the node's arguments: that path silently drops the configuration")
    explanation = """
## What it finds

An `if`/`else` in a `@hydra.main` job whose two branches assign the same name: one from
`hydra.utils.instantiate(cfg.x, ...)`, where the composed `cfg.x` has a `_target_`, and the
other from a direct call of that class (`pl.Trainer(...)` for `_target_:
pytorch_lightning.Trainer`) that does not pass some of the arguments `cfg.x` configures.

## Why it matters

The object exists on both paths, so the job runs either way, but the hand-built one silently
ignores every configured argument it does not repeat: in litus-ai/classy the resume branch
built `pl.Trainer(resume_from_checkpoint=...)` while the normal path instantiated
`conf.training.pl_trainer`, so a resumed run lost the configured GPUs, `val_check_interval`,
accumulation, clipping and step budget ("the trainer parameters of the configuration were not
applied", classy PR 84).

## How to fix it

Build the object from the node on both paths, passing what differs as an extra argument
(`instantiate(conf.training.pl_trainer, resume_from_checkpoint=path, ...)`).

## When preflight stays silent

* The hand-built call passes every configured argument, or splats something (`**kwargs`).
* The node has no `_target_`, the class names differ, or the node cannot be found in the
  composed config.
"""
    bad_examples = examples("preflight.rules.plan._pf381_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf381_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        comps = list(hydra_main_apps(pctx))
        if not comps:
            return
        for script in pctx.scripts:
            if "instantiate" not in script.source.text:
                continue
            for branch in ast.walk(script.tree):
                if isinstance(branch, ast.If) and branch.orelse:
                    yield from self._check_if(pctx, comps, script, branch)

    def _check_if(self, pctx: PlanContext, comps: list[Any], script: ParsedPython,
                  branch: ast.If) -> Iterable[Finding]:
        body, orelse = _assigned(branch.body), _assigned(branch.orelse)
        for name in set(body) & set(orelse):
            for built, by_hand in ((body[name], orelse[name]), (orelse[name], body[name])):
                found = _configured(pctx, comps, built)
                if found is None or call_last(by_hand) == "instantiate":
                    continue
                written, node = found
                target = node["_target_"].rsplit(".", 1)[-1]
                if call_last(by_hand) != target or any(k.arg is None for k in by_hand.keywords) \
                        or any(isinstance(a, ast.Starred) for a in by_hand.args):
                    continue
                passed = {k.arg for k in by_hand.keywords}
                dropped = [k for k in node if isinstance(k, str) and k not in _SPECIAL and k not in passed]
                if not dropped or by_hand.args:
                    continue
                shown = ", ".join(f"`{k}={node[k]!r}`" for k in dropped[:6]) + (
                    f" and {len(dropped) - 6} more" if len(dropped) > 6 else "")
                evidence = [Evidence(line=built.lineno, path=script.source.display,
                                     message=f"the other branch builds it from `{written}`")]
                yield pctx.code_finding(self, script, by_hand, (
                    f"this branch builds `{target}` by hand while the other builds it from `{written}` "
                    f"(`_target_: {node['_target_']}`): on this path the configured {shown} are not applied, and "
                    "the run silently uses the class defaults (litus-ai/classy PR 84: the resume branch lost the "
                    f"configured trainer arguments). Build it from `{written}` here too and pass what differs as "
                    "an extra argument"), evidence=evidence)
