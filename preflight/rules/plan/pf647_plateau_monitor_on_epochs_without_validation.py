"""PF647 plateau-monitor-on-epochs-without-validation: a ReduceLROnPlateau that monitors a validation
metric and is stepped every epoch, while the Trainer validates only every N > 1 epochs: the first epoch
without validation stops the run."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples
from preflight.rules.plan._pinned_release import pinned_lightning
from preflight.sources import ParsedPython

_TRAIN_HOOKS = ("training_step", "on_train_epoch_end", "training_epoch_end", "on_train_batch_end",
                "training_step_end", "on_before_optimizer_step", "on_train_epoch_start")
_VAL_HOOKS = ("validation_step", "on_validation_epoch_end", "validation_epoch_end", "validation_step_end",
              "on_validation_batch_end")


def _const(node: Optional[ast.AST]) -> Any:
    return node.value if isinstance(node, ast.Constant) else None


def _dict_keys(node: ast.Dict) -> dict[str, ast.expr]:
    return {k.value: v for k, v in zip(node.keys, node.values)
            if isinstance(k, ast.Constant) and isinstance(k.value, str)}


def _plateau_configs(fn: ast.FunctionDef) -> list[tuple[ast.Dict, str, int]]:
    """(dict, monitored key, frequency) of each scheduler config of ``configure_optimizers`` that steps a
    ReduceLROnPlateau per epoch and raises when the metric is missing (``strict`` not False)."""
    if not any(isinstance(c, ast.Call) and call_last(c) == "ReduceLROnPlateau" for c in ast.walk(fn)):
        return []
    out = []
    for node in ast.walk(fn):
        if not isinstance(node, ast.Dict):
            continue
        keys = _dict_keys(node)
        monitor = _const(keys.get("monitor"))
        if not isinstance(monitor, str) or not ("scheduler" in keys or "lr_scheduler" in keys):
            continue
        interval = keys.get("interval")
        frequency = keys.get("frequency")
        strict = keys.get("strict")
        if (interval is not None and _const(interval) != "epoch") or (strict is not None and _const(strict) is not True):
            continue
        freq = 1 if frequency is None else _const(frequency)
        if not isinstance(freq, int) or isinstance(freq, bool) or freq < 1:
            continue
        out.append((node, monitor, freq))
    return out


def _logged_in(cls: ast.ClassDef, hooks: tuple[str, ...]) -> set[str]:
    """The keys ``self.log("key", ...)`` / ``self.log_dict({"key": ...})`` writes in the class's ``hooks``;
    ``"*"`` when a key is not a literal."""
    keys: set[str] = set()
    for fn in cls.body:
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.name not in hooks:
            continue
        for call in ast.walk(fn):
            if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
                continue
            if call.func.attr == "log" and call.args:
                key = _const(call.args[0])
                keys.add(key if isinstance(key, str) else "*")
            elif call.func.attr == "log_dict":
                arg = call.args[0] if call.args else None
                if isinstance(arg, ast.Dict):
                    keys.update(k if isinstance(k, str) else "*" for k in (_const(x) for x in arg.keys))
                else:
                    keys.add("*")
    return keys


def _matches(monitor: str, keys: set[str]) -> bool:
    """``monitor`` is one of ``keys``, or a key logged with both ``on_step`` and ``on_epoch``
    (Lightning then writes ``key_step`` and ``key_epoch``)."""
    base = monitor[:-6] if monitor.endswith("_epoch") else monitor[:-5] if monitor.endswith("_step") else monitor
    return monitor in keys or base in keys


def _int_kwarg(pctx: PlanContext, script: ParsedPython, call: ast.Call, name: str) -> Optional[tuple[int, ast.AST]]:
    node = kwarg(call, name)
    if node is None:
        return None
    found = pctx.index(script).resolve(node)
    value = found.value if found is not None else None
    if isinstance(value, int) and not isinstance(value, bool):
        return value, node
    return None


@register
class PlateauMonitorOnEpochsWithoutValidation(PlanRule):
    code = "PF647"
    name = "plateau-monitor-on-epochs-without-validation"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("a ReduceLROnPlateau monitoring a validation metric is stepped every epoch while the Trainer "
               "validates every N > 1 epochs: the end of the first epoch without validation raises")
    explanation = """
## What it finds

A LightningModule whose `configure_optimizers` returns a ReduceLROnPlateau config
(`{"scheduler": ..., "monitor": "val/acc_epoch"}`) stepped every epoch (`"interval"`
`"epoch"`, the default, with `"frequency"` 1, the default, or any frequency that is not a
multiple of N), monitoring a metric the module logs only in its validation hooks, while the
`Trainer(check_val_every_n_epoch=N)` it is fitted with validates every N > 1 epochs.

## Why it matters

At the end of every training epoch Lightning steps the epoch-interval schedulers whose
`frequency` divides the epoch number (`training_epoch_loop._update_learning_rates`, read in
the 1.5 to 2.6 releases; 1.4's `optimizer_connector.update_learning_rates`, called at the
training epoch loop's end). A ReduceLROnPlateau needs its monitored value then; at the end of
epoch 0 no validation has run, the metric is not in `trainer.callback_metrics`, and with
`strict` at its default (True) the run stops with `MisconfigurationException:
ReduceLROnPlateau conditioned on metric val/acc_epoch which is not available` (Lightning
issue 10496). The job dies after its first epoch.

## How to fix it

Step the scheduler on the validation epochs only: `"frequency": N` (a multiple of
`check_val_every_n_epoch`); or validate every epoch; or monitor a training metric; or
`"strict": False` to skip the steps without the metric (with a warning each time).

## When preflight stays silent

* `check_val_every_n_epoch` is 1, absent, or not a literal; the frequency is a multiple of it.
* A pinned Lightning before 1.4: epoch schedulers were stepped from the validation loop then
  (they advance once every N epochs instead, PF307's defect), so the metric is there.
* `"interval": "step"`, `"strict": False`, a frequency or interval that is not a literal.
* The monitored key is also logged in a training hook (`training_step`,
  `on_train_epoch_end`), is not logged by a literal key anywhere in the module, or the
  module logs keys it builds at run time.
* No ReduceLROnPlateau in `configure_optimizers`; a Trainer that is not Lightning's.
"""
    bad_examples = examples("preflight.rules.plan._pf647_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf647_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        every: list[tuple[ParsedPython, int, ast.AST]] = []
        for script in pctx.scripts:
            idx = pctx.index(script)
            for call in ast.walk(script.tree):
                if not isinstance(call, ast.Call) or call_last(call) != "Trainer":
                    continue
                if not (idx.qualify(ast.unparse(call.func)) or "").startswith(("pytorch_lightning", "lightning")):
                    continue
                found = _int_kwarg(pctx, script, call, "check_val_every_n_epoch")
                version = pinned_lightning(pctx, script)
                if version is not None and not version.at_least(1, 4):
                    continue  # before 1.4 epoch schedulers were stepped from the validation loop (PF307's case)
                if found is not None:
                    every.append((script, *found))
        if not every or len({n for _, n, _ in every}) != 1:
            return
        n = every[0][1]
        if n <= 1:
            return
        for script in pctx.scripts:
            for cls in ast.walk(script.tree):
                if not isinstance(cls, ast.ClassDef):
                    continue
                fn = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "configure_optimizers"),
                          None)
                if fn is None:
                    continue
                train_keys = _logged_in(cls, _TRAIN_HOOKS)
                val_keys = _logged_in(cls, _VAL_HOOKS)
                if "*" in train_keys or "*" in val_keys:
                    continue
                for node, monitor, freq in _plateau_configs(fn):
                    if freq % n == 0 or _matches(monitor, train_keys) or not _matches(monitor, val_keys):
                        continue
                    trainer_script, _, where = every[0]
                    evidence = [pctx.code_evidence(trainer_script, where,
                                                   f"the Trainer validates every {n} epochs")]
                    yield pctx.code_finding(self, script, node, (
                        f"this ReduceLROnPlateau monitors `{monitor}`, which {cls.name} logs only in its validation "
                        f"hooks, and is stepped every {'epoch' if freq == 1 else f'{freq} epochs'}, but the Trainer "
                        f"validates every {n} epochs (`check_val_every_n_epoch={n}`): at the end of the first epoch "
                        f"without validation the metric is missing and Lightning stops the run (\"ReduceLROnPlateau "
                        f"conditioned on metric {monitor} which is not available\"). Set `\"frequency\": {n}` so it "
                        f"steps on the validation epochs, or validate every epoch"), evidence=evidence)
