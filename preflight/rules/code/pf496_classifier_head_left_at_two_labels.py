"""PF496 classifier-head-left-at-two-labels: a base checkpoint's classification head built without
``num_labels`` while the file's label set has more than two classes."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import has_unpacking, kwarg
from preflight.rules._pf414_support import const_str
from preflight.rules._pf484_support import model_loads, trains_by_backward, uses_a_trainer
from preflight.rules.base import Rule, examples

# a pretraining checkpoint (its config carries the default two-label head), not a fine-tuned classifier
_BASE_ID = re.compile(r"(^|[/_-])(base|large|small|tiny|mini|medium|xlarge|xl|uncased|cased)$", re.IGNORECASE)
_LABEL_LIST = re.compile(r"^(labels?|label_list|label_names|classes|class_names|categories|id2label|label2id)$",
                         re.IGNORECASE)
_LABEL_COUNT = re.compile(r"^(num_labels|n_labels|num_classes|n_classes|number_of_classes)$", re.IGNORECASE)
_HEAD_KEYWORDS = ("num_labels", "config", "id2label", "label2id")


def _label_count(ctx: FileContext) -> Optional[tuple[int, ast.AST]]:
    """A module-level label list/dict literal (``LABELS = [0, 1, 2, 3, 4]``) or count (``NUM_LABELS = 5``)
    with more than two classes."""
    for node in ctx.tree.body:
        if not isinstance(node, ast.Assign) or len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
            continue
        name, value = node.targets[0].id, node.value
        if _LABEL_LIST.match(name) and isinstance(value, (ast.List, ast.Tuple, ast.Dict)):
            count = len(value.keys) if isinstance(value, ast.Dict) else len(value.elts)
            if count > 2:
                return count, node
        if _LABEL_COUNT.match(name) and isinstance(value, ast.Constant) and isinstance(value.value, int) \
                and not isinstance(value.value, bool) and value.value > 2:
            return value.value, node
    return None


@register
class ClassifierHeadLeftAtTwoLabels(Rule):
    code = "PF496"
    name = "classifier-head-left-at-two-labels"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    needs_text = ("ForSequenceClassification",)
    summary = "a classifier head built from a base checkpoint without num_labels (2 classes) for a label set of more than two"
    explanation = """
## What it finds

A training script that loads `*ForSequenceClassification.from_pretrained("<base checkpoint>")`
(a literal id ending in `-base`, `-large`, `-uncased`, ...) with none of `num_labels=`,
`config=`, `id2label=`/`label2id=`, while the file defines a label list (`LABELS`,
`label_list`, `classes`, ...) of more than two entries or a `NUM_LABELS` above two.

## Why it matters

A pretraining checkpoint's config carries `PretrainedConfig`'s default `num_labels=2`
(transformers `configuration_utils.py`: `id2label` of two entries unless `num_labels`
is given), so the classification head has two outputs. Labels 2 and above are out of range
for cross-entropy: "IndexError: Target 2 is out of bounds" on CPU, a device-side assert on
GPU (Beomi/KcBERT#3).

## How to fix it

`from_pretrained(..., num_labels=len(LABELS))` (or `id2label`/`label2id`).

## When preflight stays silent

* Any of `num_labels`, `config`, `id2label`, `label2id` or `**kwargs` is passed.
* The checkpoint id is not a literal, or names a fine-tuned classifier (it keeps its own head).
* The file defines no label set of more than two classes at module level, or does not train.
"""
    bad_examples = examples("preflight.rules.code._pf496_examples", "PF496_BAD")
    good_examples = examples("preflight.rules.code._pf496_examples", "PF496_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        found = _label_count(ctx)
        if found is None or not (uses_a_trainer(ctx) or trains_by_backward(ctx)):
            return
        count, where = found
        for call in model_loads(ctx):
            if "ForSequenceClassification" not in ast.unparse(call.func) or has_unpacking(call):
                continue
            if any(kwarg(call, k) is not None for k in _HEAD_KEYWORDS):
                continue
            model_id = const_str(call.args[0]) if call.args else None
            if model_id is None or not _BASE_ID.search(model_id):
                continue
            yield ctx.finding(
                self, call,
                f"{model_id!r} is loaded without `num_labels`: its config keeps the default two-label head, "
                f"but the labels here have {count} classes, so cross-entropy fails with \"Target 2 is out of "
                "bounds\" (a device-side assert on GPU). Pass `num_labels=` the number of classes",
                evidence=[ctx.evidence(where, f"{count} classes defined here")])
