"""PF507 hydra-missing-value: a ``???`` (mandatory) value that the launch leaves unset."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_app_support import config_chain, hydra_main_function


def _filled_at_runtime(app: object, path: tuple[str, ...]) -> bool:
    """The ``@hydra.main`` function assigns the key (``cfg.model.vocab_size = ...``) before it
    reads the key or a node above it (``cfg.model``)."""
    script = getattr(app, "script", None)
    if script is None or getattr(app, "how", None) != "@hydra.main":
        return False
    fn = hydra_main_function(script, getattr(app, "line", None))
    if fn is None:
        return False
    root = fn.args.args[0].arg
    assigned: Optional[int] = None
    for node in ast.walk(fn):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if config_chain(target, root) == path and (assigned is None or node.lineno < assigned):
                    assigned = node.lineno
    if assigned is None:
        return False
    for node in ast.walk(fn):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and node.lineno < assigned:
            chain = config_chain(node, root)
            if chain is not None and chain == path[:len(chain)]:
                return False
    return True


@register
class HydraMissingValue(PlanRule):
    code = "PF507"
    name = "hydra-missing-value"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = "A Hydra config value is `???` (mandatory) and the launch command does not set it"
    explanation = """
## What it finds

A key of the composed Hydra config of a `@hydra.main` app (its primary config, the
defaults list and the launch's overrides after `--`, composed the way Hydra does)
whose value is still `???`, OmegaConf's marker for a mandatory value.

## Why it matters

`???` means "must be given": OmegaConf raises `MissingMandatoryValue` the moment
the app reads the key or instantiates the node that holds it. The job starts,
maybe builds its data and model, and stops there, after it waited in the queue
for its GPUs.

## How to fix it

Give the value on the command line (`python train.py model.lr=3e-4`), in an
experiment config that the defaults list selects, or as a default in the file.

## When preflight stays silent

* An override after `--` (`key=value`, `+key=value`) or a later config sets it.
* The app's `@hydra.main` function assigns the key (`cfg.model.vocab_size = len(vocab)`)
  before it reads the key or a node above it (`cfg.model`): the value is filled in at
  runtime, the pattern Hydra's maintainers recommend for values computed by the app.
* The config is not composed (the composition itself failed: that is reported as
  an error of the audit).
"""
    bad_examples = examples("preflight.rules.plan._pf50x_examples", "PF507_BAD")
    good_examples = examples("preflight.rules.plan._pf50x_examples", "PF507_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        try:
            from preflight.adapters.hydra import Composed, compositions
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        for comp in compositions(pctx.project):
            if not isinstance(comp, Composed):
                continue
            app = comp.app
            for path, file, line in comp.missing:
                if _filled_at_runtime(app, tuple(path)):
                    continue
                key = ".".join(path)
                message = (f"`{key}` is `???` (mandatory) in the composed Hydra config and the launch does not "
                           "set it: OmegaConf raises MissingMandatoryValue as soon as the app reads it. Give it "
                           f"on the command line (`{key}=...`) or in the config")
                evidence = []
                if app.script is not None and app.line is not None:
                    evidence.append(Evidence(line=app.line, path=app.script.source.display,
                                             message=f"{app.how} composes this config"))
                if file is not None and line is not None:
                    yield pctx.location_finding(self, file, line, message, evidence=evidence)
                elif app.script is not None and app.line is not None:
                    yield pctx.location_finding(self, app.script.source.display, app.line, message,
                                                evidence=evidence)
