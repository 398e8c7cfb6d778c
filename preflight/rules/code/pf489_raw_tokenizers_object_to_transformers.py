"""PF489 raw-tokenizers-object-to-transformers: a ``tokenizers.Tokenizer`` handed to a transformers collator
or Trainer that needs a ``PreTrainedTokenizer``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

# the tokenizers library's own classes (tokenizers/__init__.py, tokenizers/implementations)
_RAW = frozenset({"Tokenizer", "ByteLevelBPETokenizer", "BertWordPieceTokenizer", "CharBPETokenizer",
                  "SentencePieceBPETokenizer", "SentencePieceUnigramTokenizer"})
_CONSTRUCTORS = frozenset({"from_file", "from_str", "from_buffer", "from_pretrained"})


def _raw_tokenizer(ctx: FileContext, value: ast.AST) -> bool:
    """``Tokenizer.from_file(...)``, ``tokenizers.Tokenizer(...)``, ``ByteLevelBPETokenizer(...)`` with the
    class imported from ``tokenizers``."""
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    if isinstance(func, ast.Attribute) and func.attr in _CONSTRUCTORS:
        func = func.value
    qual = scope_index(ctx).imports.qualify(func) or ""
    return qual.startswith("tokenizers.") and qual.rsplit(".", 1)[-1] in _RAW


def _passed(call: ast.Call) -> Optional[ast.AST]:
    """The tokenizer argument of a transformers collator (first positional or ``tokenizer=``) or of a
    Trainer (``tokenizer=``/``processing_class=``)."""
    name = call_last(call)
    if name.startswith("DataCollator"):
        return call.args[0] if call.args else kwarg(call, "tokenizer")
    if name.endswith("Trainer"):
        return kwarg(call, "tokenizer") or kwarg(call, "processing_class")
    return None


@register
class RawTokenizersObjectToTransformers(Rule):
    code = "PF489"
    name = "raw-tokenizers-object-to-transformers"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    needs_text = ("tokenizers",)
    summary = "a raw tokenizers.Tokenizer is given to a transformers collator/Trainer that needs a PreTrainedTokenizer"
    explanation = """
## What it finds

A name bound only to a tokenizer of the `tokenizers` library (`Tokenizer.from_file(...)`,
`tokenizers.Tokenizer(...)`, `ByteLevelBPETokenizer(...)`, ...) passed as the tokenizer of
a transformers `DataCollator*` (first argument or `tokenizer=`) or of a `*Trainer`
(`tokenizer=`/`processing_class=`).

## Why it matters

The transformers collators call the `PreTrainedTokenizerBase` API: `DataCollatorForLanguageModeling`
reads `tokenizer.mask_token`, calls `tokenizer.pad(...)` and
`tokenizer.get_special_tokens_mask(...)` (transformers `data/data_collator.py`); the Trainer
calls `save_pretrained` on it. The Rust-backed `tokenizers.Tokenizer` has none of these
(`encode`, `encode_batch`, `get_vocab_size`, `token_to_id`), so the first batch or the first
save fails with `AttributeError` (transformers#12583). `PreTrainedTokenizerFast` wraps one.

## How to fix it

`PreTrainedTokenizerFast(tokenizer_object=tokenizer, unk_token="[UNK]", pad_token="[PAD]",
mask_token="[MASK]", ...)` (or `tokenizer_file="tokenizer.json"`), and hand that over.

## When preflight stays silent

* The name is also bound to anything else in the same scope, or the raw tokenizer is
  only used for `encode`/`encode_batch` (as in a Dataset) and a wrapped one goes to the collator.
* The class is not imported from `tokenizers` (a transformers `*Tokenizer` of the same name).
"""
    bad_examples = examples("preflight.rules.code._pf489_examples", "PF489_BAD")
    good_examples = examples("preflight.rules.code._pf489_examples", "PF489_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        bindings: dict[tuple[int, str], list[ast.Assign]] = {}
        for node in ctx.nodes(ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    key = (id(ctx.enclosing_function(node)), target.id)
                    bindings.setdefault(key, []).append(node)
        for call in ctx.nodes(ast.Call):
            arg = _passed(call)
            if not isinstance(arg, ast.Name):
                continue
            bound = bindings.get((id(ctx.enclosing_function(call)), arg.id), [])
            if not bound or not all(_raw_tokenizer(ctx, b.value) for b in bound):
                continue
            yield ctx.finding(
                self, call,
                f"`{arg.id}` is a raw `tokenizers` tokenizer, not a transformers `PreTrainedTokenizer`: "
                f"`{call_last(call)}` calls `pad`, `mask_token`, `get_special_tokens_mask`, `save_pretrained`, "
                "which it lacks (AttributeError at the first batch or save). Wrap it: "
                "`PreTrainedTokenizerFast(tokenizer_object=tokenizer, ...)`",
                evidence=[ctx.evidence(bound[0], "bound to a tokenizers-library tokenizer here")])
