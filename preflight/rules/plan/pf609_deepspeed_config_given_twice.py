"""PF609 deepspeed-config-given-twice: ``deepspeed.initialize(args=args, config=...)`` while ``args``
carries ``--deepspeed_config``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.script_index import CallSite
from preflight.sources import ParsedPython

# deepspeed.initialize asserts on both since v0.9.0 (commit 47f9f13b, "DeepSpeed Chat", #3186);
# before, the engine took `config` and ignored args.deepspeed_config
_ASSERTS_FROM = (0, 9, 0)
_FLAGS = ("--deepspeed_config", "--deepscale_config")


def _root(expr: ast.AST) -> Optional[str]:
    return expr.id if isinstance(expr, ast.Name) else None


def _read_as_path(tree: ast.AST, root: str) -> Optional[ast.AST]:
    """``open(args.deepspeed_config)`` / ``json.load(open(args.deepspeed_config))``: the code itself
    relies on the attribute being a path."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        for arg in node.args:
            if isinstance(arg, ast.Attribute) and arg.attr in ("deepspeed_config", "deepscale_config") \
                    and isinstance(arg.value, ast.Name) and arg.value.id == root:
                return arg
    return None


def _cleared(tree: ast.AST) -> bool:
    """``args.deepspeed_config = None`` (Megatron-DeepSpeed's ``_create_ds_config_dict``), ``del``,
    ``setattr(args, "deepspeed_config", ...)`` or an ``if`` that tests the attribute."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "deepspeed_config" \
                and isinstance(node.ctx, (ast.Store, ast.Del)):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr") \
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) \
                and node.args[1].value == "deepspeed_config":
            return True
    return False


@register
class DeepSpeedConfigGivenTwice(PlanRule):
    code = "PF609"
    name = "deepspeed-config-given-twice"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("deepspeed",)
    summary = ("`deepspeed.initialize(args=args, config=...)` while `args.deepspeed_config` is set: DeepSpeed "
               "asserts \"Not sure how to proceed, we were given deepspeed configs ...\"")
    explanation = """
## What it finds

A `deepspeed.initialize(...)` call given both `args=args` and `config=` (or
`config_params=`), where `args.deepspeed_config` is set: the launch line passes
`--deepspeed_config ds_config.json` to the script, or the code itself opens
`args.deepspeed_config` as a file (to load the JSON and edit it before passing it as `config`).

## Why it matters

Since DeepSpeed 0.9.0, `deepspeed.initialize` checks that the config comes one way
only: `if hasattr(args, "deepspeed_config") and args.deepspeed_config is not None:
assert config is None, "Not sure how to proceed, we were given deepspeed configs in the
deepspeed arguments and deepspeed.initialize() function call"` (`deepspeed/__init__.py`).
The job fails at start-up, after the model was built (Megatron-DeepSpeed issue 164;
Megatron-DeepSpeed now clears `args.deepspeed_config = None` after loading the dict for
exactly this reason).

## How to fix it

Pass the config one way: drop `args=args` (or pass it without the config attribute), drop
`config=`, or set `args.deepspeed_config = None` after reading the file into the dict you pass.

## When preflight stays silent

* The call passes only one of the two, or `config=None`.
* Some script of the project assigns or deletes `args.deepspeed_config` (the Megatron-DeepSpeed
  `args.deepspeed_config = None` after loading), or the launch passes no `--deepspeed_config`
  and the code never opens the attribute as a file.
* A DeepSpeed release before 0.9.0 is pinned (the engine then used `config` and ignored
  the argument).
"""
    bad_examples = examples("preflight.rules.plan._pf609_examples", "PF609_BAD")
    good_examples = examples("preflight.rules.plan._pf609_examples", "PF609_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        sites = []
        for script in pctx.scripts:
            for site in pctx.index(script).calls:
                if (site.qualified or site.name or "").startswith("deepspeed") \
                        and (site.name or "").split(".")[-1] == "initialize":
                    sites.append((script, site))
        if not sites or any(_cleared(s.tree) for s in pctx.scripts):
            return
        found = pctx.version("deepspeed")
        if found is not None and found.how == "pinned" and not found.at_least(*_ASSERTS_FROM):
            return
        argv = pctx.project.argv or []
        flag = next((t.split("=", 1)[0] for t in argv if t.split("=", 1)[0] in _FLAGS), None)
        for script, site in sites:
            yield from self._check_site(pctx, script, site, flag)

    def _check_site(self, pctx: PlanContext, script: ParsedPython, site: CallSite,
                    flag: Optional[str]) -> Iterable[Finding]:
        args = site.kwarg("args")
        config = site.kwarg("config") or site.kwarg("config_params")
        if args is None or config is None or (isinstance(config, ast.Constant) and config.value is None):
            return
        root = _root(args)
        if root is None:
            return
        read = _read_as_path(script.tree, root)
        if flag is None and read is None:
            return
        why = (f"the launch line passes `{flag}`" if flag is not None
               else f"the code opens `{ast.unparse(read)}` as a file, so it is set" if read is not None else "")
        evidence = [pctx.code_evidence(script, read, "the config path is read from the arguments")] \
            if read is not None else []
        yield pctx.code_finding(
            self, script, site.call,
            f"`deepspeed.initialize` gets `config={ast.unparse(config)}` and also `args={root}`, whose "
            f"`deepspeed_config` is set ({why}): DeepSpeed (0.9.0 and later) asserts \"Not sure how to proceed, "
            "we were given deepspeed configs in the deepspeed arguments and deepspeed.initialize() function "
            f"call\" and the job stops at start-up. Pass the config one way only (drop `args=` or `config=`, or set "
            f"`{root}.deepspeed_config = None` after loading it)",
            evidence=evidence)
