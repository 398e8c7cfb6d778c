"""PF662 multilabel-logits-thresholded-at-half: ``compute_metrics`` of a multi-label classifier thresholds the
Trainer's raw logits at 0.5."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

# calls that turn logits into probabilities (or anything a threshold of 0.5 then fits)
_SQUASH = frozenset({"sigmoid", "expit", "softmax", "exp", "Sigmoid", "logistic"})


def _multi_label(ctx: FileContext) -> Optional[ast.AST]:
    """The ``problem_type="multi_label_classification"`` of the file."""
    for node in ctx.nodes(ast.keyword):
        if node.arg == "problem_type" and isinstance(node.value, ast.Constant) \
                and node.value.value == "multi_label_classification":
            return node.value
    for assign in ctx.nodes(ast.Assign):  # run_classification.py: config.problem_type = "multi_label_..."
        if isinstance(assign.value, ast.Constant) and assign.value.value == "multi_label_classification" \
                and any(isinstance(t, ast.Attribute) and t.attr == "problem_type" for t in assign.targets):
            return assign.value
    return None


def _metric_functions(ctx: FileContext) -> list[ast.FunctionDef]:
    """Functions handed to a Trainer as ``compute_metrics=`` (or named ``compute_metrics``)."""
    given = {kw.value.id for kw in ctx.nodes(ast.keyword)
             if kw.arg == "compute_metrics" and isinstance(kw.value, ast.Name)}
    return [fn for fn in ctx.nodes(ast.FunctionDef) if fn.name in given or fn.name == "compute_metrics"]


def _preprocessed(ctx: FileContext) -> bool:
    """The Trainer gets ``preprocess_logits_for_metrics=``: the predictions may be probabilities already."""
    return any(kw.arg == "preprocess_logits_for_metrics" for kw in ctx.nodes(ast.keyword))


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _predictions(fn: ast.FunctionDef) -> set[str]:
    """Names in ``fn`` that hold the predictions: from ``p.predictions``, the first item of the
    unpacked argument (``logits, labels = eval_pred``), and what is computed from them."""
    param = fn.args.args[0].arg if fn.args.args else None
    tainted: set[str] = set()

    def holds(value: ast.AST) -> bool:
        return any(isinstance(n, ast.Attribute) and n.attr == "predictions" for n in ast.walk(value)) \
            or bool(_names(value) & tainted)

    for node in sorted((n for n in ast.walk(fn) if isinstance(n, (ast.Assign, ast.comprehension, ast.For))),
                       key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0))):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Name) and node.value.id == param \
                        and target.elts and isinstance(target.elts[0], ast.Name):
                    tainted.add(target.elts[0].id)  # logits, labels = eval_pred
                elif holds(node.value):
                    tainted |= _names(target)
        elif holds(node.iter):
            tainted |= _names(node.target)
    # comprehension targets have no line: a second pass catches ``[np.where(p > 0.5, 1, 0) for p in preds]``
    for comp in (n for n in ast.walk(fn) if isinstance(n, ast.comprehension)):
        if holds(comp.iter):
            tainted |= _names(comp.target)
    return tainted


def _half(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, float) and node.value == 0.5


@register
class MultilabelLogitsThresholdedAtHalf(Rule):
    code = "PF662"
    needs_text = ("multi_label_classification",)
    name = "multilabel-logits-thresholded-at-half"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("`compute_metrics` of a multi-label classifier thresholds the Trainer's raw logits at 0.5 "
               "(a probability of 0.62)")
    explanation = """
## What it finds

A file whose model is configured with `problem_type="multi_label_classification"` (a keyword, or
`config.problem_type = "multi_label_classification"`) and whose
`compute_metrics` compares the predictions with `0.5` (`np.where(p > 0.5, 1, 0)`,
`preds >= 0.5`) without a sigmoid (`sigmoid`, `expit`, `exp`, `softmax`) anywhere in the function.

## Why it matters

The Trainer hands `compute_metrics` the model's raw outputs: for a multi-label head those are the
logits of `BCEWithLogitsLoss`, not probabilities. 0.5 on the logit scale is a probability of 0.62,
so every label predicted with a probability between 0.5 and 0.62 counts as absent: the reported
F1 (and the checkpoint `metric_for_best_model` keeps) is biased towards precision and low recall
(transformers issue 26830, `run_classification.py`, fixed by PR 26936).

## How to fix it

Threshold the logits at 0 (`preds > 0`), or apply a sigmoid first
(`torch.sigmoid(torch.tensor(preds)) > 0.5`, `scipy.special.expit(preds) > 0.5`).

## When preflight stays silent

* The function applies a sigmoid (or softmax, `exp`) anywhere; the Trainer gets
  `preprocess_logits_for_metrics=` (the predictions may be probabilities already).
* The threshold is 0, or the compared value is not the predictions (`labels > 0.5`).
* No `problem_type="multi_label_classification"` in the file.
"""
    bad_examples = examples("preflight.rules.code._pf662_examples", "PF662_BAD")
    good_examples = examples("preflight.rules.code._pf662_examples", "PF662_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        head = _multi_label(ctx)
        if head is None or _preprocessed(ctx):
            return
        for fn in _metric_functions(ctx):
            if any(isinstance(n, ast.Call) and (getattr(n.func, "attr", None) or getattr(n.func, "id", None)) in _SQUASH
                   for n in ast.walk(fn)):
                continue
            preds = _predictions(fn)
            for cmp in (n for n in ast.walk(fn) if isinstance(n, ast.Compare)):
                if len(cmp.ops) != 1 or not isinstance(cmp.ops[0], (ast.Gt, ast.GtE)) \
                        or not _half(cmp.comparators[0]) or not (_names(cmp.left) & preds):
                    continue
                yield ctx.finding(
                    self, cmp,
                    f"`{ast.unparse(cmp)}` thresholds the predictions of a multi-label classifier at 0.5, but the "
                    "Trainer passes `compute_metrics` the raw logits (BCE-with-logits head), where 0.5 is a "
                    "probability of 0.62: labels with probability 0.5-0.62 count as absent and the F1 is biased. "
                    "Threshold the logits at 0, or apply a sigmoid first",
                    evidence=[ctx.evidence(head, "the model is a multi-label classifier")])
                break
