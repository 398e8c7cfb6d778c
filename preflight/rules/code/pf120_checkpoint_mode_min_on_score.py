"""PF120 checkpoint-mode-min-on-score: a higher-is-better metric monitored with the default ``mode="min"``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._metric_direction import LIKELY_LOWER_WORDS, SCORE_WORDS, metric_words
from preflight.rules._pf4_support import calls, has_unpacking, kwarg
from preflight.rules.base import Rule, examples

_CALLBACKS = {"ModelCheckpoint": "the kept 'best' checkpoints are those with the LOWEST value",
              "EarlyStopping": "training stops once the metric stops FALLING, i.e. while it improves"}
_PACKAGES = ("pytorch_lightning.", "lightning.pytorch.", "lightning.")
def score_metric(name: str) -> Optional[str]:
    """The higher-is-better word in a metric name (``val_acc`` -> ``acc``), None when the name has
    none or also holds a lower-is-better word."""
    words = metric_words(name)
    if any(w in LIKELY_LOWER_WORDS for w in words):
        return None
    return next((w for w in words if w in SCORE_WORDS), None)


@register
class CheckpointModeMinOnScore(Rule):
    code = "PF120"
    name = "checkpoint-mode-min-on-score"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = "ModelCheckpoint/EarlyStopping monitors an accuracy-like metric with the default mode='min'"
    frameworks = ("lightning",)
    needs_text = ("monitor",)
    explanation = """
## What it finds

`ModelCheckpoint(monitor=...)` or `EarlyStopping(monitor=...)` from Lightning with a
literal metric name whose words say higher is better (`acc`, `accuracy`, `f1`, `auroc`,
`bleu`, `map`, `iou`, `dice`, `pck`, `psnr`, ...; a name that also holds `loss`, `err`,
`wer`, ... is left alone), and no `mode=` argument.

## Why it matters

Both callbacks default to `mode="min"` (lightning/pytorch/callbacks/model_checkpoint.py
and early_stopping.py: `mode: str = "min"`). On an accuracy, `ModelCheckpoint` then keeps
the checkpoints with the lowest accuracy as "best" (`best_model_path`, `save_top_k`), and
`EarlyStopping` counts every improvement as a bad epoch and stops a run that is getting
better. Nothing fails; the run hands back its worst model. Reported in
pyg-team/pytorch_geometric's Lightning GraphSAGE example ("Currently, the worst models are
saved instead of the best ones") and for a keypoint PCK metric with Lightning 1.0's
`mode="auto"`, which chose "min" for any name that is not an accuracy or f-measure
(that older behaviour was not checked against the 1.0 source).

## How to fix it

Pass `mode="max"`.

## When preflight stays silent

* `mode=` is given (any value), or the callback is built with `**kwargs`.
* The metric name is not a literal, holds no higher-is-better word, or also holds a
  lower-is-better one (`val_acc_loss`, `val_error`).
"""
    bad_examples = examples("preflight.rules.code._pf120_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf120_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call, qual in calls(ctx):
            last = qual.rsplit(".", 1)[-1]
            if last not in _CALLBACKS or not qual.startswith(_PACKAGES):
                continue
            if kwarg(call, "mode") is not None or has_unpacking(call):
                continue
            monitor = kwarg(call, "monitor")
            if monitor is None and call.args:
                monitor = call.args[0]  # both take monitor first
            if not (isinstance(monitor, ast.Constant) and isinstance(monitor.value, str)):
                continue
            word = score_metric(monitor.value)
            if word is None:
                continue
            message = (
                f"`{last}(monitor={monitor.value!r})` keeps the default mode='min', but "
                f"{monitor.value!r} is a higher-is-better metric ({word!r}): {_CALLBACKS[last]}. "
                f"Pass mode=\"max\"")
            yield ctx.finding(self, call, message)
