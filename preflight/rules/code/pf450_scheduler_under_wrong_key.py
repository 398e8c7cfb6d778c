"""PF450 scheduler-under-wrong-key: ``configure_optimizers`` returns its scheduler under a key Lightning never reads."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import STEP_SCHEDULERS, call_last
from preflight.rules.base import Rule, examples

# the keys of the top-level dict Lightning reads (``_validate_optim_conf``); others are dropped with a warning
_READ = {"optimizer", "lr_scheduler", "monitor", "frequency"}
# the values Lightning accepts for a scheduler's ``interval``
_INTERVALS = ("step", "epoch")
_LIGHTNING = ("lightning.", "pytorch_lightning.")


def _fit_by_own_trainer(ctx: FileContext) -> bool:
    """The file fits its modules with a trainer that is not Lightning's: ``trainer.fit(...)`` on an object
    built from a class imported from elsewhere or defined here without a Lightning base, and no Lightning
    ``Trainer`` built in the file (Lightning's Fabric example ``build_your_own_trainer``: its
    ``MyCustomTrainer`` reads ``configure_optimizers()["scheduler"]`` itself)."""
    qualify = scope_index(ctx).imports.qualify
    classes = {c.name: c for c in ctx.nodes(ast.ClassDef)}
    built: dict[str, ast.Call] = {}
    for node in ctx.nodes(ast.Assign):
        if isinstance(node.value, ast.Call) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            built[node.targets[0].id] = node.value

    def lightning(call: ast.Call) -> Optional[bool]:
        """True: Lightning's Trainer (or a class of this file deriving from it); False: another class;
        None: not a class call."""
        qual = qualify(call.func) or ""
        last = qual.rsplit(".", 1)[-1]
        if not last[:1].isupper():
            return None
        if "." not in qual:  # a class of this file, or a name bound some way this file does not show
            if last not in classes:
                return None
            bases = [qualify(b) or "" for b in classes[last].bases]
            return any(b.startswith(_LIGHTNING) or b == "Trainer" for b in bases)
        return qual.startswith(_LIGHTNING)

    own = False
    for call in ctx.nodes(ast.Call):
        if lightning(call) and call_last(call) == "Trainer":
            return False
        if call_last(call) != "fit" or not isinstance(call.func, ast.Attribute):
            continue
        recv = call.func.value
        maker = built.get(recv.id) if isinstance(recv, ast.Name) else recv if isinstance(recv, ast.Call) else None
        if maker is not None and lightning(maker) is False:
            own = True
    return own


@register
class SchedulerUnderWrongKey(Rule):
    code = "PF450"
    needs_text = ("configure_optimizers",)
    name = "scheduler-under-wrong-key"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = "`configure_optimizers` returns the scheduler under a key Lightning never reads (`\"scheduler\"`)"
    explanation = """
## What it finds

A dict returned from a LightningModule's `configure_optimizers` with an
`"optimizer"` key, no `"lr_scheduler"` key, and the scheduler under another key
whose name says scheduler (`"scheduler"`, `"lr_schedulers"`, `"schedulers"`); and a
scheduler dict whose `"interval"` is a literal other than `"step"` or `"epoch"`.

## Why it matters

Lightning reads only `"optimizer"`, `"lr_scheduler"` and `"monitor"` from that dict
(`"scheduler"` is the key *inside* the `"lr_scheduler"` dict). Any other key is
dropped with at most a "Found unsupported keys" warning: the scheduler is never
registered, never steps, and the learning rate stays at its initial value for the
whole run (Lightning issue 4454: a `ReduceLROnPlateau` under `"scheduler"` that never
reduced the rate).

## How to fix it

`return {"optimizer": opt, "lr_scheduler": sched, "monitor": "val_loss"}`, or
`{"optimizer": opt, "lr_scheduler": {"scheduler": sched, "monitor": "val_loss"}}`.

## When preflight stays silent

* The dict has an `"lr_scheduler"` key and a known `"interval"` (`"step"`, `"epoch"`: any other
  literal, such as `"steps"` or `"batch"`, is reported: Lightning issue 9475) (unless it also has `"interval"` at the top level,
  which Lightning ignores there: Lightning issue 4929, a per-step schedule stepped per
  epoch; for a known per-step scheduler PF419 reports it), or no `"optimizer"` key (the inner
  `{"scheduler": ..., "interval": ...}` dict), or no key naming a scheduler.
* The dict is built outside `configure_optimizers`.
* The file fits its modules with a trainer of its own (`trainer.fit(model, ...)` on an object of a
  class that is neither Lightning's `Trainer` nor derived from it here, and no Lightning `Trainer`
  is built in the file): that trainer reads the dict, not Lightning (Lightning's Fabric example
  `build_your_own_trainer` reads `"scheduler"`). A Lightning `Trainer` subclass imported from
  another module of the project counts as such a trainer.
"""
    bad_examples = examples("preflight.rules.code._pf450_examples", "PF450_BAD")
    good_examples = examples("preflight.rules.code._pf450_examples", "PF450_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if _fit_by_own_trainer(ctx):
            return
        for fn in ctx.nodes(ast.FunctionDef):
            if fn.name != "configure_optimizers" or not fn.args.args or fn.args.args[0].arg != "self":
                continue
            for d in ast.walk(fn):
                if not isinstance(d, ast.Dict):
                    continue
                keys = {k.value: k for k in d.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
                bad_interval = self._unknown_interval(ctx, keys, d)
                if bad_interval is not None:
                    yield bad_interval
                if "optimizer" in keys and "lr_scheduler" in keys and "interval" in keys:
                    if not any(isinstance(n, ast.Call) and call_last(n) in STEP_SCHEDULERS for n in ast.walk(fn)):
                        # (a known per-step scheduler there: PF419 reports the misplaced interval)
                        yield self._interval_outside(ctx, keys["interval"], d)
                    continue
                if "optimizer" not in keys or "lr_scheduler" in keys:
                    continue
                wrong = [name for name in keys if name not in _READ and "sched" in name.lower()]
                if not wrong:
                    continue
                key = keys[wrong[0]]
                yield ctx.finding(
                    self, key,
                    f"`configure_optimizers` returns the scheduler under {wrong[0]!r}, a key Lightning does not "
                    "read (it reads 'optimizer', 'lr_scheduler' and 'monitor'): the scheduler is never "
                    "registered and never steps, so the learning rate never changes. Use the key 'lr_scheduler'")

    def _unknown_interval(self, ctx: FileContext, keys: dict[str, ast.Constant], d: ast.Dict) -> Optional[Finding]:
        """``{"scheduler": sched, "interval": "steps"}``: Lightning knows only ``"step"`` and ``"epoch"``
        (Lightning issue 9475's ``"steps"``; recent releases raise at ``fit``, older ones stepped per epoch)."""
        if "interval" not in keys or not ({"scheduler", "lr_scheduler"} & set(keys)):
            return None
        value = d.values[d.keys.index(keys["interval"])]
        if not (isinstance(value, ast.Constant) and isinstance(value.value, str)) or value.value in _INTERVALS:
            return None
        return ctx.finding(
            self, value,
            f"the scheduler dict returned by `configure_optimizers` says 'interval': {value.value!r}; Lightning "
            "knows only 'step' and 'epoch': recent releases stop at `fit` with a MisconfigurationException, "
            "older ones ignored it and stepped the scheduler once per epoch, so a per-step schedule barely "
            "moves. Use 'interval': 'step' (every optimizer step) or 'epoch'")

    def _interval_outside(self, ctx: FileContext, key: ast.AST, d: ast.Dict) -> Finding:
        """``{"optimizer": opt, "lr_scheduler": sched, "interval": "step"}``: ``interval`` belongs in the
        scheduler's own dict; at the top level Lightning drops it (Lightning issue 4929)."""
        value = d.values[d.keys.index(key)]  # type: ignore[arg-type]
        said = ast.unparse(value)
        return ctx.finding(
            self, key,
            f"`configure_optimizers` returns 'interval': {said} next to 'lr_scheduler', at the top level of the "
            "dict, where Lightning ignores it (it reads 'optimizer', 'lr_scheduler' and 'monitor' there): the "
            "scheduler keeps the default interval, 'epoch', and a per-step schedule is stepped once per epoch. "
            "Put it in the scheduler's dict: {'optimizer': opt, 'lr_scheduler': {'scheduler': sched, "
            f"'interval': {said}}}}}")
