"""PF484 added-tokens-without-embedding-resize: new tokens added to the tokenizer, the embedding matrix
of the model trained with it never resized."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg, literal
from preflight.rules._pf414_support import call_last, names_called
from preflight.rules._pf484_support import model_loads, trains_by_backward, uses_a_trainer
from preflight.rules.base import Rule, examples
from preflight.rules.code._added_tokens import adds_new, pad_only

# calls that resize (or rebuild) the embeddings themselves: transformers, trl, unsloth, alpaca's helper
_RESIZERS = frozenset({"set_input_embeddings", "setup_chat_format", "add_new_tokens", "resize_embeddings"})


# trl trainers (the PPOv2 design: `PPOTrainer(..., reward_model=, value_model=)`) that replace every pad id by 0
# before each forward and generate (trl/experimental/ppo/ppo_trainer.py `batch_generation` and `forward`:
# `input_ids = torch.masked_fill(query_responses, ~attention_mask, 0)`; `get_reward` the same): a pad token added
# for them never indexes the embedding table
_PAD_MASKING_TRAINERS = frozenset({"PPOTrainer", "PPOv2Trainer"})


def _trains_with_pad_masking_trainer(ctx: FileContext) -> bool:
    return any(call_last(c) in _PAD_MASKING_TRAINERS and
               any(kw.arg in ("reward_model", "value_model") for kw in c.keywords) for c in ctx.nodes(ast.Call))


# organisations whose hub checkpoints are base releases: loaded by name, their table has the released size
_HUB_ORGS = re.compile(r"^(meta-llama|mistralai|Qwen|tiiuae|EleutherAI|bigscience|google|facebook|microsoft|"
                       r"huggyllama|lmsys|NousResearch|openai-community|HuggingFaceH4|01-ai|deepseek-ai|THUDM|"
                       r"baichuan-inc|internlm|allenai|codellama|bigcode)/[\w.-]+$")


def _hub_release_load(ctx: FileContext, loads: list[ast.Call]) -> Optional[ast.Call]:
    """A model load of a released hub checkpoint by name (``"meta-llama/Llama-2-13b-chat-hf"``, also through
    a module constant), not a local or fine-tuned path that may carry a resized table."""
    for load in loads:
        name = literal(ctx, load.args[0]) if load.args else None
        if isinstance(name, str) and _HUB_ORGS.match(name):
            return load
    return None


def _generates_padded_batches(ctx: FileContext) -> bool:
    """A tokenizer call that pads (``padding=True``/``"longest"``/``"max_length"``) and a ``generate``."""
    pads = any(literal(ctx, kwarg(c, "padding")) in (True, "longest", "max_length")
               for c in ctx.nodes(ast.Call) if kwarg(c, "padding") is not None)
    return pads and any(call_last(c) == "generate" for c in ctx.nodes(ast.Call))


def _sets_vocab_size(ctx: FileContext) -> bool:
    """A ``vocab_size=`` keyword, or an assignment to a ``vocab_size`` or to an embedding
    (``text_model.embeddings.token_embedding.weight.data = torch.cat(...)``)."""
    for node in ctx.nodes(ast.keyword, ast.Attribute):
        if isinstance(node, ast.keyword) and node.arg == "vocab_size":
            return True
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and (
                node.attr == "vocab_size" or "embed" in ast.unparse(node)):
            return True
    return False


@register
class AddedTokensWithoutEmbeddingResize(Rule):
    code = "PF484"
    name = "added-tokens-without-embedding-resize"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    needs_text = ("add_tokens", "add_special_tokens")
    summary = "tokens are added to the tokenizer but the model's embeddings are never resized"
    explanation = """
## What it finds

A training script (a `.backward()` loop or a `*Trainer`) that adds tokens to its tokenizer
(`tokenizer.add_tokens([...])`, `tokenizer.add_special_tokens({...})` with a token that is
not already the tokenizer's) and loads the model it trains with `X.from_pretrained(...)`,
but never calls `model.resize_token_embeddings(len(tokenizer))`.

## Why it matters

`add_tokens`/`add_special_tokens` give the new tokens ids from `len(tokenizer)` upward
(transformers `tokenization_utils_base.py`: they return the number of tokens added); the
model's input embedding keeps `config.vocab_size` rows, and only `resize_token_embeddings`
(`modeling_utils.py`) grows it. When the tokenizer's vocabulary already fills the
embedding table (BERT: 30522 rows for 30522 tokens), the first batch holding a new
token indexes past the table: "IndexError: index out of range in self" on CPU, a
device-side assert on GPU (mickeysjm/R-BERT#5). When the table is padded beyond the
vocabulary the ids fit, but they index rows the checkpoint never trained and that the
output head ignores, so a warning rather than an error.

## How to fix it

`model.resize_token_embeddings(len(tokenizer))` after loading the model (before building
the optimizer).

## When preflight stays silent

* The file calls `resize_token_embeddings` (or any `*resize*` helper), `set_input_embeddings`,
  trl's `setup_chat_format`, unsloth's `add_new_tokens`, or sets a `vocab_size`.
* `add_special_tokens` only names tokens the tokenizer already has
  (`{"pad_token": tokenizer.eos_token}`) or the special tokens the usual vocabularies hold
  (`"<s>"`, `"</s>"`, `"<unk>"`, `"<|endoftext|>"`, `"<|im_start|>"`, ...);
  `tokenizer(..., add_special_tokens=False)` is a keyword, not an addition.
* `add_tokens` re-registers the Yuan2 vocabulary's own special tokens (`<eod>`, `<sep>`,
  `<FIM_PREFIX>`, `<jupyter_start>`, ..., the list of IEIT-Yuan's model cards, which load and
  generate with no resize: those ids are rows of the checkpoint's table).
* The only addition is a pad token and the model is trained by trl's `PPOTrainer` (given a
  `reward_model=`/`value_model=`): it replaces every pad id by 0 before each forward and
  `generate` (`torch.masked_fill(query_responses, ~attention_mask, 0)`), so the new id never
  reaches the embedding.
* The file assigns to an embedding (`...token_embedding.weight.data = torch.cat(...)`).
* The file loads no model with `from_pretrained`, or does not train (a preprocessing or
  inference script: a fine-tuned checkpoint may already carry the resized table) unless it
  loads a released hub checkpoint by name (`meta-llama/...`, `mistralai/...`, `Qwen/...`)
  and passes padded batches to `generate` (the h39 report: a `[PAD]` token added for
  batched Llama-2 generation, id 32000 in a 32000-row table).
"""
    bad_examples = examples("preflight.rules.code._pf484_examples", "PF484_BAD")
    good_examples = examples("preflight.rules.code._pf484_examples", "PF484_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        called = names_called(ctx)
        if called & _RESIZERS or any("resize" in name for name in called) or _sets_vocab_size(ctx):
            return
        adds = [c for c in ctx.nodes(ast.Call) if call_last(c) in ("add_tokens", "add_special_tokens") and adds_new(c)]
        if not adds or (all(pad_only(c) for c in adds) and _trains_with_pad_masking_trainer(ctx)):
            return
        loads = model_loads(ctx)
        if not loads:
            return
        add = min(adds, key=lambda c: c.lineno)
        if trains_by_backward(ctx) or uses_a_trainer(ctx):
            yield ctx.finding(
                self, loads[0],
                "the tokenizer gains new tokens but this model's embedding matrix is never resized: the new ids "
                "start at the old vocabulary size and index past the embedding table (IndexError / device-side "
                "assert) or rows the checkpoint never trained. Call `model.resize_token_embeddings(len(tokenizer))` "
                "after loading the model",
                evidence=[ctx.evidence(add, "tokens are added to the tokenizer here")])
            return
        # no training: batched generation with a released hub checkpoint, whose table cannot have been resized
        load = _hub_release_load(ctx, loads)
        if load is not None and _generates_padded_batches(ctx):
            yield ctx.finding(
                self, load,
                "the tokenizer gains a new token (a new pad token gets the id `len(tokenizer)`) but this released "
                "checkpoint's embedding table is never resized: every padded batch passed to `generate` looks the "
                "new id up past the table (IndexError / device-side assert) or in an untrained row. Reuse an "
                "existing token (`tokenizer.pad_token = tokenizer.eos_token`) or resize the embeddings",
                evidence=[ctx.evidence(add, "the token is added to the tokenizer here")])
