"""PF451 mode-hook-without-mode-switch: an override of Lightning's validation mode hooks that no longer switches the mode."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

# hook -> (the mode Lightning's default sets, what is lost when the override does not)
_HOOKS = {
    "on_validation_model_train": ("train", "training continues in eval mode after the first validation "
                                           "(dropout off, BatchNorm statistics frozen) for the rest of the run"),
    "on_validation_model_eval": ("eval", "validation runs in training mode (dropout on, BatchNorm statistics "
                                         "updated by validation batches)"),
}


def _empty(fn: ast.FunctionDef) -> bool:
    """``pass``, ``...``, a docstring, a bare ``return`` / ``return None``: an override written to do nothing."""
    return all(isinstance(st, ast.Pass) or (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant))
               or (isinstance(st, ast.Return) and (st.value is None or (isinstance(st.value, ast.Constant)
                                                                         and st.value.value is None)))
               for st in fn.body)


def _switches(fn: ast.FunctionDef, mode: str, methods: dict[str, ast.FunctionDef], depth: int = 0) -> bool:
    """The override sets the mode of something (``self.train()``, ``self.trainer.model.train()``,
    ``module.train(True)``, ``self.eval()``) or calls the hook of its base class, itself or in a
    method of its class it calls (``self._ema_apply()``, two levels)."""
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        attr = node.func.attr
        if attr == fn.name:
            return True  # super().on_validation_model_train() and friends
        flag: Optional[bool] = None
        if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, bool):
            flag = node.args[0].value
        if mode == "train" and attr == "train" and flag is not False:
            return True
        if mode == "eval" and (attr == "eval" or (attr == "train" and flag is False)):
            return True
        callee = methods.get(attr)
        if callee is not None and callee is not fn and depth < 2 and isinstance(node.func.value, ast.Name) \
                and node.func.value.id == "self" and _switches(callee, mode, methods, depth + 1):
            return True
    return False


@register
class ModeHookWithoutModeSwitch(Rule):
    code = "PF451"
    needs_text = ("_model_train", "_model_eval")
    name = "mode-hook-without-mode-switch"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = "An override of `on_validation_model_train`/`_eval` never switches the model's mode"
    explanation = """
## What it finds

A LightningModule that overrides `on_validation_model_train` without calling
`.train()` on anything (nor `super().on_validation_model_train()`), or
`on_validation_model_eval` without `.eval()`.

## Why it matters

These hooks *are* the mode switch: Lightning's own `on_validation_model_train`
calls `self.trainer.model.train()` after every validation loop, and
`on_validation_model_eval` calls `.eval()` before it. Once the hook is overridden,
Lightning runs the override instead. An override written to re-freeze a backbone
(`self.backbone.eval()`) therefore leaves the whole model in eval mode after the
first validation: the head's dropout stays off for the rest of training (Lightning
issue 20177). The eval hook's twin runs validation in training mode.

## How to fix it

Call `self.train()` (or `super().on_validation_model_train()`) first, then put the
frozen parts back in eval mode; likewise `self.eval()` in the eval hook.

## When preflight stays silent

* The override calls `.train()` (any module, not `train(False)`) or the base hook;
  the eval hook's override calls `.eval()` or `.train(False)`.
* The override is explicitly empty (`pass`, `...`, a docstring, `return None`): turning
  the switch off is then what it is for (Lightning's own hook tests).
* A method of the class the override calls (`self._ema_apply()`, two levels) switches the mode.
* The train hook, when the eval hook is overridden without `.eval()` too: the model never
  left train mode, and the eval hook's finding is the one to fix.
"""
    bad_examples = examples("preflight.rules.code._pf451_examples", "PF451_BAD")
    good_examples = examples("preflight.rules.code._pf451_examples", "PF451_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for fn in ctx.nodes(ast.FunctionDef):
            hook = _HOOKS.get(fn.name)
            if hook is None or not fn.args.args or fn.args.args[0].arg != "self":
                continue
            cls = ctx.parent(fn)
            if not isinstance(cls, ast.ClassDef):
                continue
            mode, lost = hook
            if _empty(fn):
                continue  # an explicitly empty override: switching the mode off is the point
            methods = {m.name: m for m in cls.body if isinstance(m, ast.FunctionDef)}
            if _switches(fn, mode, methods):
                continue
            other = methods.get("on_validation_model_eval")
            if mode == "train" and other is not None and not _empty(other) and not _switches(other, "eval", methods):
                continue  # the model never left train mode: the eval hook's finding says what is wrong
            yield ctx.finding(
                self, fn,
                f"`{fn.name}` is overridden without calling `.{mode}()`: Lightning runs this override instead "
                f"of its own `self.trainer.model.{mode}()`, so {lost}. Call `self.{mode}()` (or "
                f"`super().{fn.name}()`) first")
