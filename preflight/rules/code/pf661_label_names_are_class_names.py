"""PF661 label-names-are-class-names: ``TrainingArguments(label_names=...)`` given the list of class names."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_ARGS = ("TrainingArguments", "Seq2SeqTrainingArguments")
# keywords and calls that take the class names (transformers' model configs, datasets' ClassLabel,
# scikit-learn's report)
_CLASS_KEYWORDS = ("id2label", "label2id", "num_labels", "target_names", "names", "display_labels")


def _callee(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else (func.id if isinstance(func, ast.Name) else "")


def _mentions(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def _class_use(ctx: FileContext, name: str) -> Optional[ast.expr | ast.stmt]:
    """Where ``name`` is used as the class names: a keyword above (``num_labels=len(classes)``,
    ``id2label=dict(enumerate(classes))``, ``ClassLabel(names=classes)``), or a dict built from it
    bound to ``id2label``/``label2id`` (``label2id = {c: i for i, c in enumerate(classes)}``)."""
    for call in ctx.nodes(ast.Call):
        for kw in call.keywords:
            if kw.arg in _CLASS_KEYWORDS and _mentions(kw.value, name):
                return kw.value
    for assign in ctx.nodes(ast.Assign):
        targets = [t for t in assign.targets if isinstance(t, (ast.Name, ast.Attribute))]
        words = [(t.id if isinstance(t, ast.Name) else t.attr).lower() for t in targets]
        if any(w in ("id2label", "label2id", "num_labels") for w in words) and _mentions(assign.value, name):
            return assign
    return None


@register
class LabelNamesAreClassNames(Rule):
    code = "PF661"
    needs_text = ("label_names",)
    name = "label-names-are-class-names"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("`TrainingArguments(label_names=...)` is given the class names: the Trainer looks for inputs of "
               "those names, finds no labels, and evaluation fails or reports no loss")
    explanation = """
## What it finds

`TrainingArguments(label_names=X)` (or `Seq2SeqTrainingArguments`) where `X` is a name the
same file uses as the list of classes: `num_labels=len(X)`, `id2label=dict(enumerate(X))`,
`label2id={c: i for i, c in enumerate(X)}`, `ClassLabel(names=X)`,
`classification_report(..., target_names=X)`.

## Why it matters

`label_names` names the keys of the input batch that hold the labels (`["labels"]` by
default; `["start_positions", "end_positions"]` for question answering). Given the class
names, the Trainer's `prediction_step` looks for inputs called `"negativ"`, `"neutral"`,
`"positiv"`, finds none and treats every evaluation batch as unlabelled: the loss is `None`,
`label_ids` is `None`, and `compute_metrics` gets a `(loss, logits)` tuple as the predictions;
the first evaluation fails with `IndexError: tuple index out of range` (transformers issue 10908)
and no metric or best checkpoint is ever produced.

## How to fix it

Drop `label_names` (the default finds `labels`) or set it to the batch keys
(`label_names=["labels"]`); keep the class names in the model config's `id2label`.

## When preflight stays silent

* `label_names` is a literal list of key names (`["labels"]`, `["start_positions",
  "end_positions"]`) or a name the file does not use as the classes.
"""
    bad_examples = examples("preflight.rules.code._pf661_examples", "PF661_BAD")
    good_examples = examples("preflight.rules.code._pf661_examples", "PF661_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call in ctx.nodes(ast.Call):
            if _callee(call) not in _ARGS:
                continue
            value = next((kw.value for kw in call.keywords if kw.arg == "label_names"), None)
            if not isinstance(value, ast.Name):
                continue
            use = _class_use(ctx, value.id)
            if use is None:
                continue
            yield ctx.finding(
                self, value,
                f"`label_names={value.id}` names the classes (used as such at line {use.lineno}), but "
                "`label_names` must name the input keys that hold the labels (`[\"labels\"]`): the Trainer "
                "finds no labels in the evaluation batches, the loss and `label_ids` are None, and the first "
                "evaluation fails (or reports no metric). Drop `label_names` or set it to `[\"labels\"]`",
                evidence=[ctx.evidence(use, f"`{value.id}` used as the class names")])
