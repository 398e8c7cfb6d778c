"""PF243 new-tokens-frozen-under-lora: tokens are added to the tokenizer and the embeddings resized, but
the LoRA config neither trains nor saves the embedding and the output head: the new rows never learn."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples
from preflight.rules.code._added_tokens import adds_new, pad_only

# module names of the input embedding / output head in the usual causal-LM families
_EMBEDDING_NAMES = ("embed", "lm_head", "wte", "word_embeddings")
# keywords of LoraConfig that train or store the embedding rows
_TRAINING_KEYWORDS = ("modules_to_save", "trainable_token_indices")
# calls that add tokens and resize in one (trl)
_ADD_AND_RESIZE = ("setup_chat_format",)


def _targets_embedding(call: ast.Call) -> bool:
    """``target_modules`` names an embedding or the head (LoRA on them trains the new rows' directions),
    or is not a literal list."""
    value = next((kw.value for kw in call.keywords if kw.arg == "target_modules"), None)
    if value is None:
        return False
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return value.value != "all-linear" and any(n in value.value for n in _EMBEDDING_NAMES)
    if not isinstance(value, (ast.List, ast.Tuple, ast.Set)):
        return True
    for elt in value.elts:
        if not (isinstance(elt, ast.Constant) and isinstance(elt.value, str)):
            return True
        if any(n in elt.value for n in _EMBEDDING_NAMES):
            return True
    return False


def _dict_built_elsewhere(call: ast.Call) -> bool:
    """``tok.add_special_tokens(special_tokens_dict)``: a dict preflight cannot read. Stanford Alpaca's recipe
    fills it with a pad token only when the tokenizer lacks one (a masked pad row needs no training), so an
    unread dict is not taken as new content tokens."""
    if call_last(call) != "add_special_tokens":
        return False
    arg = call.args[0] if call.args else (call.keywords[0].value if call.keywords else None)
    return not isinstance(arg, ast.Dict)


def _unfreezes_embeddings(ctx: FileContext) -> bool:
    """The file makes embedding weights trainable itself (``model.get_input_embeddings().requires_grad_()``,
    ``...embed_tokens.weight.requires_grad = True``)."""
    for node in ctx.nodes(ast.Call, ast.Assign):
        text = ast.unparse(node)
        if "requires_grad" in text and any(n in text for n in ("embed", "lm_head", "output_embeddings")):
            return True
    return False


@register
class NewTokensFrozenUnderLora(Rule):
    code = "PF243"
    name = "new-tokens-frozen-under-lora"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    needs_text = ("LoraConfig",)
    summary = ("new tokens are added and the embeddings resized, but the LoRA config neither trains nor saves "
               "the embedding and head (`modules_to_save` / `trainable_token_indices`): the new rows stay random")
    explanation = """
## What it finds

A file that adds tokens that are new to the tokenizer (`tokenizer.add_special_tokens({"additional_special_tokens":
[...]})`, `tokenizer.add_tokens([...])`, trl's `setup_chat_format`), resizes the embeddings
(`model.resize_token_embeddings(len(tokenizer))`) and builds a `LoraConfig(...)` without
`modules_to_save` or `trainable_token_indices`, whose `target_modules` name no embedding or
output head.

## Why it matters

`resize_token_embeddings` appends freshly initialised rows to the input embedding and the LM
head. `get_peft_model` then freezes every base weight and trains only the LoRA matrices of the
target modules, so those rows keep their initial values for the whole run: the model cannot
read the new tokens as anything but noise and cannot learn to emit them (a tool-call or
end-of-turn marker it never produces). The saved adapter does not contain them either, so
loading it on a fresh base fails with size mismatches for `embed_tokens`/`lm_head` (unsloth issue
237; PEFT's documentation: add the embedding layers to `modules_to_save`, or use
`trainable_token_indices`, when new tokens are added).

## How to fix it

`LoraConfig(..., modules_to_save=["embed_tokens", "lm_head"])` (the names of your model's
embedding and head), or `trainable_token_indices=[ids of the new tokens]` (PEFT 0.15+), which
trains only the new rows.

## When preflight stays silent

* The only added token is a pad token (its positions are masked out of the loss and the
  attention), or the tokens added are ones the vocabulary already holds.
* `add_special_tokens` gets a dict built elsewhere (`special_tokens_dict`): Stanford Alpaca's recipe
  fills it with a pad token only when the tokenizer has none, which needs no training.
* `modules_to_save`/`trainable_token_indices` appear anywhere in the file (a config built in
  steps), `target_modules` names an embedding or the head, or is not a literal list.
* The file makes embedding weights trainable itself (`...get_input_embeddings().requires_grad_(True)`).
* The file does not resize the embeddings (PF484 reports that).
"""
    bad_examples = examples("preflight.rules.code._pf243_examples", "PF243_BAD")
    good_examples = examples("preflight.rules.code._pf243_examples", "PF243_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        text = ctx.parsed.source.text
        if any(k in text for k in _TRAINING_KEYWORDS):
            return
        added: Optional[ast.Call] = None
        resized = False
        configs: list[ast.Call] = []
        for call in sorted(ctx.nodes(ast.Call), key=lambda c: (c.lineno, c.col_offset)):
            last = call_last(call)
            if last in ("add_tokens", "add_special_tokens") and adds_new(call) and not pad_only(call) \
                    and not _dict_built_elsewhere(call):
                added = added or call
            elif last in _ADD_AND_RESIZE:
                added = added or call
                resized = True
            elif last == "resize_token_embeddings":
                resized = True
            elif last == "LoraConfig":
                configs.append(call)
        if added is None or not resized or not configs or _unfreezes_embeddings(ctx):
            return
        for config in configs:
            if any(kw.arg is None for kw in config.keywords) or _targets_embedding(config):
                continue
            yield ctx.finding(
                self, config,
                "this LoRA config neither trains nor saves the embedding and output head, but the tokenizer "
                f"gains new tokens (line {added.lineno}) whose embedding rows were just added by the resize: "
                "under LoRA the base weights are frozen, so those rows keep their random initialisation, the "
                "model never learns to read or emit the new tokens, and the adapter does not store them. Pass "
                "`modules_to_save=[\"embed_tokens\", \"lm_head\"]` (or `trainable_token_indices=`)",
                evidence=[ctx.evidence(added, "new tokens are added here")])
