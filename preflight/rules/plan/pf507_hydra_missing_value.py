"""PF507 hydra-missing-value: a ``???`` (mandatory) value that the launch leaves unset."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples


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
* The config is not composed (the composition itself failed: that is reported as
  an error of the audit).
* The script that composes the config assigns the key before it is used
  (`cfg.obs_shape = obs_spec.shape`, `cfg["obs_shape"] = ...`, `setattr(cfg, "obs_shape", ...)`
  on any object: facebookresearch/drqv2 `train.py:28-31` fills `agent.obs_shape: ???` this way
  before `hydra.utils.instantiate`).
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
            assigned = _assigned_names(app.script.tree) if app.script is not None else set()
            for path, file, line in comp.missing:
                if path and path[-1] in assigned:
                    continue  # the script fills it in before use
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


def _assigned_names(tree: ast.AST) -> set[str]:
    """Attribute and string-key names the script assigns on any object: ``x.name = ...``,
    ``x["name"] = ...``, ``setattr(x, "name", ...)``."""
    names: set[str] = set()
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr" \
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) \
                and isinstance(node.args[1].value, str):
            names.add(node.args[1].value)
        for target in targets:
            if isinstance(target, ast.Attribute):
                names.add(target.attr)
            elif isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant) \
                    and isinstance(target.slice.value, str):
                names.add(target.slice.value)
    return names
