"""PF480 one-hot-float-labels-to-classifier: one-hot float label vectors fed to a transformers
``*ForSequenceClassification`` model with no ``problem_type``: the model infers multi-label
classification and trains with ``BCEWithLogitsLoss`` instead of cross-entropy."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, kwarg
from preflight.rules._pf414_support import const_str
from preflight.rules.base import Rule, examples

_LABEL_KEYS = ("labels", "label")


def _float_const(node: ast.AST, value: float) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, float) and node.value == value


def _one_hot(node: ast.AST) -> bool:
    """``[1.0 if y == i else 0.0 for i in range(n)]`` (a single label compared for equality: one-hot, not
    multi-hot), or ``F.one_hot(y, n).float()`` / ``.to(torch.float32)``."""
    if isinstance(node, ast.ListComp) and isinstance(node.elt, ast.IfExp) and len(node.generators) == 1:
        exp = node.elt
        test = exp.test
        var = node.generators[0].target
        if not (_float_const(exp.body, 1.0) and _float_const(exp.orelse, 0.0) and isinstance(test, ast.Compare)
                and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq) and isinstance(var, ast.Name)):
            return False
        # one side is the loop variable itself, the other a value that does not depend on it: the
        # position of one class (not `example["output"][k] == "True"`, a multi-hot vector)
        sides = (test.left, test.comparators[0])
        for this, other in (sides, sides[::-1]):
            if isinstance(this, ast.Name) and this.id == var.id and \
                    not any(isinstance(n, ast.Name) and n.id == var.id for n in ast.walk(other)):
                return True
        return False
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("float", "to") \
            and isinstance(node.func.value, ast.Call):
        inner = node.func.value.func
        named = inner.attr if isinstance(inner, ast.Attribute) else inner.id if isinstance(inner, ast.Name) else ""
        if named != "one_hot":
            return False
        if node.func.attr == "float":
            return True
        return bool(node.args) and ast.unparse(node.args[0]).endswith(("float", "float32", "float16", "bfloat16"))
    return False


def _label_target(target: ast.AST) -> Optional[str]:
    if isinstance(target, ast.Subscript):
        key = const_str(target.slice)
        if key in _LABEL_KEYS:
            return key
    return None


@register
class OneHotFloatLabelsToClassifier(Rule):
    code = "PF480"
    needs_text = ("ForSequenceClassification",)
    name = "one-hot-float-labels-to-classifier"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("One-hot float labels for a `*ForSequenceClassification` model without `problem_type`: it "
               "infers multi-label classification and trains with BCE, not cross-entropy")
    explanation = """
## What it finds

In a file that builds a transformers `*ForSequenceClassification` model without
`problem_type=`, a `"labels"` (or `"label"`) entry set to a one-hot float vector:
`[1.0 if label2id[y] == i else 0.0 for i in range(num_labels)]` or
`F.one_hot(y, n).float()`.

## Why it matters

With `config.problem_type` unset, the sequence-classification loss chooses it from the
labels (`transformers/loss/loss_utils.py`, `ForSequenceClassificationLoss`): one label
means regression, integer labels single-label classification, and anything else, float
vectors included, `"multi_label_classification"` with `BCEWithLogitsLoss`. A single-label
task written with one-hot floats therefore trains independent sigmoids instead of a
softmax cross-entropy, silently (activetigger issue 1030: "the default Trainer branch is
silently training with BCE, not CE").

## How to fix it

Give the class index as an integer label (`enc["labels"] = label2id[y]`), or pass
`problem_type="single_label_classification"` to `from_pretrained` (the loss then takes
the class index from the one-hot vector's shape: pass indices).

## When preflight stays silent

* `problem_type` is passed or assigned anywhere in the file, or a `compute_loss` is
  defined (the loss is the user's).
* The vector is multi-hot (`1.0 if name in labels else 0.0`): BCE is then meant.
"""
    bad_examples = examples("preflight.rules.code._pf480_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf480_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        model: Optional[ast.Call] = None
        for call, qual in calls(ctx):
            last = qual.rsplit(".", 2)[-2] if qual.endswith(".from_pretrained") and qual.count(".") >= 1 else \
                qual.rsplit(".", 1)[-1]
            if qual.startswith("transformers") and last.endswith("ForSequenceClassification"):
                if kwarg(call, "problem_type") is not None or any(k.arg is None for k in call.keywords):
                    return
                model = model or call
        if model is None or self._problem_type_elsewhere(ctx):
            return
        for node in ctx.nodes(ast.Assign):
            key = next((k for k in map(_label_target, node.targets) if k), None)
            if key is None or not _one_hot(node.value):
                continue
            yield ctx.finding(
                self, node,
                f"`{key}` is a one-hot float vector and the `*ForSequenceClassification` model has no "
                "`problem_type`: with float labels and `num_labels > 1` transformers infers "
                "`multi_label_classification` and trains with `BCEWithLogitsLoss`, not the softmax cross-entropy "
                "of a single-label task. Give the class index as an integer label (or set `problem_type`)",
                evidence=[ctx.evidence(model, "the classifier is built here without `problem_type`")])

    @staticmethod
    def _problem_type_elsewhere(ctx: FileContext) -> bool:
        for node in ctx.nodes(ast.Attribute):
            if node.attr == "problem_type":
                return True
        return any(fn.name == "compute_loss" for fn in ctx.nodes(ast.FunctionDef))
