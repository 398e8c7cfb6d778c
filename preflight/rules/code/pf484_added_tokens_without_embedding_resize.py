"""PF484 added-tokens-without-embedding-resize: new tokens added to the tokenizer, the embedding matrix
of the model trained with it never resized."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import call_last, names_called
from preflight.rules._pf484_support import model_loads, trains_by_backward, uses_a_trainer
from preflight.rules.base import Rule, examples

# calls that resize (or rebuild) the embeddings themselves: transformers, trl, unsloth, alpaca's helper
_RESIZERS = frozenset({"set_input_embeddings", "setup_chat_format", "add_new_tokens", "resize_embeddings"})
# special tokens the usual pretrained vocabularies already hold (Llama, GPT-2, Qwen, Gemma, Llama-3): naming one
# of them in `add_special_tokens` assigns a role, it adds no row
_KNOWN = frozenset({"<s>", "</s>", "<unk>", "<pad>", "<eos>", "<bos>", "<|endoftext|>", "<|im_start|>", "<|im_end|>",
                    "<start_of_turn>", "<end_of_turn>", "<|begin_of_text|>", "<|end_of_text|>", "<|eot_id|>"})


# a vocabulary whose own special tokens its vendor's recipe re-registers with `add_tokens` on every load, with no
# resize (IEIT-Yuan's Yuan2 model cards and examples: `tokenizer.add_tokens(['<sep>', '<pad>', '<mask>', '<predict>',
# '<FIM_SUFFIX>', ..., '<empty_output>'], special_tokens=True)`, then generation with the checkpoint as loaded: the
# ids are rows of its embedding table, trained with Yuan2's chat and code formats). A list counts as that recipe
# when it holds one of the family's own names, not only the generic `<sep>`/`<pad>`/`<mask>`.
_YUAN2 = frozenset({"<eod>", "<sep>", "<pad>", "<mask>", "<predict>", "<FIM_SUFFIX>", "<FIM_PREFIX>", "<FIM_MIDDLE>",
                    "<commit_before>", "<commit_msg>", "<commit_after>", "<jupyter_start>", "<jupyter_text>",
                    "<jupyter_code>", "<jupyter_output>", "<empty_output>"})
_GENERIC = frozenset({"<sep>", "<pad>", "<mask>"})
# trl trainers (the PPOv2 design: `PPOTrainer(..., reward_model=, value_model=)`) that replace every pad id by 0
# before each forward and generate (trl/experimental/ppo/ppo_trainer.py `batch_generation` and `forward`:
# `input_ids = torch.masked_fill(query_responses, ~attention_mask, 0)`; `get_reward` the same): a pad token added
# for them never indexes the embedding table
_PAD_MASKING_TRAINERS = frozenset({"PPOTrainer", "PPOv2Trainer"})


def _strings(node: ast.AST) -> Optional[list[str]]:
    """The string constants of a literal value (a string or a list/tuple of them), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.List, ast.Tuple)):
        out: list[str] = []
        for elt in node.elts:
            inner = _strings(elt)
            if inner is None:
                return None
            out.extend(inner)
        return out
    return None


def _new_value(value: ast.AST) -> bool:
    if isinstance(value, ast.Attribute):
        return False  # `tokenizer.eos_token`: one of its own
    strings = _strings(value)
    if strings is None:
        return True
    added = set(strings)
    if added <= _KNOWN:
        return False
    return not (added <= _KNOWN | _YUAN2 and added & (_YUAN2 - _GENERIC))


def _adds_new(call: ast.Call) -> bool:
    """``tok.add_tokens([...])`` or ``tok.add_special_tokens({...})`` with a value that is not one of
    the tokenizer's own tokens (``{"pad_token": tok.eos_token}`` adds nothing)."""
    if not isinstance(call.func, ast.Attribute) or not (call.args or call.keywords):
        return False
    arg: Optional[ast.AST] = call.args[0] if call.args else call.keywords[0].value
    if call.func.attr == "add_tokens":
        return arg is not None and _new_value(arg)
    if isinstance(arg, ast.Dict):
        return any(_new_value(v) for v in arg.values if v is not None)
    return True  # a dict built elsewhere


def _pad_only(call: ast.Call) -> bool:
    """``tok.add_special_tokens({"pad_token": ...})`` and nothing else."""
    arg = call.args[0] if call.args else None
    return call_last(call) == "add_special_tokens" and isinstance(arg, ast.Dict) and bool(arg.keys) and all(
        isinstance(k, ast.Constant) and k.value == "pad_token" for k in arg.keys)


def _trains_with_pad_masking_trainer(ctx: FileContext) -> bool:
    return any(call_last(c) in _PAD_MASKING_TRAINERS and
               any(kw.arg in ("reward_model", "value_model") for kw in c.keywords) for c in ctx.nodes(ast.Call))


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
* The file loads no model with `from_pretrained` or does not train (a preprocessing or
  inference script: a fine-tuned checkpoint may already carry the resized table).
"""
    bad_examples = examples("preflight.rules.code._pf484_examples", "PF484_BAD")
    good_examples = examples("preflight.rules.code._pf484_examples", "PF484_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        called = names_called(ctx)
        if called & _RESIZERS or any("resize" in name for name in called) or _sets_vocab_size(ctx):
            return
        adds = [c for c in ctx.nodes(ast.Call) if call_last(c) in ("add_tokens", "add_special_tokens") and _adds_new(c)]
        if not adds or (all(_pad_only(c) for c in adds) and _trains_with_pad_masking_trainer(ctx)):
            return
        loads = model_loads(ctx)
        if not loads or not (trains_by_backward(ctx) or uses_a_trainer(ctx)):
            return
        add, load = min(adds, key=lambda c: c.lineno), loads[0]
        yield ctx.finding(
            self, load,
            "the tokenizer gains new tokens but this model's embedding matrix is never resized: the new ids "
            "start at the old vocabulary size and index past the embedding table (IndexError / device-side "
            "assert) or rows the checkpoint never trained. Call `model.resize_token_embeddings(len(tokenizer))` "
            "after loading the model",
            evidence=[ctx.evidence(add, "tokens are added to the tokenizer here")])
