"""PF648 checkpoint-never-saved-without-validation: a ModelCheckpoint in a project with no validation loop,
while the Trainer's validation cadence makes the callback save only at the end of a validation run: no
checkpoint is ever written."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples
from preflight.rules.plan._pinned_release import pinned_lightning, released_between
from preflight.sources import ParsedPython

_LIGHTNING = ("pytorch_lightning", "lightning")
_MODULE_BASES = ("LightningModule",)
# ModelCheckpoint arguments that make it save without a validation run
_OWN_SCHEDULE = ("save_on_train_epoch_end", "every_n_train_steps", "train_time_interval")


def _value(pctx: PlanContext, script: ParsedPython, node: Optional[ast.AST]) -> Any:
    if node is None:
        return None
    found = pctx.index(script).resolve(node)
    return found.value if found is not None else None


def _modules(pctx: PlanContext) -> Optional[list[ast.ClassDef]]:
    """The LightningModules of the project (classes with ``training_step``), None when one of them has a
    base class other than Lightning's (a project base class may define ``validation_step``)."""
    out = []
    for script in pctx.scripts:
        for cls in ast.walk(script.tree):
            if not isinstance(cls, ast.ClassDef):
                continue
            if not any(isinstance(f, ast.FunctionDef) and f.name == "training_step" for f in cls.body):
                continue
            bases = [ast.unparse(b).rsplit(".", 1)[-1] for b in cls.bases]
            if not bases or any(b not in _MODULE_BASES for b in bases):
                return None
            out.append(cls)
    return out


def _validates(pctx: PlanContext) -> bool:
    return any(isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.name == "validation_step"
               for script in pctx.scripts for f in ast.walk(script.tree))


@register
class CheckpointNeverSavedWithoutValidation(PlanRule):
    code = "PF648"
    name = "checkpoint-never-saved-without-validation"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("a ModelCheckpoint in a project without a validation loop, while `check_val_every_n_epoch` > 1 "
               "(or, on 1.4-1.8, `val_check_interval` != 1.0) makes it save only after validation: no checkpoint "
               "is ever written")
    explanation = """
## What it finds

A Lightning `Trainer(callbacks=[ModelCheckpoint(...)])` in a project whose
LightningModules define no `validation_step` (a pre-training or train-only job), where the
checkpoint callback leaves `save_on_train_epoch_end`, `every_n_train_steps` and
`train_time_interval` unset, and the Trainer's validation cadence makes the callback wait
for a validation run:

* any release from 1.5 on: `check_val_every_n_epoch` > 1;
* a pinned 1.4.x to 1.8.x: also `val_check_interval` other than 1.0 (`0.5`, `1000`).

## Why it matters

A ModelCheckpoint saves either at the end of each training epoch or at the end of each
validation run, and decides which when the fit starts. 1.4 to 1.8 set
`_save_on_train_epoch_end = trainer.val_check_interval == 1.0` (and, from 1.5, `and
trainer.check_val_every_n_epoch == 1`), without looking at whether the module validates at
all (`callbacks/model_checkpoint.py`, read at the 1.4.0, 1.5.0, 1.7.7 and 1.8.6 tags).
1.9 to 2.6 save at the training epoch end when there are no validation batches, but still
return False first when `check_val_every_n_epoch != 1` ("we can't say when the validation
dataloader will be loaded"). A module without `validation_step` never runs validation, so
such a callback never saves: the whole run ends without a checkpoint and without an error
(Lightning issue 15180, on 1.7.7: "no checkpoint is written at all and there is no error
message").

## How to fix it

`ModelCheckpoint(..., save_on_train_epoch_end=True)`, or `every_n_train_steps=N`; or drop
`val_check_interval` / `check_val_every_n_epoch` from a Trainer that has nothing to
validate; or add a validation loop.

## When preflight stays silent

* A `validation_step` anywhere in the project, or a LightningModule whose base class is not
  Lightning's own (it may validate).
* The callback sets `save_on_train_epoch_end`, `every_n_train_steps` or `train_time_interval`.
* `check_val_every_n_epoch` is 1 (or absent); `val_check_interval` is 1.0, or the pinned
  release is 1.9 or later (or not pinned: read as a current release); values that are not
  literals; a ModelCheckpoint not passed in the Trainer call.
"""
    bad_examples = examples("preflight.rules.plan._pf648_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf648_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        modules = _modules(pctx)
        if not modules or _validates(pctx):
            return
        for script in pctx.scripts:
            idx = pctx.index(script)
            for call in ast.walk(script.tree):
                if not isinstance(call, ast.Call) or call_last(call) != "Trainer":
                    continue
                if not (idx.qualify(ast.unparse(call.func)) or "").startswith(_LIGHTNING):
                    continue
                checkpoint = self._checkpoint(pctx, script, call)
                if checkpoint is None:
                    continue
                found = self._cadence(pctx, script, call)
                if found is None:
                    continue
                node, said, why = found
                evidence = [pctx.code_evidence(script, checkpoint, "this ModelCheckpoint saves only after validation")]
                yield pctx.code_finding(self, script, node, (
                    f"`{said}` while no LightningModule of the project defines `validation_step` ({modules[0].name} "
                    f"trains only): {why}, so the ModelCheckpoint saves only at the end of a validation run, which "
                    f"never comes; the run ends without a single checkpoint and without an error. Pass "
                    f"`save_on_train_epoch_end=True` (or `every_n_train_steps=`) to the ModelCheckpoint, or drop "
                    f"`{said.split('=')[0]}`"), evidence=evidence)

    @staticmethod
    def _checkpoint(pctx: PlanContext, script: ParsedPython, trainer: ast.Call) -> Optional[ast.Call]:
        """The ModelCheckpoint(...) call the Trainer's ``callbacks=`` list holds (directly or through a name
        bound once), when it has no saving schedule of its own."""
        value = kwarg(trainer, "callbacks")
        if isinstance(value, ast.Name):
            bound = pctx.index(script).assigns.get(value.id, [])
            value = bound[0] if len(bound) == 1 else None
        if not isinstance(value, (ast.List, ast.Tuple)):
            return None
        for item in value.elts:
            if isinstance(item, ast.Name):
                bound = pctx.index(script).assigns.get(item.id, [])
                item = bound[0] if len(bound) == 1 and bound[0] is not None else item
            if isinstance(item, ast.Call) and call_last(item) == "ModelCheckpoint":
                if any(kw.arg in _OWN_SCHEDULE or kw.arg is None for kw in item.keywords):
                    return None
                return item
        return None

    @staticmethod
    def _cadence(pctx: PlanContext, script: ParsedPython, trainer: ast.Call) -> Optional[tuple[ast.AST, str, str]]:
        version = pinned_lightning(pctx, script)
        every_node = kwarg(trainer, "check_val_every_n_epoch")
        every = _value(pctx, script, every_node)
        if every_node is not None and isinstance(every, int) and not isinstance(every, bool) and every > 1 \
                and (version is None or version.at_least(1, 5)):
            pin = version.describe() if version is not None else "Lightning 1.5 to 2.6"
            return every_node, f"check_val_every_n_epoch={every}", (
                f"on {pin} a ModelCheckpoint does not save at the training epoch end when "
                f"`check_val_every_n_epoch != 1`")
        interval_node = kwarg(trainer, "val_check_interval")
        interval = _value(pctx, script, interval_node)
        if interval_node is not None and isinstance(interval, (int, float)) and not isinstance(interval, bool) \
                and interval != 1.0 and version is not None and released_between(version, (1, 4), (1, 9)):
            return interval_node, f"val_check_interval={interval}", (
                f"on {version.describe()} a ModelCheckpoint saves at the training epoch end only when "
                f"`val_check_interval == 1.0`")
        return None
