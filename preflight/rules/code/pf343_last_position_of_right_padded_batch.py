"""PF343 last-position-of-right-padded-batch: ``logits[:, -1]`` read from a batch the tokenizer
padded on the right: for every row shorter than the longest, position -1 is padding."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_ENCODE = ("batch_encode_plus", "__call__", "pad")


def _tokenizers(tree: ast.AST) -> set[str]:
    """Names (``tok``, ``self.tokenizer``) bound to ``*Tokenizer*.from_pretrained(...)``."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and "Tokenizer" in ast.unparse(node.value.func):
            out.update(ast.unparse(t) for t in node.targets if isinstance(t, (ast.Name, ast.Attribute)))
    return out


def _left_padded(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr == "padding_side"
                                                for t in node.targets):
            return True  # any assignment: the side is not known to be right
        if isinstance(node, ast.keyword) and node.arg == "padding_side":
            return True
    return False


def _padded_call(node: ast.AST, tokenizers: set[str]) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    owner = ast.unparse(func)
    if owner not in tokenizers and not (isinstance(func, ast.Attribute) and func.attr in _ENCODE
                                        and ast.unparse(func.value) in tokenizers):
        return False
    padding = next((k.value for k in node.keywords if k.arg == "padding"), None)
    if not isinstance(padding, ast.Constant):
        return False
    return padding.value is True or padding.value in ("longest", "max_length")


def _last_position(node: ast.AST) -> Optional[ast.Subscript]:
    """``x[:, -1]`` / ``x[:, -1, :]``."""
    if not isinstance(node, ast.Subscript) or not isinstance(node.slice, ast.Tuple) or len(node.slice.elts) < 2:
        return None
    first, second = node.slice.elts[0], node.slice.elts[1]
    if not (isinstance(first, ast.Slice) and first.lower is None and first.upper is None and first.step is None):
        return None
    if isinstance(second, ast.UnaryOp) and isinstance(second.op, ast.USub) and isinstance(second.operand, ast.Constant) \
            and second.operand.value == 1:
        return node
    return None


@register
class LastPositionOfRightPaddedBatch(Rule):
    code = "PF343"
    needs_text = ("padding",)
    name = "last-position-of-right-padded-batch"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("`logits[:, -1]` of a batch the tokenizer padded on the right: for every shorter row the last "
               "position is padding, not the row's last token")
    explanation = """
## What it finds

In one function: a batch encoded by a Hugging Face tokenizer with `padding=True`
(`"longest"`, `"max_length"`), the model's outputs on it, and the prediction read at the
last position of every row (`logits[:, -1]`, `logits[:, -1, :]`), in a file that never
sets `padding_side` (GPT-2, Llama and most causal-LM tokenizers pad on the right).

## Why it matters

With right padding the last position of every row shorter than the longest one is a pad
token; the logits there predict what follows the padding, not the row's next token. Batched
next-token predictions, cloze accuracies or rewards read that way are wrong for every
short row, silently (transformers issue 3167: "This is" batched with a longer context
predicts "\\n" instead of " a").

## How to fix it

Read each row's last real position, `logits[torch.arange(len(x)), enc.attention_mask.sum(1) - 1]`,
or pad on the left (`tokenizer.padding_side = "left"`).

## When preflight stays silent

* The file sets `padding_side` (anywhere), or the batch is not padded (`padding` absent or
  False: one sequence, or equal lengths by construction).
* The last position is read from something not computed from the padded batch.
"""
    bad_examples = examples("preflight.rules.code._pf343_examples", "PF343_BAD")
    good_examples = examples("preflight.rules.code._pf343_examples", "PF343_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        tokenizers = _tokenizers(ctx.tree)
        if not tokenizers or _left_padded(ctx.tree):
            return
        for fn in ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
            padded: set[str] = set()
            encode: Optional[ast.Call] = None
            statements = sorted((n for n in ast.walk(fn) if isinstance(n, ast.Assign)), key=lambda n: n.lineno)
            for stmt in statements:
                value = stmt.value
                if any(_padded_call(n, tokenizers) for n in ast.walk(value)):
                    encode = encode or next(n for n in ast.walk(value) if _padded_call(n, tokenizers))  # type: ignore[assignment]
                elif not ({n.id for n in ast.walk(value) if isinstance(n, ast.Name)} & padded):
                    continue
                padded.update(n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name))
            if not padded or encode is None:
                continue
            for node in ast.walk(fn):
                sub = _last_position(node)
                if sub is None or not ({n.id for n in ast.walk(sub.value) if isinstance(n, ast.Name)} & padded):
                    continue
                yield ctx.finding(
                    self, sub,
                    f"`{ast.unparse(sub)}` reads the last position of every row of a batch the tokenizer padded "
                    "on the right (no `padding_side` is set in this file): for each row shorter than the "
                    "longest it is a pad position, so the prediction there is not the row's next token "
                    "(transformers issue 3167). Index each row at `attention_mask.sum(1) - 1`, or set "
                    "`tokenizer.padding_side = \"left\"`",
                    evidence=[ctx.evidence(encode, "padded batch")])
                break
