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


# tokenizer families that append EOS to every encoded text themselves (seq2seq: T5, BART, ...)
_EOS_APPENDING = ("t5", "bart", "pegasus", "marian", "opus-mt", "ul2", "prophetnet", "led-", "m2m100", "nllb")
_EOS_WORDS = ("eos", "chat_template", "setup_chat_format", "</s>", "endoftext", "<|im_end|>", "eot")


def _receiver(node: ast.Assign) -> Optional[str]:
    for tgt in node.targets:
        if isinstance(tgt, ast.Attribute) and isinstance(tgt.value, ast.Name):
            return tgt.value.id
    return None


def _no_eos_in_data(ctx: FileContext, collators: list[ast.Call], pads: list[ast.Assign]) -> bool:
    """Whether the file's own tokenization of the training text puts no EOS into it: then the
    collator's pad masking (``labels[labels == pad_token_id] = -100``) removes only padding.

    True only when every collator is built in the file (not old TRL's ``SFTTrainer`` default, which
    tokenizes out of sight), the pad-token receiver is called on text in the file
    (``tokenizer(ex["text"], ...)``), nothing else in the file names EOS (``+ tokenizer.eos_token``,
    ``eos_token_id`` appended, a chat template, ``add_eos_token``), and the tokenizer is not loaded
    from a family that appends EOS itself (T5, BART, ...). GPT-2's tokenizer (and GPT-J's, GPT-NeoX's,
    LLaMA's with its defaults) appends none: transformers models/gpt2/tokenization_gpt2.py
    ``add_bos_token`` defaults to False and no EOS is added."""
    if any(call_last(c) == "SFTTrainer" for c in collators) or ctx.mentions("SFTTrainer"):
        return False
    receivers = {_receiver(p) for p in pads} - {None}
    if len(receivers) != 1:
        return False
    tok = receivers.pop()
    called = any(isinstance(c.func, ast.Name) and c.func.id == tok and c.args for c in ctx.nodes(ast.Call))
    if not called:
        return False
    pad_lines = {p.lineno for p in pads}
    text = ctx.parsed.text if ctx.parsed.text is not None else ctx.parsed.source.text
    for number, line in enumerate(text.splitlines(), 1):
        if number in pad_lines or line.lstrip().startswith("#"):
            continue
        low = line.lower()
        if any(word in low for word in _EOS_WORDS):
            return False
    for call in ctx.nodes(ast.Call):
        if call_last(call) == "from_pretrained" and call.args and isinstance(call.args[0], ast.Constant):
            name = str(call.args[0].value).lower()
            if any(family in name for family in _EOS_APPENDING):
                return False
    return True


def _is_minus_100(node: ast.AST) -> bool:
    return (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
            and isinstance(node.operand, ast.Constant) and node.operand.value == 100)


def _pad_compare(node: ast.AST, receivers: set) -> bool:
    """``labels == tok.pad_token_id`` (either side) with ``tok`` a receiver of ``pad_token = eos_token``."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq)):
        return False
    for side in (node.left, node.comparators[0]):
        if (isinstance(side, ast.Attribute) and side.attr == "pad_token_id"
                and ast.unparse(side.value) in receivers):
            return True
    return False


def _hand_masks(ctx: FileContext, receivers: set) -> list:
    """Hand-written label masking of every pad-id token: ``labels[labels == tok.pad_token_id] = -100``,
    ``labels.masked_fill(labels == tok.pad_token_id, -100)``, ``torch.where(labels == tok.pad_token_id,
    -100, labels)`` (DeepSeek-Coder issue 163)."""
    out: list = []
    for node in ctx.nodes(ast.Assign):
        if not _is_minus_100(node.value):
            continue
        for tgt in node.targets:
            if isinstance(tgt, ast.Subscript) and _pad_compare(tgt.slice, receivers):
                out.append(node)
                break
    for call in ctx.nodes(ast.Call):
        name = call_last(call)
        arity = {"masked_fill": 2, "masked_fill_": 2, "where": 3}.get(name or "")
        if (arity is not None and len(call.args) == arity and _pad_compare(call.args[0], receivers)
                and _is_minus_100(call.args[1])):
            out.append(call)
    return out


def _eos_put_in_data(ctx: FileContext, pads: list) -> bool:
    """Whether the file itself adds EOS to the training text: ``text + tok.eos_token``, ``ids +
    [tok.eos_token_id]``, ``ids.append(tok.eos_token_id)``, ``add_eos_token=True``."""
    pad_ids = {id(p.value) for p in pads}
    for kw in ctx.nodes(ast.keyword):
        if kw.arg == "add_eos_token" and isinstance(kw.value, ast.Constant) and kw.value.value is True:
            return True
    holders: list = []
    for binop in ctx.nodes(ast.BinOp):
        if isinstance(binop.op, ast.Add):
            holders += [binop.left, binop.right]
    holders += [elt for node in ctx.nodes(ast.List) for elt in node.elts]
    for call in ctx.nodes(ast.Call):
        if call_last(call) in ("append", "extend"):
            holders += list(call.args)
    for held in holders:
        for sub in ast.walk(held):
            if (isinstance(sub, ast.Attribute) and sub.attr in ("eos_token", "eos_token_id")
                    and id(sub) not in pad_ids):
                return True
    return False


def _what(collator: ast.Call) -> str:
    if call_last(collator) == "SFTTrainer":
        return ("`SFTTrainer`'s default collator (old TRL: `DataCollatorForLanguageModeling(mlm=False)`, "
                "no `data_collator` given)")
    return f"`{call_last(collator)}`"


@register
class PadIsEosWithMaskingCollator(Rule):
    code = "PF421"
    needs_text = ('DataCollatorForLanguageModeling', 'DataCollatorForCompletionOnlyLM', 'SFTTrainer',
                  'pad_token_id')
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

The same masking written by hand (`labels[labels == tokenizer.pad_token_id] = -100`,
`masked_fill`/`torch.where` on that comparison) in a file that sets the pad token to EOS
and appends EOS to the training text itself (`text + tokenizer.eos_token`,
`ids + [tokenizer.eos_token_id]`, `add_eos_token=True`): every appended EOS is masked
(DeepSeek-Coder issue 163: the fine-tuned model never stops; transformers issue 7135).

## How to fix it

Use a distinct pad token (`tokenizer.add_special_tokens({"pad_token": "<pad>"})`
and resize the embeddings, or an existing unused token such as `unk`), or build
the labels yourself with a collator that masks only the padding positions.

## When preflight stays silent

* Hand-written masking fires only when the file both sets pad to EOS and visibly appends EOS
  to the text; masking by `attention_mask == 0` is silent.

* The file uses another collator (`DataCollatorForSeq2Seq`, its own labels).
* The file's own tokenization puts no EOS into the text: the tokenizer is called on the
  dataset's text in the file (`tokenizer(ex["text"], truncation=True)`), nothing else in
  the file names EOS (`+ tokenizer.eos_token`, an appended `eos_token_id`, a chat
  template, `add_eos_token`), no `SFTTrainer` tokenizes out of sight, and the tokenizer is
  not of a family that appends EOS itself (T5, BART, ...). GPT-2's tokenizer (GPT-J's,
  GPT-NeoX's, LLaMA's with its defaults) appends none, so the only pad-id labels are
  padding and masking them loses nothing (zero_nlp issue 49, DeepSpeed issue 2174: plain
  causal-LM fine-tuning on raw text).
* `SFTTrainer` counts as a masking collator only with the old TRL API (it is given
  `dataset_text_field`, `max_seq_length` or `tokenizer` itself, TRL < 0.12), no
  `data_collator` and no packing: newer TRL pads the labels separately and keeps
  the EOS label.
"""
    bad_examples = examples("preflight.rules.code._pf421_examples", "PF421_BAD")
    good_examples = examples("preflight.rules.code._pf421_examples", "PF421_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        pads = [node for node in ctx.nodes(ast.Assign) if _pad_is_eos(node) is not None]
        if not pads:
            return
        yield from self._hand_written(ctx, pads)
        collators = [c for c in ctx.nodes(ast.Call) if call_last(c) in _MASKING] + _old_sft_default(ctx)
        if not collators or _no_eos_in_data(ctx, collators, pads):
            return
        for node in pads:
            which = _pad_is_eos(node)
            if which is None:
                continue
            yield ctx.finding(
                self, node,
                f"`{which}` is set to the EOS token and {_what(collators[0])} replaces every pad token in "
                "the labels with -100: every EOS label is masked, so the model never learns to stop. Use a "
                "distinct pad token or a collator that masks only padding positions",
                evidence=[ctx.evidence(collators[0], "this collator masks every pad-token label")])

    def _hand_written(self, ctx: FileContext, pads: list) -> Iterable[Finding]:
        receivers = {ast.unparse(t.value) for p in pads for t in p.targets if isinstance(t, ast.Attribute)}
        masks = _hand_masks(ctx, receivers)
        if not masks or not _eos_put_in_data(ctx, pads):
            return
        for node in masks:
            yield ctx.finding(
                self, node,
                "every label equal to `pad_token_id` is set to -100, but the pad token is the EOS token "
                f"(line {pads[0].lineno}) and this file appends EOS to the training text: each sample's own "
                "EOS label is masked too, so the model never learns to stop and generates to the length "
                "limit. Mask only the padded positions (`labels[attention_mask == 0] = -100`) or use a "
                "distinct pad token",
                evidence=[ctx.evidence(pads[0], "the pad token is set to the EOS token here")])
