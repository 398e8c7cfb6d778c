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


def _mentions_replacement(node: ast.AST) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.UnaryOp) and isinstance(sub.op, ast.USub) and isinstance(sub.operand, ast.Constant) \
                and sub.operand.value == 100:
            return True
        if isinstance(sub, ast.Constant) and sub.value == -100:
            return True
        word = sub.attr if isinstance(sub, ast.Attribute) else sub.id if isinstance(sub, ast.Name) else None
        if word is not None and word in _REPLACE_WORDS:
            return True
    return False


def _raw_label_decode(fn: ast.FunctionDef) -> Optional[ast.Call]:
    """A ``batch_decode(labels)`` of the label array (a name holding ``label``, taken from the function's
    first parameter) that no earlier statement of the function cleans: in a function that replaces -100
    only in the predictions (``np.where(preds != -100, preds, 0)``) the labels keep the collator's -100."""
    first = _first_raw_decode(fn)
    if first is None:
        return None
    tainted = {fn.args.args[0].arg}
    statements = sorted((n for n in ast.walk(fn) if isinstance(n, ast.stmt) and n is not fn),
                        key=lambda n: (n.lineno, n.col_offset))
    for stmt in statements:
        if isinstance(stmt, ast.Assign) and any(isinstance(n, ast.Name) and n.id in tainted
                                                for n in ast.walk(stmt.value)):
            for t in stmt.targets:
                tainted.update(n.id for n in ast.walk(t) if isinstance(n, ast.Name))
    for call in (n for n in ast.walk(fn) if isinstance(n, ast.Call)):
        if not (isinstance(call.func, ast.Attribute) and call.func.attr == "batch_decode" and call.args):
            continue
        arg = call.args[0]
        if not (isinstance(arg, ast.Name) and "label" in arg.id.lower() and arg.id in tainted):
            continue
        before = [s for s in statements if s.lineno < call.lineno and not isinstance(
            s, (ast.For, ast.While, ast.If, ast.With, ast.Try))]
        if any(_mentions_replacement(s) and any(isinstance(n, ast.Name) and n.id == arg.id for n in ast.walk(s))
               for s in before):
            continue
        if any(isinstance(s, (ast.For, ast.While, ast.If, ast.With, ast.Try)) and s.lineno < call.lineno
               and any(isinstance(n, ast.Name) and n.id == arg.id for n in ast.walk(s))
               and not any(c is call for c in ast.walk(s)) for s in statements):
            continue  # touched inside a block before the decode: assume it is cleaned there
        return call
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
  replaces or masks the padding), unless the array decoded is the labels (a name holding
  `label` taken from the argument) and no statement before the decode touches that name
  together with -100 or the pad id: a function that cleans only the predictions
  (`np.where(pred_ids != -100, pred_ids, 0)`) still hands the collator's -100 labels to
  the tokenizer (TALLRec issue 55, held-out-43). A label array touched inside an earlier
  `if`/`for` block counts as cleaned.
* What is decoded does not come from the function's argument, or the function is not
  passed as `compute_metrics=` in the file.
"""
    bad_examples = examples("preflight.rules.code._pf565_examples", "PF565_BAD")
    good_examples = examples("preflight.rules.code._pf565_examples", "PF565_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for fn in _metric_functions(ctx):
            call = _raw_label_decode(fn) if _handles_ignore_index(fn) else _first_raw_decode(fn)
            if call is None:
                continue
            yield ctx.finding(
                self, call,
                f"`{ast.unparse(call.func)}({ast.unparse(call.args[0])}, ...)` in `compute_metrics` decodes the "
                "evaluation arrays as the Trainer hands them: labels (and generated predictions) are padded with "
                "-100, which a fast tokenizer cannot decode (\"OverflowError: out of range integral type "
                "conversion attempted\"). Replace it first: `np.where(x != -100, x, tokenizer.pad_token_id)`",
                evidence=[ctx.evidence(fn, "the function given as compute_metrics")])
