"""PF564 right-padded-batched-generation: a decoder-only model ``generate``s from a batch padded on the
right (``padding_side="right"``)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples


def _padding_sides(ctx: FileContext) -> tuple[list[ast.AST], bool]:
    """Where the file sets ``padding_side="right"`` (a keyword or an assignment), and whether it
    sets ``"left"`` anywhere."""
    right: list[ast.AST] = []
    left = False
    for node in ctx.nodes(ast.keyword):
        if node.arg == "padding_side" and isinstance(node.value, ast.Constant):
            if node.value.value == "right":
                right.append(node)
            elif node.value.value == "left":
                left = True
    for assign in ctx.nodes(ast.Assign):
        if any(isinstance(t, ast.Attribute) and t.attr == "padding_side" for t in assign.targets):
            if isinstance(assign.value, ast.Constant) and assign.value.value == "right":
                right.append(assign)
            else:
                left = True  # "left", or a value preflight cannot read
    return right, left


def _pads(call: ast.Call) -> bool:
    for kw in call.keywords:
        if kw.arg == "padding" and isinstance(kw.value, ast.Constant) \
                and kw.value.value in (True, "longest", "max_length"):
            return True
    return False


def _padded_batches(ctx: FileContext) -> dict[str, ast.Call]:
    """Names bound to a padded tokenizer call (``inputs = tokenizer(prompts, padding=True, ...)``,
    also through ``.to(device)``)."""
    out: dict[str, ast.Call] = {}
    for assign in ctx.nodes(ast.Assign):
        value: ast.AST = assign.value
        while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "to":
            value = value.func.value
        if not isinstance(value, ast.Call) or not _pads(value):
            continue
        if value.args and isinstance(value.args[0], (ast.List, ast.Tuple)) and len(value.args[0].elts) == 1:
            continue  # a batch of one prompt has no padding
        func = ast.unparse(value.func).lower()
        if "tok" not in func and "processor" not in func:
            continue
        for t in assign.targets:
            if isinstance(t, ast.Name):
                out[t.id] = value
    return out


def _fed_batch(call: ast.Call, batches: dict[str, ast.Call]) -> Optional[str]:
    """The padded batch a ``generate`` call reads: ``**inputs``, ``input_ids=inputs.input_ids``,
    ``inputs["input_ids"]``."""
    for kw in call.keywords:
        for node in ast.walk(kw.value):
            if isinstance(node, ast.Name) and node.id in batches:
                return node.id
    for arg in call.args:
        for node in ast.walk(arg):
            if isinstance(node, ast.Name) and node.id in batches:
                return node.id
    return None


@register
class RightPaddedBatchedGeneration(Rule):
    code = "PF564"
    needs_text = ("padding_side",)
    name = "right-padded-batched-generation"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = "A decoder-only model generates from prompts padded on the right (`padding_side=\"right\"`)"
    explanation = """
## What it finds

In a file that loads a causal LM (`AutoModelForCausalLM`, `...ForCausalLM`): the
tokenizer is set to `padding_side="right"` (in `from_pretrained` or by assignment),
nothing in the file sets it to `"left"`, and a batch tokenized with `padding=True`
(or `"longest"`/`"max_length"`) is passed to `model.generate(...)`.

## Why it matters

A decoder-only model continues the last position of each row. With right padding the
shorter prompts end in pad tokens, so generation starts after the padding: the answers
of those rows are garbage or empty, and batched evaluation scores far below
one-prompt-at-a-time. transformers warns "A decoder-only architecture is being used, but
right-padding was detected! For correct generation results, please set
`padding_side='left'` when initializing the tokenizer" (`GenerationMixin.generate`).
Training code usually sets right padding, and evaluation scripts reuse that tokenizer.

## How to fix it

Pad prompts on the left for generation: `tokenizer.padding_side = "left"` before the
tokenizer call (or a second tokenizer created with `padding_side="left"`), and pass the
attention mask (`**inputs`).

## When preflight stays silent

* The file sets `padding_side` to `"left"` anywhere (or to a value it cannot read).
* The batch is not padded (one prompt at a time, no `padding=`, a literal list of one
  prompt), or `generate` does not read the padded batch.
* An encoder-decoder model (`Seq2SeqLM`, T5, BART): right padding is correct there.
"""
    bad_examples = examples("preflight.rules.code._pf564_examples", "PF564_BAD")
    good_examples = examples("preflight.rules.code._pf564_examples", "PF564_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not ctx.mentions("generate") or not any(
                ctx.mentions(w) for w in ("AutoModelForCausalLM", "LlamaForCausalLM", "Qwen2ForCausalLM")):
            return
        if ctx.mentions("AutoModelForSeq2SeqLM"):
            return
        right, left = _padding_sides(ctx)
        if not right or left:
            return
        batches = _padded_batches(ctx)
        if not batches:
            return
        for call in ctx.nodes(ast.Call):
            if not (isinstance(call.func, ast.Attribute) and call.func.attr == "generate"):
                continue
            name = _fed_batch(call, batches)
            if name is None:
                continue
            yield ctx.finding(
                self, right[0],
                "the tokenizer pads on the right, and a batch it padded is passed to a decoder-only model's "
                f"`{ast.unparse(call.func)}`: the shorter prompts end in pad tokens and generation continues after "
                "them, so those rows' answers are wrong (transformers: \"right-padding was detected! ... set "
                "`padding_side='left'`\"). Set `tokenizer.padding_side = \"left\"` for generation",
                evidence=[ctx.evidence(batches[name], "the padded prompt batch"),
                          ctx.evidence(call, "generation from it")])
            return
