"""PF435 plateau-scheduler-without-monitor: ``ReduceLROnPlateau`` returned from Lightning's
``configure_optimizers`` with no ``"monitor"``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import call_last, manual_optimization, may_optimize_manually
from preflight.rules.base import Rule, examples


def _keys(d: ast.Dict) -> Optional[dict[str, ast.expr]]:
    """The string keys of a dict display; None when it unpacks another (``**base``)."""
    out: dict[str, ast.expr] = {}
    for k, v in zip(d.keys, d.values):
        if k is None:
            return None
        if isinstance(k, ast.Constant) and isinstance(k.value, str):
            out[k.value] = v
    return out


# Lightning API removed in 0.9.0 (pytorch_lightning/core/decorators.py at 0.8.0: "`data_loader` decorator
# deprecated in v0.7.0. Will be removed v0.9.0"; the Trainer's `max_nb_epochs`/`min_nb_epochs` are gone from
# 0.9.0). The monitor check (MisconfigurationException) arrived in 1.0.4 (trainer/optimizers.py); before it
# a bare ReduceLROnPlateau was stepped with callback_metrics["val_loss"] (0.6.0-1.0.3).
_PRE_0_9_TRAINER_KWARGS = frozenset({"max_nb_epochs", "min_nb_epochs"})


def _bound_name(target: ast.expr) -> Optional[str]:
    """``name`` or ``self.attr`` (det114: held-out-43's A-Hackers-AI-Voice-Assistant issue 54 binds the
    plateau scheduler to ``self.scheduler`` and returns ``[self.optimizer], [self.scheduler]``)."""
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
        return f"self.{target.attr}"
    return None


def _lightning_aliases(ctx: FileContext) -> set[str]:
    out: set[str] = set()
    for node in ctx.nodes(ast.Import):
        for alias in node.names:
            if alias.name == "pytorch_lightning":
                out.add(alias.asname or alias.name)
    return out


def pre_0_9_lightning(ctx: FileContext) -> Optional[ast.AST]:
    """A use of pytorch-lightning API removed in 0.9.0 (``@pl.data_loader``, ``Trainer(max_nb_epochs=...)``):
    the file runs only on a release that required no monitor for ``ReduceLROnPlateau``."""
    def find() -> Optional[ast.AST]:
        for node in ctx.nodes(ast.ImportFrom):
            if (node.module or "").startswith("pytorch_lightning") and any(
                    a.name == "data_loader" for a in node.names):
                return node
        aliases = _lightning_aliases(ctx)
        if aliases:
            for attr in ctx.nodes(ast.Attribute):
                if attr.attr == "data_loader" and isinstance(attr.value, ast.Name) and attr.value.id in aliases:
                    return attr
        for call in ctx.nodes(ast.Call):
            if call_last(call) == "Trainer" and any(k.arg in _PRE_0_9_TRAINER_KWARGS for k in call.keywords):
                return call
        return None
    found: Optional[ast.AST] = ctx.cached("pf435-pre-0-9-lightning", find)
    return found


@register
class PlateauWithoutMonitor(Rule):
    code = "PF435"
    needs_text = ("ReduceLROnPlateau",)
    name = "plateau-scheduler-without-monitor"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = "`ReduceLROnPlateau` is returned from `configure_optimizers` without a `\"monitor\"`"
    explanation = """
## What it finds

A LightningModule's `configure_optimizers` returns a `ReduceLROnPlateau`
scheduler and no `"monitor"` key says which logged metric it watches:
`return [opt], [plateau]`, `{"optimizer": opt, "lr_scheduler": plateau}`, or
`{"optimizer": opt, "lr_scheduler": {"scheduler": plateau}}`. The scheduler may be bound
to a local name or to `self.<attr>` in the method (`return [self.optimizer], [self.scheduler]`,
A-Hackers-AI-Voice-Assistant issue 54).

## Why it matters

`ReduceLROnPlateau.step(metric)` needs a value, and Lightning takes it from the
metric named by `"monitor"`. Without one, `trainer.fit` stops before the first
step with `MisconfigurationException: The lr scheduler dict must include a
monitor when a ReduceLROnPlateau scheduler is used` (spacetimeformer issue 79;
Lightning's own tests `test_reducelronplateau_with_no_monitor_raises`).

## How to fix it

`return {"optimizer": opt, "lr_scheduler": {"scheduler": plateau, "monitor": "val_loss"}}`
(or `"monitor"` beside `"optimizer"` at the top level of the returned dict),
naming a metric the module logs with `self.log`.

## When preflight stays silent

* A `"monitor"` key is in the scheduler dict or the returned dict.
* A dict is built with `**` unpacking or returned through a name preflight does
  not follow; the scheduler is not a `ReduceLROnPlateau` built in the method.
* Manual optimization (`self.automatic_optimization = False`): the module steps
  the scheduler itself.
* The file uses pytorch-lightning API removed in 0.9.0 (`@pl.data_loader`,
  `Trainer(max_nb_epochs=...)`): it runs only on a release before 1.0.4, where no monitor
  was required (0.6.0-1.0.3 stepped a bare plateau scheduler with the logged `val_loss`;
  pytorch_lightning/trainer/optimizers.py at 0.10.0 and 1.0.4). held-out-34's twin of
  Lightning issue 298 (pytorch-lightning 0.6.0). A version pinned only in
  `requirements.txt` is not read: this rule runs in `preflight check`, per file.
"""
    bad_examples = examples("preflight.rules.code._pf435_examples", "PF435_BAD")
    good_examples = examples("preflight.rules.code._pf435_examples", "PF435_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for cls in ctx.nodes(ast.ClassDef):
            methods = [fn for fn in cls.body if isinstance(fn, ast.FunctionDef) and fn.name == "configure_optimizers"]
            if not methods:
                continue
            if may_optimize_manually(ctx) and manual_optimization(cls) is not None:
                continue
            if pre_0_9_lightning(ctx) is not None:
                return
            for fn in methods:
                yield from self._check(ctx, fn)

    def _check(self, ctx: FileContext, fn: ast.FunctionDef) -> Iterable[Finding]:
        plateaus = self._plateaus(fn)
        if not plateaus:
            return
        for ret in ast.walk(fn):
            if not isinstance(ret, ast.Return) or ret.value is None:
                continue
            found = self._missing(ret.value, plateaus)
            if found is not None:
                yield ctx.finding(
                    self, ret,
                    f"`{found}` is a `ReduceLROnPlateau`, returned to Lightning with no `\"monitor\"`: "
                    "`trainer.fit` stops with `MisconfigurationException` (\"The lr scheduler dict must "
                    "include a monitor when a `ReduceLROnPlateau` scheduler is used\"). Return "
                    "`{\"optimizer\": opt, \"lr_scheduler\": {\"scheduler\": sched, \"monitor\": \"val_loss\"}}`",
                    evidence=[ctx.evidence(plateaus[found], "the plateau scheduler is built here")])

    @staticmethod
    def _plateaus(fn: ast.FunctionDef) -> dict[str, ast.Call]:
        """Names bound (once, in the method) to ``ReduceLROnPlateau(...)``, and the calls' texts."""
        out: dict[str, ast.Call] = {}
        bound: dict[str, int] = {}
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    name = _bound_name(t)
                    if name is not None:
                        bound[name] = bound.get(name, 0) + 1
                        if isinstance(node.value, ast.Call) and call_last(node.value) == "ReduceLROnPlateau":
                            out[name] = node.value
            elif isinstance(node, ast.Call) and call_last(node) == "ReduceLROnPlateau":
                out.setdefault(ast.unparse(node), node)
        return {k: v for k, v in out.items() if bound.get(k, 1) == 1}

    def _is_plateau(self, node: ast.AST, plateaus: dict[str, ast.Call]) -> Optional[str]:
        key = _bound_name(node) if isinstance(node, (ast.Name, ast.Attribute)) else \
            ast.unparse(node) if isinstance(node, ast.Call) else None
        return key if key is not None and key in plateaus else None

    def _missing(self, value: ast.expr, plateaus: dict[str, ast.Call]) -> Optional[str]:
        """The plateau scheduler the returned value hands over without a monitor, if any."""
        if isinstance(value, ast.Dict):
            keys = _keys(value)
            if keys is None or "lr_scheduler" not in keys or "monitor" in keys:
                return None
            return self._unmonitored(keys["lr_scheduler"], plateaus)
        if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == 2 and all(
                isinstance(e, (ast.List, ast.Tuple)) for e in value.elts):
            for sched in value.elts[1].elts:  # type: ignore[attr-defined]
                found = self._unmonitored(sched, plateaus)
                if found is not None:
                    return found
        return None

    def _unmonitored(self, sched: ast.expr, plateaus: dict[str, ast.Call]) -> Optional[str]:
        if isinstance(sched, ast.Dict):
            keys = _keys(sched)
            if keys is None or "monitor" in keys or "scheduler" not in keys:
                return None
            return self._is_plateau(keys["scheduler"], plateaus)
        return self._is_plateau(sched, plateaus)
