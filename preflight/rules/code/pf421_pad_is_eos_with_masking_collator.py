"""PF421 pad-is-eos-with-masking-collator: ``pad_token = eos_token`` with a collator that masks pad labels."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

_MASKING = frozenset({"DataCollatorForLanguageModeling", "DataCollatorForCompletionOnlyLM"})
_PAIRS = {"pad_token": "eos_token", "pad_token_id": "eos_token_id"}


def _pad_is_eos(node: ast.Assign) -> Optional[str]:
    value = node.value
    if not isinstance(value, ast.Attribute):
        return None
    for tgt in node.targets:
        if isinstance(tgt, ast.Attribute) and _PAIRS.get(tgt.attr) == value.attr:
            return tgt.attr
    return None


_OLD_SFT_KWARGS = frozenset({"dataset_text_field", "max_seq_length", "tokenizer"})


def _old_sft_default(ctx: FileContext) -> list[ast.Call]:
    """``SFTTrainer(...)`` of the old TRL API (``dataset_text_field``/``max_seq_length``/``tokenizer``
    passed to the trainer, TRL < 0.12) without ``data_collator`` and without packing: it builds
    transformers' ``DataCollatorForLanguageModeling(mlm=False)`` itself."""
    out = []
    for call in ctx.nodes(ast.Call):
        if call_last(call) != "SFTTrainer":
            continue
        names = {kw.arg for kw in call.keywords}
        if None in names or "data_collator" in names or not (names & _OLD_SFT_KWARGS):
            continue
        packing = next((kw.value for kw in call.keywords if kw.arg == "packing"), None)
        if packing is not None and not (isinstance(packing, ast.Constant) and packing.value is False):
            continue
        out.append(call)
    return out


def _what(collator: ast.Call) -> str:
    if call_last(collator) == "SFTTrainer":
        return ("`SFTTrainer`'s default collator (old TRL: `DataCollatorForLanguageModeling(mlm=False)`, "
                "no `data_collator` given)")
    return f"`{call_last(collator)}`"


@register
class PadIsEosWithMaskingCollator(Rule):
    code = "PF421"
    needs_text = ('DataCollatorForLanguageModeling', 'DataCollatorForCompletionOnlyLM', 'SFTTrainer')
    name = "pad-is-eos-with-masking-collator"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = "`pad_token = eos_token` with a collator that sets every pad label to -100 (EOS is never learned)"
    explanation = """
## What it finds

`tokenizer.pad_token = tokenizer.eos_token` (or `pad_token_id = eos_token_id`)
in a file that builds `DataCollatorForLanguageModeling` or TRL's
`DataCollatorForCompletionOnlyLM`.

## Why it matters

These collators build the labels from `input_ids` and replace every token equal
to `pad_token_id` with -100. When pad and EOS are the same token, every EOS
label is masked too: the model is never trained to emit EOS and generates until
`max_new_tokens` (transformers issue 23530, TRL issue 976).

Old TRL's `SFTTrainer` without a `data_collator` builds that collator itself
(mlabonne/llm-course issue 33: the fine-tuned Llama 2 never stops).

## How to fix it

Use a distinct pad token (`tokenizer.add_special_tokens({"pad_token": "<pad>"})`
and resize the embeddings, or an existing unused token such as `unk`), or build
the labels yourself with a collator that masks only the padding positions.

## When preflight stays silent

* The file uses another collator (`DataCollatorForSeq2Seq`, its own labels).
* `SFTTrainer` counts as a masking collator only with the old TRL API (it is given
  `dataset_text_field`, `max_seq_length` or `tokenizer` itself, TRL < 0.12), no
  `data_collator` and no packing: newer TRL pads the labels separately and keeps
  the EOS label.
"""
    bad_examples = examples("preflight.rules.code._pf421_examples", "PF421_BAD")
    good_examples = examples("preflight.rules.code._pf421_examples", "PF421_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        collators = [c for c in ctx.nodes(ast.Call) if call_last(c) in _MASKING] + _old_sft_default(ctx)
        if not collators:
            return
        for node in ctx.nodes(ast.Assign):
            which = _pad_is_eos(node)
            if which is None:
                continue
            yield ctx.finding(
                self, node,
                f"`{which}` is set to the EOS token and {_what(collators[0])} replaces every pad token in "
                "the labels with -100: every EOS label is masked, so the model never learns to stop. Use a "
                "distinct pad token or a collator that masks only padding positions",
                evidence=[ctx.evidence(collators[0], "this collator masks every pad-token label")])
