"""PF1020 completion-template-out-of-context: a ``DataCollatorForCompletionOnlyLM`` string template for a
SentencePiece (Llama-2 / Mistral family) tokenizer, where the template follows a newline or another
non-space character in the formatted examples: tokenized alone it starts with the ``▁`` word-start piece,
in context it does not, and the collator finds it in no example."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._collator_templates import collator_templates
from preflight.rules._pf4_support import kwarg, literal
from preflight.rules.base import Rule, examples

# tokenizer classes that prepend the SentencePiece word-start piece to a string encoded on its own
_SP_CLASSES = frozenset({"LlamaTokenizer", "LlamaTokenizerFast", "CodeLlamaTokenizer", "CodeLlamaTokenizerFast",
                         "T5Tokenizer", "T5TokenizerFast"})
# checkpoints whose tokenizer is the Llama-1/2 SentencePiece one (Mistral 7B, Mixtral, Zephyr, Vicuna, CodeLlama,
# TinyLlama reuse it) or a T5 SentencePiece one (rinna's Japanese GPT-NeoX); Llama 3 and later use a byte-level BPE
_SP_IDS = re.compile(r"llama-?2|llama-7b|llama-13b|llama-30b|llama-65b|open_llama|codellama|tinyllama|vicuna|"
                     r"mistral-7b|mixtral|zephyr-7b|rinna/japanese-gpt|flan-t5|/t5-", re.I)
_NOT_SP = re.compile(r"llama-?3|llama3|nemo|mistral-small|ministral|codestral", re.I)


def _tokenizer_expr(call: ast.Call) -> Optional[ast.expr]:
    got = kwarg(call, "tokenizer")
    if got is not None:
        return got
    if len(call.args) >= 2:
        return call.args[1]
    return None


def _sentencepiece_source(ctx: FileContext, name: str, before: int) -> Optional[str]:
    """The checkpoint (or tokenizer class) of the one ``name = X.from_pretrained(...)`` / ``name = X(...)`` in the
    file, when it is a SentencePiece tokenizer with the word-start piece; None otherwise."""
    found: list[ast.Call] = []
    for assign in ctx.nodes(ast.Assign):
        if any(isinstance(t, ast.Name) and t.id == name for t in assign.targets):
            if not isinstance(assign.value, ast.Call):
                return None
            found.append(assign.value)
    if len(found) != 1 or found[0].lineno > before:
        return None
    load = found[0]
    func = load.func
    cls: Optional[str] = None
    if isinstance(func, ast.Attribute) and func.attr == "from_pretrained":
        owner = func.value
        cls = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else None
    if cls in _SP_CLASSES:
        return cls
    if cls != "AutoTokenizer" or not load.args:
        return None
    ckpt = literal(ctx, load.args[0])
    if not isinstance(ckpt, str) or _NOT_SP.search(ckpt) or not _SP_IDS.search(ckpt):
        return None
    return ckpt


def _strings(ctx: FileContext) -> Iterable[tuple[ast.Constant, str]]:
    for node in ctx.nodes(ast.Constant):
        if isinstance(node.value, str):
            yield node, node.value


def _contexts(ctx: FileContext, template: str) -> tuple[list[ast.Constant], bool]:
    """String pieces where ``template`` follows a non-space character, and whether it ever follows a space."""
    glued: list[ast.Constant] = []
    after_space = False
    for node, text in _strings(ctx):
        start = text.find(template)
        while start != -1:
            if start > 0:
                if text[start - 1] in " \t":
                    after_space = True
                else:
                    glued.append(node)
            start = text.find(template, start + 1)
    return glued, after_space


@register
class CompletionTemplateOutOfContext(Rule):
    code = "PF1020"
    needs_text = ("DataCollatorForCompletionOnlyLM",)
    name = "completion-template-out-of-context"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("a `DataCollatorForCompletionOnlyLM` string template for a Llama-2/Mistral SentencePiece tokenizer "
               "that follows a newline in the examples: tokenized alone it never matches, every label is masked")
    explanation = """
## What it finds

`DataCollatorForCompletionOnlyLM(response_template, tokenizer=tok)` (TRL) where

* `response_template` (or `instruction_template`) is a string, written in the call or bound to a name;
* `tok` comes from a SentencePiece tokenizer that marks the start of a word with `▁`: `LlamaTokenizer`,
  `T5Tokenizer`, or `AutoTokenizer.from_pretrained` of a Llama-1/2, CodeLlama, TinyLlama, Vicuna,
  Mistral-7B/Mixtral/Zephyr, Flan-T5 or rinna Japanese GPT-NeoX checkpoint named in the file;
* and either the template starts with a newline, or the file's own formatting strings put the
  template right after a newline or another non-space character (`"...\\n### Response:"`,
  `"\\n[/INST] {answer}"`, `"<NL><NL>### 回答:"`), never after a space.

## Why it matters

The collator does not search the text: it tokenizes the template on its own and looks for that
token-id sequence in each example's `input_ids`. These tokenizers encode a string on its own as
if it began a sentence, so `"### Response:"` becomes `▁###`, `▁Response`, `:`; in the example,
after a newline, the same characters are `##`, `#`, `▁Response`, `:`. The sequence is found in no
example: the collator warns "Could not find response key ... This instance will be ignored in
loss calculation" and sets every label to -100, so the run trains on nothing (loss 0) or, on
older TRL releases, raises at the first batch. TRL's documentation shows the fix for Llama 2.
Reports: TRL issues 619 ("still could not find response key", Llama-2 and
`"### Response:\\n"`), 989 (Llama-2 chat and `"[/INST]"` after a newline), 1183 (a T5
SentencePiece tokenizer and `"### 回答:"` after `<NL>`), 588.

## How to fix it

Pass the template's token ids as they occur in context, e.g.
`tokenizer.encode("\\n### Response:", add_special_tokens=False)[2:]` (drop the pieces the
leading context produced), or format the examples so the template follows a space.

## When preflight stays silent

* The template is given as token ids, or is not a statically known string.
* The tokenizer is not one of the SentencePiece families above or its checkpoint is not named in the
  file (byte-level BPE tokenizers such as GPT-2, Llama 3 or Qwen have no word-start piece).
* The file's strings never show the template, or show it after a space somewhere.
"""
    bad_examples = examples("preflight.rules.code._pf1020_examples", "PF1020_BAD")
    good_examples = examples("preflight.rules.code._pf1020_examples", "PF1020_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call, key, arg in collator_templates(ctx):
            template = literal(ctx, arg)
            if not isinstance(template, str) or not template.strip():
                continue
            tok = _tokenizer_expr(call)
            if not isinstance(tok, ast.Name):
                continue
            source = _sentencepiece_source(ctx, tok.id, call.lineno)
            if source is None:
                continue
            if template[0] == "\n":
                where = "it starts with a newline, which the tokenizer encodes on its own as `▁` + newline"
                evidence = []
            else:
                glued, after_space = _contexts(ctx, template.rstrip("\n"))
                if not glued or after_space:
                    continue
                where = ("in the formatted examples it follows a newline or another non-space character "
                         f"(line {glued[0].lineno}), where its first word has no `▁`")
                evidence = [ctx.evidence(glued[0], "the template in the examples' text")]
            yield ctx.finding(self, arg, (
                f"{key} {template!r} is tokenized on its own by a SentencePiece tokenizer ({source}) that starts a "
                f"lone string with the word-start piece `▁`, but {where}: the token ids never occur in an example, "
                "the collator ignores every instance (all labels -100) and the run trains on nothing. Pass the ids "
                "as they occur in context, e.g. tokenizer.encode('\\n' + template, add_special_tokens=False)[2:]"),
                evidence=evidence)
