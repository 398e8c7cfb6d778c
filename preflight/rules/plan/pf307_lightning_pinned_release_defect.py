"""PF307 lightning-pinned-release-defect: a job whose configuration triggers a documented defect of the
Lightning release the project pins (epoch schedulers stepped only on validation epochs before 1.4,
EarlyStopping checked before validation on 1.4.0-1.4.4, scheduler state lost by a DeepSpeed resume
before 1.5.9)."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples
from preflight.sources import ParsedPython

_PACKAGES = ("pytorch-lightning", "pytorch_lightning", "lightning")
_SCHEDULER_WORDS = ("LR", "lr_scheduler", "Scheduler", "schedule")


def _pinned(pctx: PlanContext, script: ParsedPython) -> Optional[Any]:
    for package in _PACKAGES:
        found = pctx.version(package, script)
        if found is not None:
            return found if found.how == "pinned" else None
    return None


def _in(version: Any, low: tuple[int, ...], high: tuple[int, ...]) -> bool:
    return version.at_least(*low) and not version.at_least(*high)


def _int_value(pctx: PlanContext, script: ParsedPython, node: Optional[ast.AST]) -> Optional[int]:
    if node is None:
        return None
    found = pctx.index(script).resolve(node)
    value = found.value if found is not None else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _schedulers(pctx: PlanContext) -> list[tuple[ParsedPython, ast.FunctionDef, bool]]:
    """Every ``configure_optimizers`` that builds an LR scheduler: (script, function, stepped per epoch),
    per epoch unless it says ``"interval": "step"`` or the scheduler is ReduceLROnPlateau (which is
    meant to follow validation)."""
    out = []
    for script in pctx.scripts:
        for fn in ast.walk(script.tree):
            if not isinstance(fn, ast.FunctionDef) or fn.name != "configure_optimizers":
                continue
            names = [call_last(c) for c in ast.walk(fn) if isinstance(c, ast.Call)]
            if not any(any(w in n for w in _SCHEDULER_WORDS) for n in names):
                continue
            per_step = any(isinstance(c, ast.Constant) and c.value == "step" for c in ast.walk(fn))
            plateau = "ReduceLROnPlateau" in names
            out.append((script, fn, not per_step and not plateau))
    return out


def _defines(pctx: PlanContext, name: str) -> bool:
    return any(isinstance(fn, ast.FunctionDef) and fn.name == name
               for script in pctx.scripts for fn in ast.walk(script.tree))


def _deepspeed_strategy(call: ast.Call) -> bool:
    for key in ("strategy", "plugins", "accelerator"):
        value = kwarg(call, key)
        if value is None:
            continue
        for node in ast.walk(value):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("deepspeed"):
                return True
            if isinstance(node, ast.Call) and call_last(node) in ("DeepSpeedPlugin", "DeepSpeedStrategy"):
                return True
    return False


def _given(node: Optional[ast.AST]) -> bool:
    return node is not None and not (isinstance(node, ast.Constant) and node.value is None)


@register
class LightningPinnedReleaseDefect(PlanRule):
    code = "PF307"
    name = "lightning-pinned-release-defect"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("the job's Trainer settings trigger a known defect of the pinned Lightning release (epoch "
               "schedulers before 1.4, EarlyStopping on 1.4.0-1.4.4, DeepSpeed resume before 1.5.9)")
    explanation = """
## What it finds

A project that pins `pytorch-lightning` (or `lightning`) to a release with one of these
documented defects, and a job that triggers it:

* **Before 1.4** (1.2.x, 1.3.x): `Trainer(check_val_every_n_epoch=N)` with N > 1, a module
  with a validation loop and an epoch-interval LR scheduler (not `"interval": "step"`, not
  ReduceLROnPlateau). Epoch schedulers were stepped from the validation loop, so the scheduler
  advances once every N epochs: a StepLR(step_size=30) with N=10 decays at epoch 300, never in
  a 100-epoch run (Lightning issues 6616, 7538, 7737; fixed by PR 7357 in 1.4: "the lr
  scheduler now steps at the end of epoch unconditionally").
* **1.4.0 to 1.4.4**: `EarlyStopping(...)` without `check_on_train_epoch_end` while the Trainer
  validates every N > 1 epochs. 1.4 made the check run at the end of every training epoch by
  default (PR 8286), before any validation has logged the monitored metric, so the run stops
  with "Early stopping conditioned on metric ... which is not available" after epoch 0 (issue
  9151; PR 9156 turns the train-epoch-end check off when `check_val_every_n_epoch > 1`).
* **Before 1.5.9** (1.2 to 1.5.8): a DeepSpeed strategy (`strategy="deepspeed_stage_2"`,
  `plugins=DeepSpeedPlugin(...)`) resumed from a checkpoint (`fit(..., ckpt_path=...)`,
  `resume_from_checkpoint=`) with an LR scheduler in `configure_optimizers`. The strategy
  neither wrote the scheduler state into its checkpoint nor restored it (issue 11188; PRs 11307
  and 11322, released in 1.5.9), so each resumed run starts the warmup and decay again from
  step 0 while weights and optimizer state are restored.

## How to fix it

Upgrade the pin past the fix (1.4, 1.4.5, 1.5.9), or work around it on the pinned release:
validate every epoch; pass `EarlyStopping(..., check_on_train_epoch_end=False)`; do not
resume DeepSpeed runs that use a scheduler (or restore the scheduler's step yourself).

## When preflight stays silent

* Lightning is not pinned (only a lower bound, or nothing), or the pin is outside the range.
* The validation interval is 1 or not known statically; the scheduler steps per step or is
  ReduceLROnPlateau; `check_on_train_epoch_end` is given; the resume path is a literal None;
  no scheduler is built.
"""
    bad_examples = examples("preflight.rules.plan._pf307_examples", "PF307_BAD")
    good_examples = examples("preflight.rules.plan._pf307_examples", "PF307_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        schedulers: Optional[list[tuple[ParsedPython, ast.FunctionDef, bool]]] = None
        for script in pctx.scripts:
            idx = pctx.index(script)
            trainers = [c for c in ast.walk(script.tree) if isinstance(c, ast.Call) and call_last(c) == "Trainer"
                        and (idx.qualify(ast.unparse(c.func)) or "").startswith(("pytorch_lightning", "lightning"))]
            if not trainers:
                continue
            version = _pinned(pctx, script)
            if version is None:
                continue
            if schedulers is None:
                schedulers = _schedulers(pctx)
            for trainer in trainers:
                yield from self._check(pctx, script, trainer, version, schedulers)

    def _check(self, pctx: PlanContext, script: ParsedPython, trainer: ast.Call, version: Any,
               schedulers: list[tuple[ParsedPython, ast.FunctionDef, bool]]) -> Iterable[Finding]:
        every = kwarg(trainer, "check_val_every_n_epoch")
        n = _int_value(pctx, script, every)
        pin = version.describe()
        if n is not None and n > 1 and every is not None:
            epochwise = [fn for _, fn, per_epoch in schedulers if per_epoch]
            if _in(version, (1, 2), (1, 4)) and epochwise and _defines(pctx, "validation_step"):
                yield pctx.code_finding(self, script, every, (
                    f"`check_val_every_n_epoch={n}` on {pin}: before 1.4 Lightning steps epoch-interval LR "
                    f"schedulers from the validation loop, so the scheduler of `configure_optimizers` "
                    f"(line {epochwise[0].lineno}) advances once every {n} epochs and its schedule runs {n}x "
                    "slower than written (Lightning issue 7737, fixed in 1.4). Upgrade to >= 1.4 or validate "
                    "every epoch"))
            if _in(version, (1, 4), (1, 4, 5)):
                for call in ast.walk(script.tree):
                    if isinstance(call, ast.Call) and call_last(call) == "EarlyStopping" \
                            and kwarg(call, "check_on_train_epoch_end") is None \
                            and not any(kw.arg is None for kw in call.keywords):
                        yield pctx.code_finding(self, script, call, (
                            f"`EarlyStopping` with `check_val_every_n_epoch={n}` on {pin}: 1.4.0-1.4.4 run the "
                            "check at the end of every training epoch, before any validation has logged the "
                            "monitored metric, so the run stops after epoch 0 (\"Early stopping conditioned on "
                            "metric ... which is not available\", Lightning issue 9151, fixed in 1.4.5). Pass "
                            "`check_on_train_epoch_end=False` or upgrade"),
                            evidence=[pctx.code_evidence(script, every, "validation every few epochs",
                                                         same_file=True)])
        if _in(version, (1, 2), (1, 5, 9)) and _deepspeed_strategy(trainer) and schedulers:
            resume = self._resume(script, trainer)
            if resume is not None:
                _, fn, _ = schedulers[0]
                yield pctx.code_finding(self, script, resume, (
                    f"a DeepSpeed strategy resumed from a checkpoint on {pin}: before 1.5.9 the strategy neither "
                    "saves nor restores the LR scheduler state (Lightning issue 11188, PRs 11307/11322), so the "
                    f"scheduler of `configure_optimizers` (line {fn.lineno}) restarts its warmup and decay from "
                    "step 0 at each resume while weights and optimizer are restored. Upgrade to >= 1.5.9"),
                    evidence=[pctx.code_evidence(script, trainer, "the DeepSpeed Trainer", same_file=True)])

    @staticmethod
    def _resume(script: ParsedPython, trainer: ast.Call) -> Optional[ast.AST]:
        if _given(kwarg(trainer, "resume_from_checkpoint")):
            return trainer
        for call in ast.walk(script.tree):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "fit" \
                    and _given(kwarg(call, "ckpt_path")):
                return call
        return None
