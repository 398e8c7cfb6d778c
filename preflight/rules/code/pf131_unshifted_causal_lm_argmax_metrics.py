"""PF131 unshifted-causal-lm-argmax-metrics: a causal LM's teacher-forced argmax compared with the labels
position by position in ``compute_metrics``, without the one-token shift."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples
from preflight.rules.code._pf592_support import MetricFn, resolve_metric_fn


def _param(fn: MetricFn) -> Optional[str]:
    args = fn.args.posonlyargs + fn.args.args
    if isinstance(fn, ast.FunctionDef) and args and args[0].arg == "self":
        args = args[1:]
    return args[0].arg if args else None


def _argmax_of(fn: MetricFn, param: str) -> Optional[ast.Call]:
    """``logits.argmax(-1)`` or ``torch.argmax(logits, dim=-1)`` on the function's own logits, whole."""
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call) or call_last(node) != "argmax":
            continue
        method = isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
            and node.func.value.id == param
        function = bool(node.args) and isinstance(node.args[0], ast.Name) and node.args[0].id == param
        if method or function:
            return node
    return None


def _one_off(bound: Optional[ast.expr], value: int) -> bool:
    if isinstance(bound, ast.Constant):
        return bound.value == value
    return isinstance(bound, ast.UnaryOp) and isinstance(bound.op, ast.USub) and \
        isinstance(bound.operand, ast.Constant) and bound.operand.value == -value


def _shifts(fn: MetricFn) -> bool:
    """A slice that drops the first or the last position (``labels[:, 1:]``, ``preds[..., :-1]``), an index
    moved by one, a roll or a name that says it shifts."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Subscript):
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            if any(isinstance(p, ast.Slice) and (_one_off(p.lower, 1) or _one_off(p.upper, -1)) for p in parts):
                return True
        if isinstance(node, ast.Call) and call_last(node) in ("roll", "shift"):
            return True
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)) and _one_off(node.right, 1):
            return True  # index arithmetic: ``seq_index - 1`` picks the position that predicts each label
        if isinstance(node, ast.Name) and "shift" in node.id.lower():
            return True
    return False


def _reads_labels(fn: MetricFn) -> bool:
    return any((isinstance(n, ast.Name) and "label" in n.id.lower())
               or (isinstance(n, ast.Attribute) and n.attr == "label_ids") for n in ast.walk(fn))


@register
class UnshiftedCausalLmArgmaxMetrics(Rule):
    code = "PF131"
    needs_text = ("preprocess_logits_for_metrics",)
    name = "unshifted-causal-lm-argmax-metrics"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("A causal LM's teacher-forced argmax (`preprocess_logits_for_metrics`) is compared with the labels "
               "position by position in `compute_metrics`, unshifted")
    explanation = """
## What it finds

A Trainer (`SFTTrainer`, or any Trainer in a file that loads a `*ForCausalLM` model) given
a `preprocess_logits_for_metrics` that returns the argmax of the whole logits
(`logits.argmax(dim=-1)`) and a `compute_metrics` that reads the labels, where neither
function shifts one of them by a position (`preds[:, :-1]`, `labels[:, 1:]`, a roll).

## Why it matters

A causal LM's logits at position t predict token t+1, and the Trainer hands
`compute_metrics` the labels unshifted (the model shifts them inside its loss). Decoded or
compared position by position, the "predictions" are one token off against the
references: the words come out misspelled and the accuracy/ROUGE logged at every
evaluation is meaningless; with `metric_for_best_model` the best checkpoint is picked on it
(trl issue 862: "The phrases produced during the training are 'readable' but the words are
misspelled").

## How to fix it

Compare `preds[:, :-1]` with `labels[:, 1:]` (and mask the -100 positions), as
transformers' `run_clm.py` does, or evaluate generations with `generate`.

## When preflight stays silent

* Either function slices off the first or the last position, moves an index by one
  (`seq_index - 1`), rolls or names a shift.
* An encoder-decoder model (`Seq2Seq` in the file): its logits are aligned with its labels.
* A Trainer of a file with no causal LM (token classification argmaxes per position).
"""
    bad_examples = examples("preflight.rules.code._pf131_examples", "PF131_BAD")
    good_examples = examples("preflight.rules.code._pf131_examples", "PF131_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        text = ctx.parsed.source.text or ""
        if "Seq2Seq" in text:
            return
        for call in ctx.nodes(ast.Call):
            trainer = call_last(call)
            pre, comp = kwarg(call, "preprocess_logits_for_metrics"), kwarg(call, "compute_metrics")
            if not trainer.endswith("Trainer") or pre is None or comp is None:
                continue
            if trainer != "SFTTrainer" and "ForCausalLM" not in text:
                continue
            pfn, cfn = resolve_metric_fn(ctx, pre, call), resolve_metric_fn(ctx, comp, call)
            param = _param(pfn) if pfn is not None else None
            if pfn is None or cfn is None or param is None or not _reads_labels(cfn):
                continue
            argmax = _argmax_of(pfn, param)
            if argmax is None or _shifts(pfn) or _shifts(cfn):
                continue
            yield ctx.finding(
                self, argmax,
                f"`preprocess_logits_for_metrics` keeps the argmax of the causal LM's teacher-forced `{param}`, and "
                "`compute_metrics` compares it with the labels position by position: the logits at position t "
                "predict token t+1, so every prediction is one token off its reference and the metric is "
                "meaningless. Compare `preds[:, :-1]` with `labels[:, 1:]` (masking -100)",
                evidence=[ctx.evidence(cfn, "compute_metrics reads the labels unshifted"),
                          ctx.evidence(call, "the Trainer of a causal LM")])
