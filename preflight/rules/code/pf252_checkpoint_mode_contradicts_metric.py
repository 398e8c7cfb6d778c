"""PF252 checkpoint-mode-contradicts-metric: a Lightning ``ModelCheckpoint``/``EarlyStopping`` whose
explicit ``mode=`` points the wrong way for its metric (``monitor="val_loss", mode="max"``)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._metric_direction import LOWER_WORDS, SCORE_WORDS, metric_words
from preflight.rules._pf4_support import calls, kwarg
from preflight.rules.base import Rule, examples
from preflight.rules.code.pf120_checkpoint_mode_min_on_score import score_metric

_PACKAGES = ("pytorch_lightning.", "lightning.pytorch.", "lightning.")
_EFFECT = {
    ("ModelCheckpoint", "max"): "the kept 'best' checkpoint is the one with the HIGHEST value (the worst model), "
                                "and `ckpt_path=\"best\"` loads it",
    ("ModelCheckpoint", "min"): "the kept 'best' checkpoint is the one with the LOWEST value (the worst model), "
                                "and `ckpt_path=\"best\"` loads it",
    ("EarlyStopping", "max"): "training stops once the metric stops RISING, i.e. while it improves",
    ("EarlyStopping", "min"): "training stops once the metric stops FALLING, i.e. while it improves",
}
# words that turn a quantity around (``val_neg_loss``, ``loss_improvement``): the direction is unknown
_TURNED = frozenset({"neg", "negative", "minus", "inv", "inverse", "reduction", "improvement", "gain", "delta",
                     "diff", "drop", "decrease"})


def loss_metric(name: str) -> Optional[str]:
    """The lower-is-better word of a metric name (``val_loss`` -> ``loss``), None when the name has
    none, also holds a higher-is-better word, or a word that turns it around (``neg``)."""
    words = metric_words(name)
    if any(w in SCORE_WORDS or w in _TURNED for w in words):
        return None
    if any(w.startswith("neg") for w in words):
        return None
    return next((w for w in words if w in LOWER_WORDS), None)


def _contradiction(metric: str, mode: str) -> Optional[str]:
    """Why ``mode`` is wrong for ``metric``, or None."""
    if mode == "max":
        word = loss_metric(metric)
        return None if word is None else f"a lower-is-better metric ({word!r})"
    if mode == "min":
        if any(w.startswith("neg") or w in _TURNED for w in metric_words(metric)):
            return None
        word = score_metric(metric)
        return None if word is None else f"a higher-is-better metric ({word!r})"
    return None


@register
class CheckpointModeContradictsMetric(Rule):
    code = "PF252"
    name = "checkpoint-mode-contradicts-metric"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("ModelCheckpoint/EarlyStopping with an explicit mode that points the wrong way for its metric "
               "(`monitor=\"val_loss\", mode=\"max\"`)")
    frameworks = ("lightning",)
    needs_text = ("ModelCheckpoint", "EarlyStopping")
    explanation = """
## What it finds

A Lightning `ModelCheckpoint(...)` or `EarlyStopping(...)` with a literal `monitor=` metric
name and a literal `mode=` that contradicts it: `mode="max"` on a lower-is-better name
(`loss`, `err`/`error`, `wer`, `cer`, `perplexity`/`ppl`, `mse`, `mae`, `rmse`, `nll`, `fid`,
`bpd`, `lpips`, `eer`), or `mode="min"` on a higher-is-better one (`acc`, `f1`, `auroc`,
`bleu`, `map`, `iou`, `dice`, ... the words PF120 uses).

## Why it matters

`mode` tells the callback which direction is an improvement
(lightning/pytorch/callbacks/model_checkpoint.py: `mode_dict = {"min": torch.lt, "max":
torch.gt}`; early_stopping.py the same). With `mode="max"` on `val_loss`, `ModelCheckpoint`
keeps the epoch with the HIGHEST validation loss as `best_model_path`, and
`trainer.test(ckpt_path="best")` evaluates the worst model; `EarlyStopping` counts every
epoch in which the loss falls as a bad one and stops a run that is still improving.
Nothing fails. Reported in mila-iqia/cookiecutter-pyml issue 119 ("Change default mode
to \\"min\\" in best_checkpoint_callback"), and seen in public training scripts that keep
`ModelCheckpoint(monitor="val_loss", mode="max")` next to `mode="max"` checkpoints on
accuracies (copied from one to the other).

## How to fix it

`mode="min"` for a loss or error, `mode="max"` for an accuracy or score.

## When preflight stays silent

* `mode` or `monitor` is not a literal (a config value), or `mode` is not given (PF120 reports
  the default `"min"` on a score).
* The name holds words of both kinds (`val_acc_loss`) or a word that turns the quantity around
  (`val_neg_loss`, `loss_improvement`, `val_loss_delta`).
* The callback is not Lightning's (Keras has its own `ModelCheckpoint`).
"""
    bad_examples = examples("preflight.rules.code._pf252_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf252_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call, qual in calls(ctx):
            last = qual.rsplit(".", 1)[-1]
            if last not in ("ModelCheckpoint", "EarlyStopping") or not qual.startswith(_PACKAGES):
                continue
            mode = kwarg(call, "mode")
            monitor = kwarg(call, "monitor")
            if monitor is None and call.args:
                monitor = call.args[0]  # both take monitor first
            if not (isinstance(mode, ast.Constant) and isinstance(mode.value, str)
                    and isinstance(monitor, ast.Constant) and isinstance(monitor.value, str)):
                continue
            why = _contradiction(monitor.value, mode.value)
            if why is None:
                continue
            right = "min" if mode.value == "max" else "max"
            yield ctx.finding(
                self, call,
                f"`{last}(monitor={monitor.value!r}, mode={mode.value!r})`: {monitor.value!r} is {why}, "
                f"but mode={mode.value!r} counts a {'higher' if mode.value == 'max' else 'lower'} value as "
                f"better: {_EFFECT[(last, mode.value)]}. Use mode=\"{right}\"",
                evidence=[ctx.evidence(mode, f"mode={mode.value!r}")])
