"""PF297 input-ids-padded-with-ignore-index: ``input_ids`` or ``attention_mask`` padded with ``-100``
(``pad_sequence(..., padding_value=-100)``), the ignore index meant for the labels only."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last, const_str
from preflight.rules.base import Rule, examples


def _module_consts(tree: ast.AST) -> dict[str, list[ast.AST]]:
    """Module-level names and the values bound to them (``IGNORE_INDEX = -100``)."""
    out: dict[str, list[ast.AST]] = {}
    for node in getattr(tree, "body", []):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out.setdefault(target.id, []).append(node.value)
    return out


def _is_minus_100(node: Optional[ast.AST], consts: dict[str, list[ast.AST]]) -> bool:
    if isinstance(node, ast.Name) and len(consts.get(node.id, [])) == 1:
        node = consts[node.id][0]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        return node.operand.value == 100
    return isinstance(node, ast.Constant) and node.value == -100


def _model_input(name: Optional[str]) -> Optional[str]:
    """``input_ids`` / ``attention_mask`` when ``name`` (a variable or a dict key) is one of them, else None:
    ``input_ids``, ``input_ids_padded``, ``pairs_input_ids``, ``attention_masks``."""
    if not name:
        return None
    low = name.lower()
    if "label" in low or "target" in low:
        return None
    if "input_ids" in low:
        return "input_ids"
    if "attention_mask" in low:
        return "attention_mask"
    return None


def _where(ctx: FileContext, call: ast.Call) -> Optional[tuple[str, Optional[str]]]:
    """What the padded batch becomes: (``input_ids``/``attention_mask``, the local name it is bound to)."""
    parent = ctx.parent(call)
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1:
        target = parent.targets[0]
        if isinstance(target, ast.Name):
            kind = _model_input(target.id)
            return (kind, target.id) if kind else None
        if isinstance(target, ast.Subscript):
            kind = _model_input(const_str(target.slice))
            return (kind, None) if kind else None
    if isinstance(parent, ast.Dict):
        for key, value in zip(parent.keys, parent.values):
            if value is call:
                kind = _model_input(const_str(key))
                return (kind, None) if kind else None
    if isinstance(parent, ast.keyword):
        kind = _model_input(parent.arg)
        return (kind, None) if kind else None
    return None


def _compared_with_minus_100(scope: ast.AST, name: str, consts: dict[str, list[ast.AST]]) -> bool:
    """``x != -100`` / ``x == -100`` on the padded name: -100 used as a sentinel to build the mask."""
    for node in ast.walk(scope):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == name and \
                any(_is_minus_100(c, consts) for c in node.comparators):
            return True
    return False


def _rebound_later(scope: ast.AST, name: str, after: int) -> bool:
    """The padded name is bound again after the pad (a second pad with the real pad id)."""
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and node.lineno > after and any(
                isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return True
    return False


@register
class InputIdsPaddedWithIgnoreIndex(Rule):
    code = "PF297"
    name = "input-ids-padded-with-ignore-index"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    needs_text = ("pad_sequence",)
    summary = ("`input_ids` or `attention_mask` padded with -100 (`pad_sequence(..., padding_value=-100)`): -100 "
               "is the labels' ignore index, not a token id or a mask value")
    explanation = """
## What it finds

A `pad_sequence(...)` (torch.nn.utils.rnn) padded with `-100` (a literal, or a module-level
name bound to it such as `IGNORE_INDEX`) whose result becomes the model inputs: bound to a
name or dict key that says `input_ids` or `attention_mask` (`input_ids = pad_sequence(...)`,
`{"input_ids": pad_sequence(...)}`, `attention_mask=pad_sequence(...)`).

## Why it matters

`-100` is the `ignore_index` of the cross-entropy the labels go to; it is not a token id. An
embedding lookup of `-100` indexes out of range: on the GPU a device-side assert stops the
job at the first padded batch (on some kernels it reads whatever lies before the table). In
`attention_mask` the pad positions hold `-100` instead of `0`: the model is told to attend to
them with a weight of -100, which HF models turn into a huge additive bias, not a mask
(Fengshenbang-LM issue 414: "Yes, pad_token_id should be 0").

## How to fix it

Pad `input_ids` with `tokenizer.pad_token_id`, `attention_mask` with `0`, and only the
`labels` with `-100`.

## When preflight stays silent

* The padded name is compared with -100 afterwards (`mask = (padded != -100)`): -100 is a
  sentinel used to build the mask, and the ids are padded again with the pad id.
* The padded name is bound again later in the function (a second pad with the real pad id).
* The result goes to `labels`/`target*` names, or the padding value is not known to be -100.
"""
    bad_examples = examples("preflight.rules.code._pf297_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf297_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        consts = _module_consts(ctx.tree)
        for call in ctx.nodes(ast.Call):
            if call_last(call) != "pad_sequence":
                continue
            value = kwarg(call, "padding_value") or (call.args[2] if len(call.args) > 2 else None)
            if not _is_minus_100(value, consts):
                continue
            found = _where(ctx, call)
            if found is None:
                continue
            kind, name = found
            scope = ctx.enclosing_function(call) or ctx.tree
            if name is not None and (_compared_with_minus_100(scope, name, consts)
                                     or _rebound_later(scope, name, call.lineno)):
                continue
            what = ("a token id: the embedding lookup of every padded position indexes out of range (a "
                    "device-side assert on the GPU). Pad it with `tokenizer.pad_token_id`"
                    if kind == "input_ids" else
                    "a mask value: the pad positions are not masked (HF models add the mask as a bias). Pad it "
                    "with 0")
            yield ctx.finding(
                self, call,
                f"`{kind}` is padded with -100, the labels' ignore index, which is not {what}; only the labels "
                "take -100")
