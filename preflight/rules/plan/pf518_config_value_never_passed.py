"""PF518 config-value-never-passed: a config key a helper takes is left out of the call that forwards the others."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf432_support import config_key
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import walk


def _read_keys(pctx: PlanContext) -> set[str]:
    """Every key some script reads: ``x["k"]``, ``x.get("k")``, ``x.k`` (not ``self.k``)."""
    out: set[str] = set()
    for script in pctx.scripts:
        for node in ast.walk(script.tree):
            if isinstance(node, (ast.Subscript, ast.Call)) or (
                    isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load)):
                key = config_key(node)
                if key is not None:
                    out.add(key)
    return out


def _defaulted(fn: ast.FunctionDef) -> dict[str, ast.expr]:
    args = fn.args.args
    defaults = fn.args.defaults
    out = {a.arg: d for a, d in zip(args[len(args) - len(defaults):], defaults)}
    out.update({a.arg: d for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults) if d is not None})
    return out


@register
class ConfigValueNeverPassed(PlanRule):
    code = "PF518"
    name = "config-value-never-passed"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("transformers", "pytorch", "hydra")
    summary = "A config key that a helper takes is never passed to it: the helper's default wins"
    explanation = """
## What it finds

A call to a function of the same script that forwards config values by name
(`learning_rate=config["learning_rate"]`, two or more of them), leaving out a
parameter that has a default and whose name is a key of the same config mapping,
when no script reads that key anywhere.

## Why it matters

The config says `gradient_accumulation_steps: 8`, the run uses the function's
default of 4, and nothing warns: the effective batch size, the schedule length and
the learning-rate scaling all differ from what the config documents (Smart
Contract Bytecode-to-Code issue 9).

## How to fix it

Pass it like the others: `gradient_accumulation_steps=config["gradient_accumulation_steps"]`.

## When preflight stays silent

* The key is read somewhere in the scripts (under any access), or the call
  forwards fewer than two config values by name, or unpacks `**config`.
"""
    bad_examples = examples("preflight.rules.plan._pf518_examples", "PF518_BAD")
    good_examples = examples("preflight.rules.plan._pf518_examples", "PF518_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        mappings = [(config, path, node) for config in pctx.configs for path, node in walk(config.data)]
        if not mappings:
            return
        read: Optional[set[str]] = None
        for script in pctx.scripts:
            funcs = {fn.name: fn for fn in script.tree.body if isinstance(fn, ast.FunctionDef)}
            for call in ast.walk(script.tree):
                if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in funcs):
                    continue
                if any(kw.arg is None for kw in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args):
                    continue
                mirrored = {kw.arg for kw in call.keywords if kw.arg is not None and config_key(kw.value) == kw.arg}
                if len(mirrored) < 2:
                    continue
                fn = funcs[call.func.id]
                positional = {a.arg for a in fn.args.args[:len(call.args)]}
                passed = {kw.arg for kw in call.keywords} | positional
                for param, default in _defaulted(fn).items():
                    if param in passed:
                        continue
                    found = self._config_with(mappings, mirrored, param)
                    if found is None:
                        continue
                    read = _read_keys(pctx) if read is None else read
                    if param in read:
                        continue
                    config, path, node = found
                    evidence = [pctx.config_evidence(config, (*path, param), f"{param}: {node[param]!r}"),
                                pctx.code_evidence(script, default, f"the default `{ast.unparse(default)}` is used")]
                    yield pctx.code_finding(
                        self, script, call,
                        f"`{call.func.id}(...)` gets {', '.join(sorted(mirrored))} from the config by name, but not "
                        f"`{param}`: the config's `{param}: {node[param]!r}` is never read and the default "
                        f"`{ast.unparse(default)}` is used instead. Pass `{param}=` like the others",
                        evidence=evidence)

    @staticmethod
    def _config_with(mappings: list, mirrored: set[str], param: str) -> Optional[tuple[Any, tuple, dict]]:
        for config, path, node in mappings:
            if param in node and mirrored <= set(node):
                return config, path, node
        return None
