"""PF167 num-labels-differ-from-finetuned-head: ``*ForSequenceClassification/TokenClassification/
ImageClassification.from_pretrained(<a checkpoint that already has a classification head>, num_labels=N)`` with
N different from that head's size and no ``ignore_mismatched_sizes=True``: loading raises a size mismatch."""

from __future__ import annotations

import ast
import re
from typing import Any, Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import UNKNOWN, has_unpacking, kwarg, literal
from preflight.rules.base import Rule, examples

_CLASSES = re.compile(r"For(Sequence|Token|Image)Classification$")
# checkpoint names that say which fine-tuned head they carry: (pattern on the lower-cased id, labels, what it is)
_HEADS: tuple[tuple[re.Pattern[str], int, str, str], ...] = (
    (re.compile(r"finetuned-ner$|conll0?3"), 9, "Token", "a CoNLL-2003 NER tagger (9 BIO labels)"),
    (re.compile(r"finetuned-sst-?2(-english)?$|-sst-?2$"), 2, "Sequence", "an SST-2 sentiment classifier (2 labels)"),
    (re.compile(r"-mnli$"), 3, "Sequence", "an MNLI entailment classifier (3 labels)"),
    (re.compile(r"^google/vit-(base|large)-patch(16|32)-(224|384)$|^facebook/convnext-[a-z]+-(224|384)$"
                r"|^microsoft/resnet-(18|34|50|101|152)$|^facebook/deit-[a-z]+-(distilled-)?patch16-(224|384)$"),
     1000, "Image", "an ImageNet-1k classifier (1000 labels)"),
)


def _count(ctx: FileContext, expr: Optional[ast.AST]) -> Optional[int]:
    """``num_labels`` when statically known: a number, or ``len(<a literal list/tuple/dict>)``."""
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "len" \
            and len(expr.args) == 1 and not expr.keywords:
        value: Any = literal(ctx, expr.args[0])
        return len(value) if isinstance(value, (list, tuple, dict)) else None
    value = literal(ctx, expr)
    return value if isinstance(value, int) and not isinstance(value, bool) and value is not UNKNOWN else None


def _head(checkpoint: str, kind: str) -> Optional[tuple[int, str]]:
    name = checkpoint.lower().strip("/")
    if "xlm-roberta" in name and "conll" in name:
        return None  # FacebookAI/xlm-roberta-large-finetuned-conll03-*: 8 IOB1 labels, not the BIO 9 of the others
    for pattern, labels, head_kind, what in _HEADS:
        if head_kind == kind and pattern.search(name):
            return labels, what
    return None


@register
class NumLabelsDifferFromFinetunedHead(Rule):
    code = "PF167"
    name = "num-labels-differ-from-finetuned-head"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    needs_text = ("num_labels",)
    summary = ("A checkpoint that already carries a fine-tuned classification head is loaded with another "
               "`num_labels` and without `ignore_mismatched_sizes=True`: from_pretrained raises a size mismatch")
    explanation = """
## What it finds

`AutoModelForTokenClassification` / `...ForSequenceClassification` / `...ForImageClassification`
`.from_pretrained(checkpoint, num_labels=N)` where the checkpoint id (a literal, or a name bound to
one) says the checkpoint is already a fine-tuned classifier with a known head size, N (a number or
`len(...)` of a literal list or dict) differs from it, and `ignore_mismatched_sizes=True` is not
passed. The names read: `...-finetuned-ner` / `conll03` token classifiers (9 labels), `...sst-2`
classifiers (2), `...-mnli` (3), and ImageNet-1k image classifiers (1000: `google/vit-base-patch16-224`,
`facebook/convnext-tiny-224`, `microsoft/resnet-50`, `facebook/deit-*-patch16-224`).

## Why it matters

`from_pretrained` builds the new N-label head and then copies the checkpoint's head into it:
"RuntimeError: Error(s) in loading state_dict for DistilBertForTokenClassification: size mismatch
for classifier.weight: copying a param with shape torch.Size([9, 768]) from checkpoint, the shape in
current model is torch.Size([5, 768])" (transformers issue 20327; the same for RoBERTa, issue 14218,
ConvNext with an ImageNet head, issue 15876, and the image-classification blog, huggingface/blog
PR 460). The job stops before training.

## How to fix it

Pass `ignore_mismatched_sizes=True` so the head is re-initialised for the new labels (and give
`id2label`/`label2id`), or start from the base checkpoint without a head.

## When preflight stays silent

* `ignore_mismatched_sizes` is passed (any value preflight cannot read as False), or `**kwargs`.
* `num_labels` is not known (`len(dataset.features[...].names)`) or equals the head's size.
* The checkpoint id is not a literal, or its name does not say which head it has (`bert-base-uncased`,
  `google/vit-base-patch16-224-in21k` have no fine-tuned head to clash with; the XLM-R CoNLL-2003
  taggers carry 8 IOB1 labels, not 9, and are not read).
"""
    bad_examples = examples("preflight.rules.code._pf167_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf167_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call in ctx.nodes(ast.Call):
            func = call.func
            if not (isinstance(func, ast.Attribute) and func.attr == "from_pretrained"):
                continue
            owner = func.value.attr if isinstance(func.value, ast.Attribute) else \
                func.value.id if isinstance(func.value, ast.Name) else ""
            match = _CLASSES.search(owner)
            if match is None or has_unpacking(call) or not call.args:
                continue
            ignore = kwarg(call, "ignore_mismatched_sizes")
            if ignore is not None and literal(ctx, ignore) is not False:
                continue
            checkpoint = literal(ctx, call.args[0])
            labels = _count(ctx, kwarg(call, "num_labels"))
            if not isinstance(checkpoint, str) or labels is None:
                continue
            head = _head(checkpoint, match.group(1))
            if head is None or head[0] == labels:
                continue
            yield ctx.finding(
                self, call,
                f"`{checkpoint}` is {head[1]} and this loads it with `num_labels={labels}` without "
                f"`ignore_mismatched_sizes=True`: from_pretrained raises \"size mismatch for classifier.weight: "
                f"copying a param with shape torch.Size([{head[0]}, ...]) from checkpoint, the shape in current model "
                f"is torch.Size([{labels}, ...])\" before training (transformers issue 20327). Pass "
                "`ignore_mismatched_sizes=True` to re-initialise the head",
                evidence=[ctx.evidence(call.args[0], "a checkpoint with a fine-tuned head")])
