"""PF645 predict-label-ids-as-predictions: ``trainer.predict(ds)[1]`` (the label ids) scored as the model's
predictions."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_METRICS = frozenset({"accuracy_score", "f1_score", "precision_score", "recall_score", "confusion_matrix",
                      "classification_report", "matthews_corrcoef", "balanced_accuracy_score",
                      "precision_recall_fscore_support", "cohen_kappa_score"})


def _label_ids(expr: ast.expr) -> Optional[ast.Call]:
    """The ``x.predict(...)`` call when ``expr`` is ``x.predict(...)[1]`` or ``x.predict(...).label_ids``."""
    index_one = isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant) and expr.slice.value == 1
    if not (index_one or (isinstance(expr, ast.Attribute) and expr.attr == "label_ids")):
        return None
    base = expr.value  # type: ignore[attr-defined]
    if isinstance(base, ast.Call) and isinstance(base.func, ast.Attribute) and base.func.attr == "predict" \
            and "trainer" in ast.unparse(base.func.value).lower():
        return base
    return None


def _callee(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else (func.id if isinstance(func, ast.Name) else "")


@register
class PredictLabelIdsAsPredictions(Rule):
    code = "PF645"
    needs_text = ("predict",)
    name = "predict-label-ids-as-predictions"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("`trainer.predict(ds)[1]` (or `.label_ids`) is the true labels, scored as the model's predictions: "
               "the reported metric is perfect whatever the model learned")
    explanation = """
## What it finds

`preds = trainer.predict(test_dataset)[1]` (or `.label_ids`) whose value is handed to a
scikit-learn metric as the predictions (`accuracy_score(y_test, preds)`,
`confusion_matrix(y_test, preds)`, `y_pred=preds`). Reported on the assignment (or the
metric call when the expression is inline).

## Why it matters

`Trainer.predict` returns a `PredictionOutput(predictions, label_ids, metrics)`: index 1 is
`label_ids`, the dataset's own labels. Scoring them against the labels reports 100%
accuracy and a diagonal confusion matrix whatever the model learned
(krishnaik06/Huggingfacetransformer PR 3).

## How to fix it

Take the predictions: `logits = trainer.predict(test_dataset).predictions` (index 0) and
`preds = logits.argmax(-1)`.

## When preflight stays silent

* Index 0 / `.predictions`, or the label ids used as the reference (the first argument,
  `y_true=`).
* The receiver does not name a trainer (`model.predict(x)[1]` of another library).
"""
    bad_examples = examples("preflight.rules.code._pf645_examples", "PF645_BAD")
    good_examples = examples("preflight.rules.code._pf645_examples", "PF645_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        bound: dict[str, tuple[ast.AST, ast.Call]] = {}
        for node in ctx.nodes(ast.Assign):
            predict = _label_ids(node.value)
            if predict is not None and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                bound[node.targets[0].id] = (node, predict)
        reported: set[int] = set()
        for call in ctx.nodes(ast.Call):
            if _callee(call) not in _METRICS:
                continue
            preds = [*call.args[1:2], *(k.value for k in call.keywords if k.arg == "y_pred")]
            for arg in preds:
                inline = _label_ids(arg)
                if isinstance(arg, ast.Name) and arg.id in bound:
                    where, predict = bound[arg.id]
                elif inline is not None:
                    where, predict = call, inline
                else:
                    continue
                if id(where) in reported:
                    continue
                reported.add(id(where))
                yield ctx.finding(
                    self, where,
                    f"`{ast.unparse(predict)}` returns (predictions, label_ids, metrics), and the label ids are "
                    f"scored as the predictions in `{_callee(call)}(...)` (line {call.lineno}): the metric compares "
                    "the labels with themselves and is perfect whatever the model learned. Use `.predictions` "
                    "(index 0) and `argmax(-1)`",
                    evidence=[ctx.evidence(call, "scored as the predictions here")])
