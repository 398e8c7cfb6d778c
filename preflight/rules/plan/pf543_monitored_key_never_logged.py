"""PF543 monitored-key-never-logged: a checkpoint/early-stopping monitor no ``self.log`` call writes."""

from __future__ import annotations

import ast
import re
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._logged_keys import (
    LoggedKeys,
    fitted_modules,
    imported_module_class,
    lightning_class,
    module_classes,
)
from preflight.sources import ParsedPython

_MONITORS = ("ModelCheckpoint", "EarlyStopping")


def _yaml_monitors(pctx: PlanContext) -> list[tuple[str, int, str]]:
    """(file, line, key) of the ``monitor:`` of every ``ModelCheckpoint``/``EarlyStopping`` node
    (``_target_``) in the configs the job's Hydra apps compose."""
    try:
        from preflight.adapters.hydra import Composed, compositions
    except ImportError:  # pragma: no cover - the adapter ships with preflight
        return []
    out: list[tuple[str, int, str]] = []
    seen: set[tuple[str, int]] = set()
    for comp in compositions(pctx.project):
        if not isinstance(comp, Composed):
            continue
        for _item, loaded in comp.item_configs:
            todo: list[tuple[tuple, object]] = [((), loaded.data)]
            while todo:
                path, node = todo.pop()
                if isinstance(node, dict):
                    target = node.get("_target_")
                    monitor = node.get("monitor")
                    if isinstance(target, str) and target.rsplit(".", 1)[-1] in _MONITORS \
                            and isinstance(monitor, str) and "${" not in monitor:
                        line = loaded.line_of((*path, "monitor")) or 1
                        if (loaded.path, line) not in seen:
                            seen.add((loaded.path, line))
                            out.append((loaded.path, line, monitor))
                    todo.extend(((*path, k), v) for k, v in node.items())
    return out


def _closest(key: str, logs: LoggedKeys) -> str:
    import difflib

    plain = [re.sub(r"\\(.)", r"\1", p) for p in logs.patterns if ".+" not in p]
    found = difflib.get_close_matches(key, plain, n=1, cutoff=0.6)
    return f" (`{found[0]}` is logged)" if found else ""


@register
class MonitoredKeyNeverLogged(PlanRule):
    code = "PF543"
    name = "monitored-key-never-logged"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = "`ModelCheckpoint`/`EarlyStopping` monitor a key that no `self.log` call of the module writes"
    explanation = """
## What it finds

`ModelCheckpoint(monitor="val/usdr")` or `EarlyStopping(monitor=...)` (in the code, or
as a `_target_` node with `monitor:` in a config the job's Hydra app composes, such as
`configs/callbacks/default.yaml`) with a key that none of the `self.log(...)` / `self.log_dict({...})` calls of the fitted
LightningModule writes (f-string keys are matched as patterns; `_step`/`_epoch`
suffixes and `epoch`/`step` count).

## Why it matters

Lightning looks the key up after the first validation epoch and stops with
"`ModelCheckpoint(monitor='val/usdr')` could not find the monitored key in the
returned metrics" (older versions warn and never save a best checkpoint): a full
epoch of training is lost, or the run finishes with no best model (SCNet-PyTorch
issue 2, Mask3D issue 144, sgmse issue 32, Lightning issue 20046).

## How to fix it

Log the key the callback monitors (`self.log("val/usdr", ...)`), or monitor a key
the module logs.

## When preflight stays silent

* A logged key is not written out (`self.log(name, ...)`, `self.log_dict(metrics)`):
  preflight cannot list the keys.
* The fitted module's class, or one of its bases, is neither among the audited scripts
  nor imported by them from a module of the project (`from pkg.models import Net`, one level).
* The monitor is not a string literal.
"""
    bad_examples = examples("preflight.rules.plan._pf543_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf543_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        scripts = pctx.scripts
        monitors: list[tuple[ParsedPython, ast.keyword, str]] = []
        for script in scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or "monitor" not in text:
                continue
            for site in pctx.index(script).calls:
                if site.last not in _MONITORS:
                    continue
                kw = next((k for k in site.call.keywords if k.arg == "monitor"), None)
                if kw is not None and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                    monitors.append((script, kw, kw.value.value))
        yaml_monitors = _yaml_monitors(pctx)
        if not monitors and not yaml_monitors:
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
        logs = LoggedKeys()
        for tree in trees:
            logs.read(tree)
        if not logs.complete or not logs.patterns:
            return
        for path, line, key in yaml_monitors:
            if logs.has(key):
                continue
            message = (f"`monitor: {key}` in this callback config, but no `self.log`/`log_dict` call of the fitted "
                       f"module ({', '.join(sorted(set(fitted)))}) writes that key: Lightning stops after the first "
                       "validation epoch with \"could not find the monitored key in the returned metrics\" (or, "
                       "in older versions, never saves a best checkpoint). Monitor the key the module logs"
                       f"{_closest(key, logs)}")
            yield pctx.location_finding(self, path, line, message)
        for script, kw, key in monitors:
            if logs.has(key):
                continue
            message = (f"`monitor=\"{key}\"`, but no `self.log`/`log_dict` call of the fitted module "
                       f"({', '.join(sorted(set(fitted)))}) writes that key: Lightning stops after the first "
                       "validation epoch with \"could not find the monitored key in the returned metrics\" (or, "
                       "in older versions, never saves a best checkpoint). Log the key, or monitor one the module "
                       "logs")
            yield pctx.code_finding(self, script, kw.value, message)
