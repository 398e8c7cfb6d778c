"""PF686 instantiate-top-level-list-on-hydra-1-1: ``hydra.utils.instantiate(cfg.callbacks)`` on a config node
that composes to a list, under a pinned hydra-core older than 1.2, which instantiates dicts only."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import calls, has_unpacking
from preflight.rules.base import examples
from preflight.rules.plan._hydra_app_support import config_chain, hydra_main_apps, lookup
from preflight.rules.plan._hydra_instantiate import is_instantiate
from preflight.rules.plan._pinned_release import pinned_version


@register
class InstantiateTopLevelListOnHydra11(PlanRule):
    code = "PF686"
    name = "instantiate-top-level-list-on-hydra-1-1"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ()
    summary = ("`instantiate(cfg.callbacks)` on a config list under a pinned hydra-core before 1.2: "
               "\"Top level config has to be OmegaConf DictConfig\"")
    explanation = """
## What it finds

A `hydra.utils.instantiate(cfg.<key>)` call in a `@hydra.main` function whose argument is a
node of the composed config that is a list (typically `callbacks:` holding `_target_`
nodes for the Trainer), in a project whose requirements pin hydra-core to a release
before 1.2.

## Why it matters

Before 1.2, `instantiate` accepts only a DictConfig, a plain dict or a structured config at
the top level and raises "InstantiationException: Top level config has to be OmegaConf
DictConfig, plain dict, or a Structured Config class or instance" for a list (hydra issue
1950; top-level lists became instantiable in 1.2, PR 2014). The job stops before training.

## How to fix it

Instantiate the elements one by one (`[instantiate(c) for c in cfg.callbacks]`), or upgrade
hydra-core to 1.2 or later.

## When preflight stays silent

* hydra-core is not pinned (a range, or no requirements file), or is pinned at 1.2 or later.
* The node composes to a dict, or preflight cannot compose the app's config or follow the
  argument to a config key (a loop variable, a function parameter).
"""
    bad_examples = examples("preflight.rules.plan._pf686_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf686_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        apps = list(hydra_main_apps(pctx.project))
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if "instantiate" not in text:
                continue
            version = pinned_version(pctx, "hydra-core", script)
            if version is None or version.at_least(1, 2):
                continue
            roots = {fn.args.args[0].arg: comp for comp, s, fn in apps if s is script and fn.args.args}
            if not roots:
                continue
            for call, qual in calls(pctx.file_context(script)):
                if not is_instantiate(qual, call) or not call.args or has_unpacking(call):
                    continue
                for root, comp in roots.items():
                    path = config_chain(call.args[0], root)
                    node = lookup(comp.config, path) if path else None
                    if not path or not isinstance(node, list):
                        continue
                    origin = comp.origins.get(path)
                    evidence = [Evidence(line=origin[1], message=f"`{'.'.join(path)}` is a list", path=origin[0])] \
                        if origin and origin[1] else None
                    yield pctx.code_finding(
                        self, script, call,
                        f"`{ast.unparse(call)[:80]}` instantiates `{'.'.join(path)}`, a list in the composed config, "
                        f"but hydra-core is pinned at {version.text} ({version.where}): before 1.2 `instantiate` takes only a DictConfig, "
                        "dict or structured config at the top level and raises \"Top level config has to be "
                        "OmegaConf DictConfig, plain dict, or a Structured Config class or instance\" before "
                        f"training. Instantiate the elements one by one (`[instantiate(c) for c in "
                        f"{ast.unparse(call.args[0])}]`), or pin hydra-core>=1.2", evidence=evidence)
                    break
