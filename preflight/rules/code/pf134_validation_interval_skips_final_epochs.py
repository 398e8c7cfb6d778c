"""PF134 validation-interval-skips-final-epochs: ``Trainer(max_epochs=50, check_val_every_n_epoch=15)``
validates for the last time at epoch 45; the final epochs are never measured or selectable."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.syntax import keyword, last_attr
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._lightning_code import imports_lightning


def _int(node: Optional[ast.AST]) -> Optional[int]:
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else None


def _selects_on_validation(ctx: FileContext) -> Optional[ast.Call]:
    """A call that picks or stops on validation results: ``ModelCheckpoint(monitor=...)``,
    ``EarlyStopping(...)`` or ``trainer.test(..., ckpt_path="best")``."""
    for call in ctx.nodes(ast.Call):
        name = last_attr(call.func)
        if (name == "ModelCheckpoint" and keyword(call, "monitor") is not None) or name == "EarlyStopping":
            return call
        best = keyword(call, "ckpt_path")
        if isinstance(best, ast.Constant) and best.value == "best":
            return call
    return None


@register
class ValidationIntervalSkipsFinalEpochs(Rule):
    code = "PF134"
    name = "validation-interval-skips-final-epochs"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("`Trainer(check_val_every_n_epoch=k)` with a `max_epochs` that is not a multiple of k: the last "
               "validation runs epochs before the end, so the final epochs are never validated or selectable")
    frameworks = ("lightning",)
    needs_text = ("check_val_every_n_epoch",)
    explanation = """
## What it finds

A Lightning `Trainer(...)` (or `Trainer.from_argparse_args(args, ...)`) given int literals
`max_epochs=N` and `check_val_every_n_epoch=k` with `k > 1`, `N > k` and `N % k != 0`, in a
file that selects or stops on validation results (`ModelCheckpoint(monitor=...)`,
`EarlyStopping(...)` or `trainer.test(..., ckpt_path="best")`).

## Why it matters

Lightning validates at the end of epoch `e` only when `(e + 1) % check_val_every_n_epoch == 0`
(`_should_check_val_epoch` in the training epoch loop); there is no extra validation after the
last epoch. With `max_epochs=50, check_val_every_n_epoch=15` validation runs after epochs 15,
30 and 45: the last 5 epochs are never validated, the monitored `ModelCheckpoint` cannot pick
them, and `trainer.test(ckpt_path="best")` tests a model from epoch 45 at the latest while the
final weights are never measured (Lightning-AI/pytorch-lightning#4539).

## How to fix it

Make `max_epochs` a multiple of `check_val_every_n_epoch` (or validate every epoch near the
end), or run `trainer.validate(model)` after `fit`.

## When preflight stays silent

* `max_epochs` is a multiple of the interval, smaller than it, or either value is not an int
  literal (a command-line value).
* Nothing in the file selects or stops on validation results.
* The file does not import Lightning.
"""
    bad_examples = examples("preflight.rules.code._pf134_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf134_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        hits = []
        for call in ctx.nodes(ast.Call):
            last = last_attr(call.func)
            if last not in ("Trainer", "from_argparse_args"):
                continue
            every_kw = next((k for k in call.keywords if k.arg == "check_val_every_n_epoch"), None)
            every = _int(every_kw.value) if every_kw is not None else None
            epochs = _int(keyword(call, "max_epochs"))
            if every is None or epochs is None or every < 2 or epochs <= every or epochs % every == 0:
                continue
            assert every_kw is not None  # every is read from it
            hits.append((call, every_kw, every, epochs))
        if not hits or not imports_lightning(ctx, ctx.tree):
            return
        selector = _selects_on_validation(ctx)
        if selector is None:
            return
        for call, kw, every, epochs in hits:
            last_val = epochs - epochs % every
            yield ctx.finding(
                self, kw.value,
                f"`check_val_every_n_epoch={every}` with `max_epochs={epochs}`: Lightning validates only after "
                f"epochs {every}, {2 * every}, ... so the last validation runs after epoch {last_val} and the final "
                f"{epochs - last_val} epoch(s) are never validated: the checkpoint selected on validation (or the "
                "early stop) cannot see them and the final weights are never measured. Make max_epochs a "
                f"multiple of {every}, or run `trainer.validate(...)` after fit",
                evidence=[ctx.evidence(call, "the Trainer"),
                          ctx.evidence(selector, "selects or stops on the validation results")])
