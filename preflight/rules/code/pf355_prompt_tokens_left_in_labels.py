"""PF355 prompt-tokens-left-in-labels: a causal-LM example built from a separately tokenized prompt and
response whose labels copy the whole ``input_ids``: the loss also trains on the prompt."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_IGNORE_NAMES = ("IGNORE_INDEX", "IGNORE_TOKEN_ID", "ignore_index", "label_pad_token_id", "LABEL_PAD")


def _tokenized(expr: ast.AST) -> bool:
    """``tok(...).input_ids``, ``tok(...)["input_ids"]``, ``tok.encode(...)`` (sliced or not)."""
    while isinstance(expr, ast.Subscript) and not (isinstance(expr.slice, ast.Constant)
                                                   and expr.slice.value == "input_ids"):
        expr = expr.value
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "encode":
        return True
    if isinstance(expr, ast.Attribute) and expr.attr == "input_ids" and isinstance(expr.value, ast.Call):
        return True
    return isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Call)


def _strip_slice(expr: ast.expr) -> ast.expr:
    while isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Slice):
        expr = expr.value
    return expr


def _copied_name(expr: ast.expr) -> Optional[str]:
    """``list(x)``, ``x.copy()``, ``x[:]``, ``copy.deepcopy(x)``, ``x.clone()``, ``x`` -> ``x``."""
    expr = _strip_slice(expr)
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Call):
        func = expr.func
        if isinstance(func, ast.Name) and func.id in ("list", "deepcopy") and len(expr.args) == 1:
            return _copied_name(expr.args[0])
        if isinstance(func, ast.Attribute) and func.attr in ("copy", "clone", "deepcopy"):
            if func.attr == "deepcopy" and len(expr.args) == 1:
                return _copied_name(expr.args[0])
            return _copied_name(func.value) if not expr.args else None
    return None


def _masks_something(fn: ast.AST) -> bool:
    for node in ast.walk(fn):
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) \
                and isinstance(node.operand, ast.Constant) and node.operand.value == 100:
            return True
        if isinstance(node, ast.Name) and node.id in _IGNORE_NAMES:
            return True
        if isinstance(node, ast.Attribute) and node.attr in _IGNORE_NAMES:
            return True
    return False


@register
class PromptTokensLeftInLabels(Rule):
    code = "PF355"
    needs_text = ("labels",)
    name = "prompt-tokens-left-in-labels"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("labels copied from `input_ids` built as a separately tokenized prompt + response, with no -100 "
               "anywhere: the loss trains on the prompt too")
    url = "https://github.com/neulab/prompt2model/pull/167"
    explanation = """
## What it finds

A function that tokenizes a prompt and a response apart (`tok(prompt).input_ids`,
`tok.encode(answer)`), concatenates them into `input_ids` (`prompt_ids + output_ids`,
sliced or not), and sets the labels to a copy of the whole sequence (`labels =
list(input_ids)`, `input_ids.copy()`, `"labels": input_ids`), with no `-100` (or
`IGNORE_INDEX`) anywhere in the function.

## Why it matters

The two parts are tokenized apart so that the boundary between prompt and response is
known; copying all of `input_ids` into the labels throws the boundary away. The loss is then
computed on the instruction, the task template and the input too: most of the gradient goes
to reproducing text that is given (and identical in every example), not to the answer, and
the model learns to generate prompts (prompt2model PR 167: "Fix label padding for
autoregressive model tokenizing"; the fix masks the prompt with -100).

## How to fix it

`labels = [-100] * len(prompt_ids) + output_ids` (truncated like `input_ids`), or a
completion-only collator.

## When preflight stays silent

* `-100` or an `IGNORE_INDEX`/`ignore_index` name appears in the function (the prompt is
  masked somewhere, perhaps behind an option like `train_on_inputs`).
* The sequence is tokenized in one piece (training on the whole text may be intended).
* The labels are built otherwise.
"""
    bad_examples = examples("preflight.rules.code._pf355_examples", "PF355_BAD")
    good_examples = examples("preflight.rules.code._pf355_examples", "PF355_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for fn in ctx.nodes(ast.FunctionDef):
            if _masks_something(fn):
                continue
            tokenized: set[str] = set()
            joined: dict[str, ast.Assign] = {}
            labels: list[tuple[ast.AST, str]] = []
            for node in ast.walk(fn):
                if isinstance(node, ast.Assign) and len(node.targets) == 1:
                    tgt, value = node.targets[0], node.value
                    if isinstance(tgt, ast.Name) and _tokenized(value):
                        tokenized.add(tgt.id)
                    elif isinstance(tgt, ast.Name) and isinstance(_strip_slice(value), ast.BinOp):
                        joined[tgt.id] = node
                    if isinstance(tgt, ast.Name) and tgt.id in ("labels", "label_ids", "target_ids"):
                        name = _copied_name(value)
                        if name:
                            labels.append((node, name))
                    if isinstance(tgt, ast.Subscript) and isinstance(tgt.slice, ast.Constant) \
                            and tgt.slice.value == "labels":
                        name = _copied_name(value)
                        if name:
                            labels.append((node, name))
                if isinstance(node, ast.Dict):
                    for key, value in zip(node.keys, node.values):
                        if isinstance(key, ast.Constant) and key.value == "labels":
                            name = _copied_name(value)
                            if name:
                                labels.append((value, name))
            for where, name in labels:
                assign = joined.get(name)
                if assign is None:
                    continue
                binop = _strip_slice(assign.value)
                assert isinstance(binop, ast.BinOp)
                left, right = binop.left, binop.right
                if not (isinstance(binop.op, ast.Add) and isinstance(left, ast.Name) and isinstance(right, ast.Name)
                        and left.id in tokenized and right.id in tokenized):
                    continue
                prompt, response = left.id, right.id
                yield ctx.finding(self, where, (
                    f"the labels copy all of `{name}`, which joins the separately tokenized `{prompt}` and "
                    f"`{response}`, and nothing in `{fn.name}` is set to -100: the loss is computed on the "
                    "prompt tokens too, so most of the gradient goes to reproducing the given instruction and "
                    f"input instead of the answer. Mask the prompt: labels = [-100] * len({prompt}) + "
                    f"{response}"),
                    evidence=[ctx.evidence(assign, f"`{name}` = prompt + response, tokenized apart")])
