"""PF1021 left-padded-prompt-mask-from-column-zero: a collate function that pads a batch with a tokenizer set
to ``padding_side = "left"`` and then masks each row's prompt as ``labels[i, :prompt_len] = -100``: with left
padding the first columns are padding, so the mask covers the pads and only part of the prompt."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg, literal
from preflight.rules.base import Rule, examples


def _text(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except Exception:  # pragma: no cover - ast.unparse handles every parsed node
        return ""


def _left_padded(ctx: FileContext) -> set[str]:
    """Receivers (``tok``, ``self.tokenizer``) set to left padding, and never to another side, in the file."""
    sides: dict[str, set[str]] = {}
    for assign in ctx.nodes(ast.Assign):
        for target in assign.targets:
            if isinstance(target, ast.Attribute) and target.attr == "padding_side":
                value = literal(ctx, assign.value)
                sides.setdefault(_text(target.value), set()).add(value if isinstance(value, str) else "?")
        if isinstance(assign.value, ast.Call) and isinstance(assign.value.func, ast.Attribute) \
                and assign.value.func.attr == "from_pretrained":
            side = kwarg(assign.value, "padding_side")
            if side is not None:
                value = literal(ctx, side)
                for target in assign.targets:
                    sides.setdefault(_text(target), set()).add(value if isinstance(value, str) else "?")
    return {name for name, values in sides.items() if values == {"left"}}


def _padded_batches(fn: ast.AST, tokenizers: set[str]) -> set[str]:
    """Names bound in ``fn`` to ``tok(texts, padding=...)`` of a left-padding tokenizer."""
    out: set[str] = set()
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Call)):
            continue
        call = node.value
        padding = kwarg(call, "padding")
        if _text(call.func) in tokenizers and padding is not None \
                and not (isinstance(padding, ast.Constant) and padding.value in (False, None, "do_not_pad")):
            out.add(node.targets[0].id)
    return out


def _ids_of(expr: ast.AST, batches: set[str]) -> bool:
    """``batch["input_ids"]`` / ``batch.input_ids`` of a padded batch (optionally ``.clone()``d)."""
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "clone":
        expr = expr.func.value
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name) and expr.value.id in batches:
        key = expr.slice
        return isinstance(key, ast.Constant) and key.value == "input_ids"
    return isinstance(expr, ast.Attribute) and expr.attr == "input_ids" and isinstance(expr.value, ast.Name) \
        and expr.value.id in batches


def _label_names(fn: ast.AST, batches: set[str]) -> set[str]:
    """Names bound to the padded batch's input ids (the labels tensor), one level of renaming followed."""
    ids: set[str] = set()
    for _ in range(2):
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                value = node.value
                renamed = isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                    and value.func.attr == "clone" and isinstance(value.func.value, ast.Name) \
                    and value.func.value.id in ids
                if renamed or _ids_of(value, batches):
                    ids.add(node.targets[0].id)
    return ids


def _side_tested(ctx: FileContext, node: ast.AST, fn: ast.AST) -> bool:
    """``node`` sits under an ``if`` that tests the padding side."""
    for branch in ast.walk(fn):
        if isinstance(branch, ast.If) and "padding_side" in _text(branch.test) and ctx.under(node, branch):
            return True
    return False


@register
class LeftPaddedPromptMaskFromColumnZero(Rule):
    code = "PF1021"
    needs_text = ("padding_side", "-100")
    name = "left-padded-prompt-mask-from-column-zero"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("a left-padded batch whose prompt is masked as `labels[i, :prompt_len] = -100`: the first columns "
               "are padding, so part of every shorter row's prompt stays in the loss")
    explanation = """
## What it finds

In one function: a batch tokenized with `padding=` by a tokenizer the file sets to
`padding_side = "left"` (and to no other side), labels taken from that batch's `input_ids`, and each
row's prompt masked from column 0: `labels[i, :prompt_len] = -100`, not under an `if` that tests the
padding side.

## Why it matters

With left padding a row shorter than the batch starts with `pad_len` padding columns; its prompt
occupies columns `pad_len .. pad_len + prompt_len`. Masking `[:prompt_len]` covers the padding and
only the first `prompt_len - pad_len` prompt tokens: the rest of the prompt stays in the loss, so the
model is trained to generate its own instructions, by an amount that depends on how much shorter each
row is than the longest in its batch. Nothing fails. Report: QwenLM/Qwen3-ASR PR 212 ("fix: mask SFT
labels correctly with left padding, which is the processor default": the old code masked the first
three tensor columns, two of them padding, and `PREFIX_2`, `PREFIX_3` entered the loss).

## How to fix it

Offset the mask by the row's padding (`pad = (attention_mask[i] == 0).sum()`;
`labels[i, pad:pad + prompt_len] = -100`), mask by position among the non-padding tokens, or pad on
the right for training (`tokenizer.padding_side = "right"`; left padding is only needed for batched
generation).

## When preflight stays silent

* The tokenizer is not set to left padding in the file, or is also set to another side.
* The slice has a start (`labels[i, pad:pad + n]`, `labels[i, -n:]`), or covers every row
  (`labels[:, :P]` after a batch-wide prompt width: correct when the prompts were padded as a block).
* The mask sits under an `if ... padding_side ...` branch.
"""
    bad_examples = examples("preflight.rules.code._pf1021_examples", "PF1021_BAD")
    good_examples = examples("preflight.rules.code._pf1021_examples", "PF1021_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        tokenizers = _left_padded(ctx)
        if not tokenizers:
            return
        for fn in ctx.nodes(ast.FunctionDef):
            batches = _padded_batches(fn, tokenizers)
            if not batches:
                continue
            labels = _label_names(fn, batches)
            if not labels:
                continue
            for node in ast.walk(fn):
                target = self._masked_prefix(ctx, node, labels)
                if target is None or _side_tested(ctx, node, fn):
                    continue
                yield ctx.finding(self, node, (
                    f"`{_text(target)} = -100` masks each row's prompt from column 0, but the batch is padded on "
                    "the left (`padding_side = \"left\"`): a row shorter than the longest starts with padding, so "
                    "the mask covers the pads and only the first part of the prompt, and the rest of the prompt "
                    "is trained on. Offset the mask by the row's padding (e.g. pad = (attention_mask[i] == 0)."
                    "sum(); labels[i, pad:pad + prompt_len] = -100) or pad on the right for training"))

    @staticmethod
    def _masked_prefix(ctx: FileContext, node: ast.AST, labels: set[str]) -> Optional[ast.Subscript]:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            return None
        target = node.targets[0]
        if not (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)
                and target.value.id in labels and isinstance(target.slice, ast.Tuple)
                and len(target.slice.elts) == 2):
            return None
        row, cols = target.slice.elts
        if isinstance(row, ast.Slice) or not isinstance(cols, ast.Slice) or cols.lower is not None \
                or cols.upper is None or cols.step is not None:
            return None
        value = literal(ctx, node.value)
        if not (isinstance(value, int) and value == -100):
            return None
        return target
