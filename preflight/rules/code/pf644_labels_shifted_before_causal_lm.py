"""PF644 labels-shifted-before-causal-lm: ``input_ids=t[:, :-1], labels=t[:, 1:]`` given to a transformers
causal LM, whose loss shifts the labels again: the model learns to predict two tokens ahead."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_CAUSAL = ("ForCausalLM", "LMHeadModel")
_PASS_THROUGH = ("to", "cuda", "contiguous", "long", "clone", "pin_memory")


def _last_slice(node: ast.Subscript) -> Optional[ast.Slice]:
    sl = node.slice
    if isinstance(sl, ast.Tuple) and sl.elts:
        sl = sl.elts[-1]
    return sl if isinstance(sl, ast.Slice) and sl.step is None else None


def _int(node: Optional[ast.expr]) -> Optional[int]:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and type(node.operand.value) is int:
        return -node.operand.value
    return None


def _function_defs(tree: ast.AST) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in getattr(tree, "body", []) if isinstance(n, ast.FunctionDef)}


class _Shifts:
    """Which side of a by-hand shift an expression is: ('in', base) for ``base[..., :-1]``, ('out', base)
    for ``base[..., 1:]``, followed through names, ``.to(device)`` and a local helper's returned tuple."""

    def __init__(self, tree: ast.AST) -> None:
        self.defs = _function_defs(tree)

    def of(self, expr: ast.expr, scope: ast.AST, depth: int = 0) -> Optional[tuple[str, str]]:
        if depth > 6:
            return None
        while isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr in _PASS_THROUGH:
            expr = expr.func.value
        if isinstance(expr, ast.Subscript):
            sl = _last_slice(expr)
            if sl is None:
                return None
            lower, upper = _int(sl.lower), _int(sl.upper)
            if sl.lower is None and upper == -1:
                return "in", ast.unparse(expr.value)
            if lower == 1 and sl.upper is None:
                return "out", ast.unparse(expr.value)
            return None
        if isinstance(expr, ast.Name):
            return self._name(expr.id, scope, depth)
        return None

    def _name(self, name: str, scope: ast.AST, depth: int) -> Optional[tuple[str, str]]:
        found: list[tuple[str, str]] = []
        for node in ast.walk(scope):
            if not isinstance(node, ast.Assign) or len(node.targets) != 1:
                continue
            target = node.targets[0]
            if isinstance(target, ast.Name) and target.id == name:
                got = self.of(node.value, scope, depth + 1)
            elif isinstance(target, ast.Tuple) and any(isinstance(e, ast.Name) and e.id == name for e in target.elts):
                index = next(i for i, e in enumerate(target.elts) if isinstance(e, ast.Name) and e.id == name)
                got = self._returned(node.value, index, depth)
            else:
                continue
            if got is None:
                return None
            found.append(got)
        return found[0] if found and all(f == found[0] for f in found) else None

    def _returned(self, value: ast.expr, index: int, depth: int) -> Optional[tuple[str, str]]:
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)):
            return None
        helper = self.defs.get(value.func.id)
        if helper is None:
            return None
        outs = {self._element(r.value, index, helper, depth) for r in ast.walk(helper)
                if isinstance(r, ast.Return) and r.value is not None}
        return outs.pop() if len(outs) == 1 else None

    def _element(self, value: ast.expr, index: int, helper: ast.FunctionDef, depth: int):
        if isinstance(value, ast.Tuple) and index < len(value.elts):
            return self.of(value.elts[index], helper, depth + 1)
        return None


def _causal_models(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(c in ast.unparse(node.value) for c in _CAUSAL):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
            names.update(ast.unparse(t) for t in node.targets if isinstance(t, ast.Attribute))
    return names


@register
class LabelsShiftedBeforeCausalLm(Rule):
    code = "PF644"
    needs_text = ("labels",)
    name = "labels-shifted-before-causal-lm"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("`input_ids=t[:, :-1], labels=t[:, 1:]` given to a transformers causal LM, which shifts the labels "
               "itself: the model is trained to predict the token two positions ahead")
    explanation = """
## What it finds

A call of a transformers causal language model (bound from `AutoModelForCausalLM...`,
`*ForCausalLM`, `*LMHeadModel`) with `input_ids=X` and `labels=Y` where `X` is a sequence
without its last token (`tokens[:, :-1]`) and `Y` the same sequence without its first
(`tokens[:, 1:]`): shifted by hand, as nanoGPT-style loops do for their own loss.
The shift is followed through names, `.to(device)` and the tuple a helper of the file returns
(`X, Y = get_batch(...)`).

## Why it matters

transformers' causal LM losses shift the labels themselves (`shift_labels = labels[...,
1:]`, compared with `logits[..., :-1, :]`; `ForCausalLMLoss`). Shifted once more by hand,
position i is trained against token i + 2: the model learns a skip-one objective, its
next-token loss and its generations are wrong, with no error (delphi PR 134, "Fix training
data shifting bug").

## How to fix it

Pass the unshifted sequence as both `input_ids` and `labels` (`model(input_ids=tokens,
labels=tokens)`), or keep the by-hand shift and compute the loss yourself from the logits.

## When preflight stays silent

* The labels are the same tensor as the inputs (or a copy with `-100` masking).
* The model is not a transformers causal LM bound in the file (a nanoGPT `GPT` computes
  its loss from pre-shifted targets by design).
* The slices cannot be followed (a collator of another module, a dataset's `__getitem__`).
"""
    bad_examples = examples("preflight.rules.code._pf644_examples", "PF644_BAD")
    good_examples = examples("preflight.rules.code._pf644_examples", "PF644_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        models = _causal_models(ctx.tree)
        if not models:
            return
        shifts = _Shifts(ctx.tree)
        for call in ctx.nodes(ast.Call):
            if ast.unparse(call.func) not in models:
                continue
            kw = {k.arg: k.value for k in call.keywords if k.arg}
            inputs, labels = kw.get("input_ids"), kw.get("labels")
            if inputs is None or labels is None:
                continue
            scope = ctx.enclosing_function(call) or ctx.tree
            got_in, got_out = shifts.of(inputs, scope), shifts.of(labels, scope)
            if got_in is None or got_out is None or got_in[0] != "in" or got_out[0] != "out" \
                    or got_in[1] != got_out[1]:
                continue
            yield ctx.finding(
                self, call,
                f"`{ast.unparse(inputs)}` is `{got_in[1]}` without its last token and `{ast.unparse(labels)}` the "
                f"same sequence without its first, and both go to the causal LM `{ast.unparse(call.func)}`, whose "
                "loss shifts the labels by one position again: every position is trained to predict the token two "
                "steps ahead. Pass the unshifted sequence as both `input_ids` and `labels`")
