"""PF567 lightning-log-positional-option: ``self.log(name, value, x)`` in a LightningModule, where the
third positional argument is ``prog_bar`` (and ``self.log_dict(metrics, x)``, where it is the second)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._lightning_code import lightning_classes

# LightningModule.log(name, value, prog_bar, logger, on_step, on_epoch, ...) and
# LightningModule.log_dict(dictionary, prog_bar, logger, on_step, on_epoch, ...)
_OPTIONS = ("prog_bar", "logger", "on_step", "on_epoch")
_FIRST_OPTION = {"log": 2, "log_dict": 1}


def _is_flag(node: ast.AST) -> bool:
    """A literal bool/None, or a name that reads as the option itself (``prog_bar=prog_bar``
    passed positionally, ``show_in_bar``)."""
    if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, bool)):
        return True
    text = ast.unparse(node).lower()
    return any(word in text for word in ("prog", "bar", "logger", "on_step", "on_epoch", "flag", "show"))


def _enclosing_class(ctx: FileContext, node: ast.AST) -> Optional[ast.ClassDef]:
    cur = ctx.parent(node)
    while cur is not None and not isinstance(cur, ast.ClassDef):
        cur = ctx.parent(cur)
    return cur if isinstance(cur, ast.ClassDef) else None


@register
class LightningLogPositionalOption(Rule):
    code = "PF567"
    needs_text = ("self.log",)
    name = "lightning-log-positional-option"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("`self.log(name, value, x)`: the third positional argument of `LightningModule.log` is "
               "`prog_bar`, not a step or epoch")
    explanation = """
## What it finds

Inside a `LightningModule`, a `self.log(name, value, x, ...)` call with a third positional
argument (or `self.log_dict(metrics, x, ...)` with a second) that is not a literal
`True`/`False`/`None`: a step, an epoch (`self.current_epoch`), a batch index or a number.

## Why it matters

The signature is `LightningModule.log(name, value, prog_bar=False, logger=None,
on_step=None, on_epoch=None, ...)` (`log_dict(dictionary, prog_bar=False, ...)`;
lightning/pytorch/core/module.py). Unlike a logger's `log_metrics(metrics, step)` or
Fabric's `fabric.log(name, value, step)`, the step is not a parameter: the third
positional argument becomes `prog_bar` (the fourth `logger`, then `on_step`,
`on_epoch`). The value is not recorded as a step at all, and when it changes between
calls (the epoch: 0, then 1) the logging options of the same key change, which the
result collection refuses: "You called `self.log(val_loss, ...)` twice in
`validation_step` with different arguments. This is not allowed" (Lightning issue 14156,
a 16-GPU DDP job stopped in its second epoch).

## How to fix it

Drop the positional argument (Lightning records the global step itself) and pass
options by keyword: `self.log("val_loss", loss, on_epoch=True, sync_dist=True)`.

## When preflight stays silent

* The extra positional argument is a literal `True`/`False`/`None`, or a name that reads as
  the option (`prog_bar`, `show_in_bar`): an option passed positionally on purpose.
* `log` is not called on `self` inside a LightningModule (Fabric's `fabric.log(name, value,
  step)` and loggers' `log_metrics(metrics, step)` do take a step there).
"""
    bad_examples = examples("preflight.rules.code._pf567_examples", "PF567_BAD")
    good_examples = examples("preflight.rules.code._pf567_examples", "PF567_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        lightning = lightning_classes(ctx)
        if not lightning:
            return
        for call in ctx.nodes(ast.Call):
            func = call.func
            if not (isinstance(func, ast.Attribute) and func.attr in _FIRST_OPTION
                    and isinstance(func.value, ast.Name) and func.value.id == "self"):
                continue
            first = _FIRST_OPTION[func.attr]
            extra = call.args[first:]
            if not extra or any(isinstance(a, ast.Starred) for a in call.args):
                continue
            cls = _enclosing_class(ctx, call)
            if cls is None or cls.name not in lightning:
                continue
            bad = next(((i, a) for i, a in enumerate(extra) if not _is_flag(a)), None)
            if bad is None:
                continue
            index, arg = bad
            option = _OPTIONS[index] if index < len(_OPTIONS) else "a logging option"
            yield ctx.finding(
                self, arg,
                f"`{ast.unparse(arg)}` is passed positionally to `self.{func.attr}`, where that position is "
                f"`{option}`, not a step or epoch: it is not logged as a step, and when it changes between calls "
                "the same key is logged with different options, which Lightning refuses (\"You called `self.log(...)` "
                "twice ... with different arguments\"). Drop it and pass options by keyword",
                evidence=[ctx.evidence(cls, f"`{cls.name}` is a LightningModule")])
