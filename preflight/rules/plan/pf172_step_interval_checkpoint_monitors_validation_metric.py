"""PF172 step-interval-checkpoint-monitors-validation-metric: ``ModelCheckpoint(monitor=K,
every_n_train_steps=N)`` where the fitted module logs K only in its validation hooks."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

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


def _validation_hook(name: str) -> bool:
    return name.startswith(("validation_", "on_validation_"))


def _positive_literal(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value > 0


def _step_checkpoints(pctx: PlanContext) -> list[tuple[ParsedPython, ast.keyword, str]]:
    """(script, its ``every_n_train_steps`` keyword, monitored key) of every ``ModelCheckpoint`` call
    with a literal string monitor and a positive literal step interval."""
    out: list[tuple[ParsedPython, ast.keyword, str]] = []
    for script in pctx.scripts:
        text = script.text if script.text is not None else script.source.text
        if not text or "every_n_train_steps" not in text:
            continue
        for site in pctx.index(script).calls:
            if site.last != "ModelCheckpoint":
                continue
            kws = {k.arg: k for k in site.call.keywords if k.arg is not None}
            monitor, steps = kws.get("monitor"), kws.get("every_n_train_steps")
            if monitor is None or steps is None or not _positive_literal(steps.value):
                continue
            if isinstance(monitor.value, ast.Constant) and isinstance(monitor.value.value, str):
                out.append((script, steps, monitor.value.value))
    return out


def _where_logged(trees: list[ast.AST]) -> Optional[dict[str, list[str]]]:
    """Each function (by name) of the trees and the key patterns its ``log``/``log_dict`` calls write,
    or None when some key is not written out."""
    found: dict[str, list[str]] = {}
    for tree in trees:
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            logs = LoggedKeys()
            logs.read(fn)
            if not logs.complete:
                return None
            found.setdefault(fn.name, []).extend(logs.patterns)
    return found


# a monitored key named as a validation metric (``val/loss_simple_ema``, ``val_loss``, ``valid/acc``)
_VALIDATION_NAME = re.compile(r"(val|valid|validation)[/_.-]\w", re.IGNORECASE)


def _matches(patterns: list[str], key: str) -> bool:
    stem = re.sub(r"_(step|epoch)$", "", key)
    return any(re.fullmatch(p, key) or re.fullmatch(p, stem) for p in patterns)


@register
class StepIntervalCheckpointMonitorsValidationMetric(PlanRule):
    code = "PF172"
    name = "step-interval-checkpoint-monitors-validation-metric"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("`ModelCheckpoint(monitor=..., every_n_train_steps=N)` monitors a metric the module logs only "
               "during validation: each save is ranked with a stale (or missing) score")
    explanation = """
## What it finds

A Lightning `ModelCheckpoint(monitor="val/auroc", every_n_train_steps=500)` (a literal key
and a positive literal step interval) in a job whose fitted `LightningModule` (its whole
class hierarchy in view) logs that key only from validation hooks (`validation_step`,
`on_validation_epoch_end`, any `validation_*`/`on_validation_*` method) and from nowhere
else.

## Why it matters

With `every_n_train_steps` the callback saves and ranks checkpoints in
`on_train_batch_end`, at training-step boundaries, before the validation run that the same
step triggers (Lightning issue 20919: "the checkpointing is done before the validation
computation step"). The monitored validation key is then either absent (the first check
warns that it cannot find it and the top-k ranking is skipped) or the previous
validation's value: every save pairs newer weights with an older score, so the file kept as
"best" (`best_model_path`, `ckpt_path="best"`) is not the model that scored best.

## How to fix it

Drop `every_n_train_steps` (the callback then runs after each validation, on the fresh
score), or keep a second, unmonitored `ModelCheckpoint(every_n_train_steps=N,
save_top_k=-1)` for periodic snapshots and rank the best model on validation end.

## When preflight stays silent

* The key is also logged outside the validation hooks (a training metric, a shared helper
  method, a callback), or some logged key is not written out.
* No step interval, `every_n_train_steps=0`, or an interval that is not a literal.
* The fitted module's class (or one of its bases) is not in view, unless the monitored key is
  named as a validation metric (`val/...`, `val_...`, `valid_...`, `validation/...`) and the
  fitted module cannot be found at all (`instantiate_from_config(config.model)`, a class of an
  installed package): the key is then taken to be logged in validation
  (lorenzo-stacchio/Stable-Diffusion-Inpaint issue 8: `monitor="val/loss_simple_ema",
  every_n_train_steps=5000` stopped with "could not find the monitored key").
"""
    bad_examples = examples("preflight.rules.plan._pf172_examples", "BAD")
    good_examples = examples("preflight.rules.plan._pf172_examples", "GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        checkpoints = _step_checkpoints(pctx)
        if not checkpoints:
            return
        scripts = pctx.scripts
        fitted = fitted_modules(scripts)
        classes = module_classes(scripts)
        trees: list[ast.AST] = [script.tree for script in scripts]
        for name in fitted:
            if name not in classes:
                got = imported_module_class(pctx, name)
                if got is not None:
                    classes[name] = got
                    trees.append(got)
        if not fitted or not all(name in classes for name in fitted):
            # the fitted module is not in view (``instantiate_from_config(config.model)``, an imported
            # package's class): a key named as a validation metric is taken to be logged in validation
            if any(".fit(" in (script.source.text or "") for script in scripts):
                yield from self._unseen_module(pctx, checkpoints)
            return
        if not all(lightning_class(name, classes) for name in fitted):
            return
        logged = _where_logged(trees)
        if logged is None:
            return
        validation = [p for fn, pats in logged.items() if _validation_hook(fn) for p in pats]
        other = [p for fn, pats in logged.items() if not _validation_hook(fn) for p in pats]
        for script, steps, key in checkpoints:
            if not _matches(validation, key) or _matches(other, key):
                continue
            interval = ast.unparse(steps.value)
            yield pctx.code_finding(
                self, script, steps.value,
                f"this ModelCheckpoint saves every {interval} training steps and ranks the saves by `{key}`, which "
                "the module logs only in its validation hooks: the step-interval check runs at the training-step "
                "boundary, before the validation that produces the key, so each save is ranked with the previous "
                "validation's score (or none yet) and the \"best\" checkpoint is not the model that scored best "
                "(Lightning issue 20919). Drop `every_n_train_steps` to rank on validation end, or keep a separate "
                "unmonitored step-interval checkpoint")

    def _unseen_module(self, pctx: PlanContext,
                       checkpoints: list[tuple[ParsedPython, ast.keyword, str]]) -> Iterable[Finding]:
        for script, steps, key in checkpoints:
            if not _VALIDATION_NAME.match(key):
                continue
            interval = ast.unparse(steps.value)
            yield pctx.code_finding(
                self, script, steps.value,
                f"this ModelCheckpoint saves every {interval} training steps and ranks the saves by `{key}`, a "
                "validation metric by its name (the fitted module is not in view): the step-interval check runs at "
                "the training-step boundary, so until a validation has run the key is missing (\"could not find "
                "the monitored key\"; an error once validation has run, Stable-Diffusion-Inpaint issue 8) and "
                "afterwards each save is ranked with the previous validation's score (Lightning issue 20919). Drop "
                "`every_n_train_steps` to rank on validation end, or keep a separate unmonitored step-interval "
                "checkpoint")
