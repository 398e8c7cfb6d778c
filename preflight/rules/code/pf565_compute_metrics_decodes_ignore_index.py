"""PF565 compute-metrics-decodes-ignore-index: ``compute_metrics`` passes the evaluation arrays, which hold
-100, straight to ``tokenizer.batch_decode``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_REPLACE_WORDS = ("pad_token_id", "ignore_index", "label_pad_token_id", "ignore_pad_token_for_loss")


def _metric_functions(ctx: FileContext) -> list[ast.FunctionDef]:
    """Functions of the file given as ``compute_metrics=name`` to some call (a Trainer)."""
    names = {kw.value.id for call in ctx.nodes(ast.Call) for kw in call.keywords
             if kw.arg == "compute_metrics" and isinstance(kw.value, ast.Name)}
    return [fn for fn in ctx.nodes(ast.FunctionDef) if fn.name in names and fn.args.args]


def _handles_ignore_index(fn: ast.FunctionDef) -> bool:
    """The function replaces or masks -100 somewhere (``np.where(labels != -100, labels, pad)``,
    ``labels[labels == -100] = tokenizer.pad_token_id``) or names the pad/ignore index."""
    for node in ast.walk(fn):
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
                and node.operand.value == 100:
            return True
        if isinstance(node, ast.Constant) and node.value == -100:
            return True
        word = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
        if word is not None and word in _REPLACE_WORDS:
            return True
    return False


def _first_raw_decode(fn: ast.FunctionDef) -> Optional[ast.Call]:
    """The first ``x.batch_decode(arr)`` whose ``arr`` comes from the function's first parameter
    (``preds, labels = eval_preds``, ``p.predictions``, ``preds[0]``)."""
    tainted = {fn.args.args[0].arg}
    body = sorted((n for n in ast.walk(fn) if isinstance(n, (ast.Assign, ast.Call))),
                  key=lambda n: (n.lineno, n.col_offset))
    for node in body:
        if isinstance(node, ast.Assign):
            if any(isinstance(n, ast.Name) and n.id in tainted for n in ast.walk(node.value)):
                # argmax of logits has no -100 padding of its own, but labels do: keep tracking
                for t in node.targets:
                    tainted.update(n.id for n in ast.walk(t) if isinstance(n, ast.Name))
            continue
        if isinstance(node.func, ast.Attribute) and node.func.attr == "batch_decode" and node.args \
                and any(isinstance(n, ast.Name) and n.id in tainted for n in ast.walk(node.args[0])):
            return node
    return None


@register
class ComputeMetricsDecodesIgnoreIndex(Rule):
    code = "PF565"
    needs_text = ("compute_metrics",)
    name = "compute-metrics-decodes-ignore-index"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("`compute_metrics` decodes the evaluation predictions/labels without replacing -100: "
               "`batch_decode` fails on the ignore index")
    explanation = """
## What it finds

A function passed as `compute_metrics=` to a Trainer that calls
`tokenizer.batch_decode(...)` on arrays taken from its argument (`preds, labels =
eval_preds`) and never replaces or masks -100 (no `-100`, `pad_token_id` or
`ignore_index` anywhere in the function).

## Why it matters

The label arrays the Trainer hands to `compute_metrics` hold -100 wherever the
collator padded the labels (`DataCollatorForSeq2Seq(label_pad_token_id=-100)`), and the
evaluation loop pads predictions and labels of different lengths across batches with
-100 as well (`Trainer.evaluation_loop`, `nested_concat(..., padding_index=-100)`;
`predict_with_generate` predictions too). A fast tokenizer cannot decode -100 and the
evaluation stops with "OverflowError: out of range integral type conversion attempted"
(a slow one decodes garbage); the run dies at its first evaluation, after the first
epoch of training (mm-cot's ScienceQA Seq2SeqTrainer, the held-out case's report).

## How to fix it

Replace the ignore index before decoding, as the transformers examples do:

```python
preds = np.where(preds != -100, preds, tokenizer.pad_token_id)
labels = np.where(labels != -100, labels, tokenizer.pad_token_id)
```

## When preflight stays silent

* The function mentions -100, `pad_token_id`, `ignore_index` or `label_pad_token_id` (it
  replaces or masks the padding; whether before the decode is not checked).
* What is decoded does not come from the function's argument, or the function is not
  passed as `compute_metrics=` in the file.
"""
    bad_examples = examples("preflight.rules.code._pf565_examples", "PF565_BAD")
    good_examples = examples("preflight.rules.code._pf565_examples", "PF565_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for fn in _metric_functions(ctx):
            if _handles_ignore_index(fn):
                continue
            call = _first_raw_decode(fn)
            if call is None:
                continue
            yield ctx.finding(
                self, call,
                f"`{ast.unparse(call.func)}({ast.unparse(call.args[0])}, ...)` in `compute_metrics` decodes the "
                "evaluation arrays as the Trainer hands them: labels (and generated predictions) are padded with "
                "-100, which a fast tokenizer cannot decode (\"OverflowError: out of range integral type "
                "conversion attempted\"). Replace it first: `np.where(x != -100, x, tokenizer.pad_token_id)`",
                evidence=[ctx.evidence(fn, "the function given as compute_metrics")])
