"""PF1111 generate-from-right-padded-prompts: a batch of prompts padded by a tokenizer that pads on the right
(``padding_side="right"``, or the default when the file never sets a side) handed to ``generate`` of a
decoder-only model: every shorter prompt ends in pad tokens and the model continues after them."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code.pf564_right_padded_batched_generation import RightPaddedBatchedGeneration

# PF564 reports the explicit `padding_side="right"` of a file that names a causal-LM class; this rule covers
# what it leaves: the default side, and the actor/policy of an RLHF loop
_PF564 = RightPaddedBatchedGeneration()

_ENCODE = ("batch_encode_plus", "__call__")
_CAUSAL = ("ForCausalLM", "LMHeadModel")
# an encoder-decoder model in the file: right padding is what its encoder expects
_SEQ2SEQ = ("Seq2SeqLM", "ForConditionalGeneration", "T5", "Bart", "Pegasus", "Marian", "EncoderDecoder",
            "Whisper", "Speech2Text", "Vision2Seq", "ImageTextToText", "Blip", "Llava")
_POLICY = ("actor", "policy")


def _kw(call: ast.Call, name: str) -> Optional[ast.expr]:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _tokenizers(tree: ast.AST) -> dict[str, ast.Call]:
    """``tok`` -> its ``*Tokenizer*.from_pretrained(...)`` call."""
    out: dict[str, ast.Call] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "from_pretrained" \
                and "Tokenizer" in ast.unparse(node.value.func.value):
            for t in node.targets:
                if isinstance(t, (ast.Name, ast.Attribute)):
                    out[ast.unparse(t)] = node.value
    return out


def _sides(tree: ast.AST) -> list[tuple[ast.AST, object]]:
    """Every place the file sets a padding side: (node, the constant or None when not a constant)."""
    out: list[tuple[ast.AST, object]] = []
    for node in ast.walk(tree):
        assigns = isinstance(node, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr == "padding_side"
                                                       for t in node.targets)
        keyword = isinstance(node, ast.keyword) and node.arg == "padding_side"
        value: Optional[ast.expr] = node.value if (assigns or keyword) else None  # type: ignore[attr-defined]
        if value is not None:
            out.append((node, value.value if isinstance(value, ast.Constant) else None))
    return out


def _padded_batch(call: ast.Call, tokenizers: dict[str, ast.Call], fn: ast.AST) -> Optional[str]:
    """The tokenizer name when ``call`` (or ``call.to(...)``) pads a batch of prompts with it."""
    while isinstance(call.func, ast.Attribute) and call.func.attr == "to" and isinstance(call.func.value, ast.Call):
        call = call.func.value
    func = call.func
    owner = ast.unparse(func)
    if owner not in tokenizers:
        if not (isinstance(func, ast.Attribute) and func.attr in _ENCODE and ast.unparse(func.value) in tokenizers):
            return None
        owner = ast.unparse(func.value)
    padding = _kw(call, "padding")
    if not (isinstance(padding, ast.Constant) and (padding.value is True or padding.value == "longest")):
        return None
    if not call.args or not _is_batch(call.args[0], fn):
        return None
    return owner


def _is_batch(arg: ast.expr, fn: ast.AST) -> bool:
    """A list of prompts: a list display or comprehension, a slice, or a name bound to one in ``fn``."""
    if isinstance(arg, ast.List):
        return len(arg.elts) > 1  # one prompt in a list pads nothing
    if isinstance(arg, ast.ListComp):
        return True
    if isinstance(arg, ast.Subscript) and isinstance(arg.slice, ast.Slice):
        return True
    if isinstance(arg, ast.Name):
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == arg.id
                                                    for t in node.targets):
                v = node.value
                if (isinstance(v, ast.List) and len(v.elts) > 1) or isinstance(v, ast.ListComp) \
                        or (isinstance(v, ast.Subscript)
                                                                and isinstance(v.slice, ast.Slice)):
                    return True
    return False


def _fed_names(gen: ast.Call) -> set[str]:
    """Names whose encoding ``generate`` receives: ``**enc``, ``enc["input_ids"]``, ``enc.input_ids``."""
    out: set[str] = set()
    for value in [*gen.args, *(k.value for k in gen.keywords)]:
        base = value
        while isinstance(base, (ast.Subscript, ast.Attribute)):
            base = base.value
        if isinstance(base, ast.Name):
            out.add(base.id)
    return out


def _decoder_only(ctx: FileContext, gen: ast.Call) -> bool:
    receiver = ast.unparse(gen.func.value) if isinstance(gen.func, ast.Attribute) else ""
    root = receiver.split(".", 1)[0]
    for node in ast.walk(ctx.tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and any(ast.unparse(t) == root for t in node.targets):
            made = ast.unparse(node.value.func)
            if any(c in made for c in _CAUSAL):
                return True
    return any(p in receiver.lower() for p in _POLICY)


@register
class GenerateFromRightPaddedPrompts(Rule):
    code = "PF1111"
    needs_text = ("generate", "padding")
    name = "generate-from-right-padded-prompts"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("a batch of prompts padded on the right is handed to a decoder-only model's `generate`: every "
               "shorter prompt ends in pad tokens and the model continues after them")
    explanation = """
## What it finds

A batch of prompts tokenized with `padding=True` (or `"longest"`) by a tokenizer that pads on the
right, whose encoding (`**enc`, `enc["input_ids"]`, `enc.input_ids`) is passed to `generate` of a
decoder-only model: one loaded with `AutoModelForCausalLM` / `*ForCausalLM` / `*LMHeadModel`, or the
actor / policy of an RLHF loop. The tokenizer pads on the right when it is loaded with
`padding_side="right"`, or when the file never sets a padding side (the default of GPT-2, OPT,
Llama-2 checkpoints and most causal-LM tokenizers).

## Why it matters

A decoder-only model generates after the last position of each row. With right padding every
prompt shorter than the longest ends in pad tokens, so the model continues after padding and the
continuations are garbage; transformers warns "A decoder-only architecture is being used, but
right-padding was detected! For correct generation results, please set `padding_side='left'`"
(Vision-CAIR/MiniGPT-4 issue 129: a whole evaluation pass wasted; DeepSpeedExamples issue 637: the
step-3 RLHF actor collects its PPO experience from such continuations).

## How to fix it

Pad prompts on the left for generation: `AutoTokenizer.from_pretrained(name, padding_side="left")`
or `tokenizer.padding_side = "left"` before the batch is encoded (keep right padding for training).

PF564 reports the explicit-right form when the file names a causal-LM class; this rule adds the
default side (no `padding_side` in the file) and the RLHF actor/policy, and stays silent where PF564
fires.

## When preflight stays silent

* PF564 reports the same batch (an explicit `padding_side="right"` next to a causal-LM class).
* The file sets a padding side other than `"right"` anywhere (or to a value it cannot read).
* The prompts are not a batch preflight can see (a single string, a name it cannot trace to a list
  or a slice), or the encoding is not padded.
* The model is not known to be decoder-only, or the file names an encoder-decoder model (T5, BART,
  `AutoModelForSeq2SeqLM`, a vision-to-text model): right padding is right for an encoder.
"""
    bad_examples = examples("preflight.rules.code._pf1111_examples", "PF1111_BAD")
    good_examples = examples("preflight.rules.code._pf1111_examples", "PF1111_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        tree = ctx.tree
        tokenizers = _tokenizers(tree)
        if not tokenizers:
            return
        sides = _sides(tree)
        if any(value != "right" for _, value in sides):
            return
        if any(ctx.mentions(word) for word in _SEQ2SEQ):
            return
        if sides and next(iter(_PF564.check(ctx)), None) is not None:
            return  # PF564 reports it
        reported: set[str] = set()
        for gen in ctx.nodes(ast.Call):
            if not (isinstance(gen.func, ast.Attribute) and gen.func.attr == "generate"):
                continue
            fn = ctx.enclosing_function(gen) or tree
            fed = _fed_names(gen)
            if not fed or not _decoder_only(ctx, gen):
                continue
            for node in ast.walk(fn):
                if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                        and any(isinstance(t, ast.Name) and t.id in fed for t in node.targets)):
                    continue
                tok = _padded_batch(node.value, tokenizers, fn)
                if tok is None or tok in reported:
                    continue
                reported.add(tok)
                load = tokenizers[tok]
                explicit = [n for n, _ in sides]
                where: ast.AST = explicit[0] if explicit else load
                how = "`padding_side=\"right\"`" if explicit else "its default right padding (no side is set)"
                yield ctx.finding(
                    self, where,
                    f"`{tok}` pads on the right ({how}), and the batch of prompts it pads (line {node.lineno}) "
                    f"is passed to `{ast.unparse(gen.func)}` (line {gen.lineno}) of a decoder-only model: every "
                    "prompt shorter than the longest ends in pad tokens and the model continues after them "
                    "(\"A decoder-only architecture is being used, but right-padding was detected\"). Pad "
                    "prompts on the left for generation: `padding_side=\"left\"`",
                    evidence=[ctx.evidence(node, "the prompts padded here"),
                              ctx.evidence(gen, "generated from here")])
