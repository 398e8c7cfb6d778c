"""PF367 causal-lm-loss-without-shift: a hand-written cross-entropy compares a causal LM's logits at
position t with the input token at position t: the labels are never shifted, so the model learns to copy
its input."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg, qualify
from preflight.rules.base import Rule, examples
from preflight.rules.code._pretrained_class import pretrained_class

# tensor methods that keep every position (views, moves, casts): a slice is the only shift
_VIEWS = frozenset({"view", "reshape", "flatten", "contiguous", "float", "to", "cuda", "long", "clone", "detach"})
_COPIES = frozenset({"clone", "detach", "to", "cuda", "long", "contiguous"})
# transformers heads that predict the next token
_CAUSAL = ("CausalLM", "LMHeadModel")


def _strip(expr: ast.AST, methods: frozenset[str]) -> ast.AST:
    while isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr in methods:
        expr = expr.func.value
    return expr


def _causal_class(ctx: FileContext, call: ast.Call) -> Optional[str]:
    """The transformers decoder-only class whose ``from_pretrained`` built the called model, or None."""
    cls = pretrained_class(ctx, call)
    return cls if cls is not None and any(c in cls for c in _CAUSAL) else None


def _assigned(scope: ast.AST) -> dict[str, list[ast.AST]]:
    out: dict[str, list[ast.AST]] = {}
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign):
            for tgt in node.targets:
                if isinstance(tgt, ast.Name):
                    out.setdefault(tgt.id, []).append(node.value)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name):
            out.setdefault(node.target.id, []).append(node.value if node.value is not None else node)
        elif isinstance(node, (ast.For, ast.comprehension)):
            for name in ast.walk(node.target):
                if isinstance(name, ast.Name):
                    out.setdefault(name.id, []).append(node)
    return out


def _resolve(expr: ast.AST, bound: dict[str, list[ast.AST]], methods: frozenset[str]) -> ast.AST:
    """Follow views (``methods``) and names bound once in the scope to the expression they hold."""
    seen = 0
    while seen < 8:
        seen += 1
        expr = _strip(expr, methods)
        if isinstance(expr, ast.Name) and len(bound.get(expr.id, [])) == 1 \
                and not isinstance(bound[expr.id][0], (ast.For, ast.comprehension)):
            expr = bound[expr.id][0]
            continue
        return expr
    return expr


def _logits_call(expr: ast.AST, bound: dict[str, list[ast.AST]]) -> Optional[ast.Call]:
    """``model(...).logits`` / ``model(...)[0]`` / ``out.logits`` with ``out = model(...)``: the model call."""
    expr = _resolve(expr, bound, _VIEWS)
    if isinstance(expr, ast.Attribute) and expr.attr == "logits":
        inner = _resolve(expr.value, bound, _VIEWS)
    elif isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant) and expr.slice.value == 0:
        inner = _resolve(expr.value, bound, _VIEWS)
        if isinstance(inner, ast.Call) and kwarg(inner, "labels") is not None:
            return None  # called with labels, item 0 is the loss
    else:
        return None
    return inner if isinstance(inner, ast.Call) else None


def _input_ids(call: ast.Call) -> Optional[ast.AST]:
    return call.args[0] if call.args else kwarg(call, "input_ids")


@register
class CausalLMLossWithoutShift(Rule):
    code = "PF367"
    name = "causal-lm-loss-without-shift"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    needs_text = ("logits",)
    frameworks = ("transformers",)
    summary = ("A hand-written cross-entropy scores a causal LM's logits against its own input ids without "
               "shifting them: position t is trained to predict token t, so the model learns to copy its input")
    explanation = """
## What it finds

A cross-entropy written by hand (`F.cross_entropy(...)`, or an `nn.CrossEntropyLoss()`
called) whose input is the logits of a transformers decoder-only model
(`AutoModelForCausalLM`, `*ForCausalLM`, `*LMHeadModel` built with `from_pretrained`:
`model(ids).logits`, `outputs[0]`, seen through `view`/`reshape`/`contiguous`) and whose
target is the very tensor given to that model as `input_ids` (or a `clone()` of it), with
no slice on either side (`logits[..., :-1, :]`, `labels[..., 1:]`).

## Why it matters

A causal LM's logits at position t predict token t+1. The model's own loss
(`labels=`) shifts the labels by one before its cross-entropy; a loss written by hand must
do the same. Without the shift, position t is scored against token t, which the model can
see: the loss falls quickly to near zero, the model learns to copy its input and generates
nothing useful (huggingface/transformers#27517, "the model seems to copy the input";
NVIDIA/Model-Optimizer#1343 review; microsoft/TransformerCompression#98, "shift labels during
finetuning"). Nothing fails; the training curve even looks good.

## How to fix it

Shift before the loss: `shift_logits = logits[..., :-1, :]`,
`shift_labels = labels[..., 1:]`, then
`F.cross_entropy(shift_logits.reshape(-1, V), shift_labels.reshape(-1))`; or pass
`labels=input_ids` to the model and use `outputs.loss`.

## When preflight stays silent

* Either side is sliced (any shift, also one made earlier: `inputs, labels = ids[:, :-1], ids[:, 1:]`).
* The target is not the model's input ids (targets built elsewhere, a dataset that stores
  shifted labels).
* The model is not a transformers decoder-only model (a masked LM, a seq2seq decoder, a
  project class whose `forward` may shift itself).
"""
    bad_examples = examples("preflight.rules.code._pf367_examples", "PF367_BAD")
    good_examples = examples("preflight.rules.code._pf367_examples", "PF367_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        losses: set[str] = set()
        for node in ctx.nodes(ast.Assign):
            if isinstance(node.value, ast.Call) and qualify(ctx, node.value.func) == "torch.nn.CrossEntropyLoss":
                losses.update(ast.unparse(t) for t in node.targets if isinstance(t, (ast.Name, ast.Attribute)))
        scopes = scope_index(ctx)
        for call in ctx.nodes(ast.Call):
            qual = qualify(ctx, call.func)
            if qual != "torch.nn.functional.cross_entropy" and not (
                    isinstance(call.func, (ast.Name, ast.Attribute)) and ast.unparse(call.func) in losses) and not (
                    isinstance(call.func, ast.Call) and qualify(ctx, call.func.func) == "torch.nn.CrossEntropyLoss"):
                continue
            if len(call.args) < 2:
                continue
            fn = scopes.function_of(call)
            scope: ast.AST = fn.node if fn is not None else ctx.tree
            bound = _assigned(scope)
            model_call = _logits_call(call.args[0], bound)
            if model_call is None:
                continue
            cls = _causal_class(ctx, model_call)
            ids = _input_ids(model_call)
            if cls is None or ids is None:
                continue
            target = _resolve(call.args[1], bound, _VIEWS)
            source = _resolve(ids, bound, _COPIES)
            if ast.dump(target) != ast.dump(source):
                continue
            yield ctx.finding(
                self, call,
                f"this cross-entropy scores the logits of `{cls}` (line {model_call.lineno}) against "
                f"`{ast.unparse(call.args[1])}`, the same ids the model was given as input, with no shift: "
                f"position t is trained to predict token t, which it can see, so the model learns to copy its "
                f"input. Shift first (`logits[..., :-1, :]` against `labels[..., 1:]`) or pass `labels=` to the "
                f"model and use `outputs.loss`",
                evidence=[ctx.evidence(model_call, "the causal LM is called here")])
