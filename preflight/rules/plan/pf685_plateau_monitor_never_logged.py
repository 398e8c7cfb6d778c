"""PF685 plateau-monitor-never-logged: a ``ReduceLROnPlateau`` scheduler config whose ``monitor`` names a key
that no ``self.log``/``log_dict`` call of the fitted LightningModule writes."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples
from preflight.rules.plan._logged_keys import (
    LoggedKeys,
    fitted_modules,
    imported_module_class,
    lightning_class,
    module_classes,
)
from preflight.sources import ParsedPython

# hooks whose returned dict fed the callback metrics before Lightning 1.0 (`{"val_loss": ..., "log": ...}`)
_OLD_RESULT_HOOKS = ("training_step", "validation_step", "validation_end", "validation_epoch_end",
                     "training_epoch_end", "training_end", "validation_step_end", "training_step_end")


def _const(node: Optional[ast.AST]) -> object:
    return node.value if isinstance(node, ast.Constant) else None


def _plateau_monitors(fn: ast.AST) -> list[tuple[ast.Constant, str]]:
    """(node, key) of the literal ``"monitor"`` of each scheduler dict of ``configure_optimizers`` when it
    builds a ``ReduceLROnPlateau`` and the dict does not turn ``strict`` off."""
    if not any(isinstance(c, ast.Call) and call_last(c) == "ReduceLROnPlateau" for c in ast.walk(fn)):
        return []
    out = []
    for node in ast.walk(fn):
        if not isinstance(node, ast.Dict):
            continue
        keys = {_const(k): v for k, v in zip(node.keys, node.values) if k is not None}
        monitor = keys.get("monitor")
        if not (isinstance(monitor, ast.Constant) and isinstance(monitor.value, str)):
            continue
        if not ("scheduler" in keys or "lr_scheduler" in keys):
            continue
        if "strict" in keys and _const(keys["strict"]) is not True:
            continue
        out.append((monitor, monitor.value))
    return out


def _old_results(cls: ast.ClassDef) -> bool:
    """A hook returns a dict other than ``{"loss": ...}`` (pre-1.0 result dicts reach the callback metrics)."""
    for fn in cls.body:
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.name in _OLD_RESULT_HOOKS:
            for ret in ast.walk(fn):
                if isinstance(ret, ast.Return) and isinstance(ret.value, ast.Dict) \
                        and [_const(k) for k in ret.value.keys] != ["loss"]:
                    return True
    return False


@register
class PlateauMonitorNeverLogged(PlanRule):
    code = "PF685"
    name = "plateau-monitor-never-logged"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("a `ReduceLROnPlateau` scheduler monitors a key that no `self.log` call of the module writes: "
               "Lightning stops at the end of the first epoch")
    explanation = """
## What it finds

`configure_optimizers` of the fitted LightningModule builds a `ReduceLROnPlateau` and
returns it in a scheduler dict whose `"monitor"` is a key none of the module's
`self.log(...)` / `self.log_dict({...})` calls writes. Keys of a dict that a helper
method returns and a step hands to `self.log_dict` are read too, an f-string part naming
a parameter taking the call site's literal (`self.compute_stats(out, prefix="train")`
with `f"{prefix}_loss"` logs `train_loss`, not `val_loss`).

## Why it matters

Lightning reads the monitored value from the logged metrics when it steps the plateau
scheduler, at the end of the first training epoch, and stops with
"MisconfigurationException: ReduceLROnPlateau conditioned on metric val_loss which is not
available. Available metrics are: [...]" (EquiCSP issue 1: validation logged
`val_total_loss`, the scheduler monitored `val_loss`). The first epoch is lost, and with
it the queue time of the job.

## How to fix it

Monitor a key the module logs (`"monitor": "val_total_loss"`), or log the key the
scheduler monitors.

## When preflight stays silent

* A logged key is not written out (a name from another module, a dict built elsewhere,
  an f-string whose part is not a literal at the call site is matched as a wildcard).
* The fitted module's class, or one of its bases, is not in the audited scripts.
* `"strict": False` in the scheduler dict (Lightning then warns and skips the step).
* A hook returns a result dict (pre-1.0 Lightning put its keys in the callback metrics).
* The monitor is not a string literal.
"""
    bad_examples = examples("preflight.rules.plan._pf685_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf685_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        scripts = pctx.scripts
        if not any("ReduceLROnPlateau" in (s.source.text or "") for s in scripts):
            return
        fitted = fitted_modules(scripts)
        classes = module_classes(scripts)
        trees: list[ast.AST] = [script.tree for script in scripts]
        for name in fitted:
            if name not in classes:
                found = imported_module_class(pctx, name)
                if found is not None:
                    classes[name] = found
                    trees.append(found)
        if not fitted or not all(lightning_class(name, classes) for name in fitted):
            return
        if any(_old_results(cls) for cls in classes.values()):
            return
        monitors: list[tuple[ParsedPython, ast.Constant, str]] = []
        for script in scripts:
            for cls in ast.walk(script.tree):
                if not isinstance(cls, ast.ClassDef) or cls.name not in fitted:
                    continue
                for fn in cls.body:
                    if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.name == "configure_optimizers":
                        monitors.extend((script, node, key) for node, key in _plateau_monitors(fn))
        if not monitors:
            return
        logs = LoggedKeys()
        for tree in trees:
            logs.read(tree, follow_helpers=True)
        if not logs.complete or not logs.patterns:
            return
        for script, node, key in monitors:
            if logs.has(key):
                continue
            yield pctx.code_finding(
                self, script, node,
                f"ReduceLROnPlateau monitors \"{key}\", but no `self.log`/`log_dict` call of the fitted module "
                f"({', '.join(sorted(set(fitted)))}) writes that key: Lightning stops at the end of the first "
                f"training epoch with \"ReduceLROnPlateau conditioned on metric {key} which is not available\". "
                "Monitor a key the module logs, or log this one")
