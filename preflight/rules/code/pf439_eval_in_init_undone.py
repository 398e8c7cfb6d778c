"""PF439 eval-in-init-undone-by-trainer: a submodule put in ``eval()`` only in a LightningModule's
``__init__``, which the Trainer's ``.train()`` undoes."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_LIGHTNING_BASES = frozenset({"LightningModule"})


def _self_attr_eval(node: ast.AST) -> Optional[str]:
    """``self.backbone.eval()`` / ``self.backbone.train(False)`` -> ``backbone``."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return None
    func = node.func
    if (func.attr == "eval" and not node.args and not node.keywords) or (func.attr == "train" and len(node.args) == 1 and isinstance(node.args[0], ast.Constant) and (
            node.args[0].value is False)):
        pass
    else:
        return None
    target = func.value
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
        return target.attr
    return None


def _is_lightning_module(cls: ast.ClassDef) -> bool:
    for base in cls.bases:
        name = base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else ""
        if name in _LIGHTNING_BASES:
            return True
    return False


@register
class EvalInInitUndone(Rule):
    code = "PF439"
    needs_text = ("LightningModule",)
    name = "eval-in-init-undone-by-trainer"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = "A submodule is put in `eval()` only in `__init__`; the Lightning Trainer's `.train()` undoes it"
    explanation = """
## What it finds

A `LightningModule` whose `__init__` calls `self.backbone.eval()` (or
`.train(False)`) to keep a frozen submodule in evaluation mode, and no other
method of the class sets that submodule to `eval()` again.

## Why it matters

The Trainer calls `.train()` on the whole LightningModule when fitting starts and
after every validation loop, which puts every submodule back in training mode:
the "frozen" backbone's BatchNorm layers update their running statistics with
each batch and its dropout is active again (Lightning issue 18930).
`requires_grad_(False)` freezes the weights, not the mode.

## How to fix it

Set the mode in a hook that runs after the Trainer's: `def on_train_epoch_start(self):
self.backbone.eval()`, or override `train(self, mode=True)` to keep the backbone in
eval.

## When preflight stays silent

* Another method of the class (a hook, `train()`, `forward`) calls `eval()` on the
  same submodule, or the class overrides `train`.
* The submodule is never called by another method of the class (an EMA copy that is
  only updated and saved: its mode does not matter).
* The class is not a `LightningModule` subclass (a plain `nn.Module` in a hand-written
  loop keeps the mode it is given).
"""
    bad_examples = examples("preflight.rules.code._pf439_examples", "PF439_BAD")
    good_examples = examples("preflight.rules.code._pf439_examples", "PF439_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for cls in ctx.nodes(ast.ClassDef):
            if not _is_lightning_module(cls):
                continue
            methods = {m.name: m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}
            init = methods.get("__init__")
            if init is None or "train" in methods:
                continue
            in_init: dict[str, ast.Call] = {}
            for node in ast.walk(init):
                attr = _self_attr_eval(node)
                if attr is not None:
                    in_init.setdefault(attr, node)  # type: ignore[arg-type]
            if not in_init:
                continue
            elsewhere = {attr for name, m in methods.items() if name != "__init__"
                         for node in ast.walk(m) for attr in [_self_attr_eval(node)] if attr is not None}
            called = {node.func.attr for name, m in methods.items() if name != "__init__" for node in ast.walk(m)
                      if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                      and isinstance(node.func.value, ast.Name) and node.func.value.id == "self"}
            for attr, call in in_init.items():
                if attr in elsewhere or attr not in called:
                    continue  # re-set elsewhere, or never run (an EMA copy that is only saved)
                yield ctx.finding(
                    self, call,
                    f"`self.{attr}` is put in eval mode only in `__init__`: the Lightning Trainer calls `.train()` "
                    f"on the whole module when fitting starts and after each validation loop, so `self.{attr}` "
                    "trains in training mode (BatchNorm statistics update, dropout is on). Call "
                    f"`self.{attr}.eval()` in `on_train_epoch_start` (or override `train`)")
