"""PF366 padded-batch-without-attention-mask: a batch the tokenizer padded goes to a transformers model as
``input_ids`` alone; without ``attention_mask`` the model attends to the pad tokens."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.syntax import own_nodes_in_order
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg, qualify
from preflight.rules._pf414_support import const_str
from preflight.rules.base import Rule, examples
from preflight.rules.code._pretrained_class import pretrained_class

# tokenizer methods that pad a batch when asked (``tok(texts, padding=True)``, ``tok.batch_encode_plus``)
_ENCODERS = frozenset({"__call__", "batch_encode_plus", "encode_plus", "pad"})
# tensor methods that keep the token ids (moves, views, casts)
_KEEP = frozenset({"to", "cuda", "long", "contiguous", "view", "reshape", "squeeze", "unsqueeze", "clone"})
# decoder-only heads: with right padding (the default) no real token attends to a later pad
_CAUSAL = ("CausalLM", "LMHeadModel")
# text encoders run as a frozen conditioning for a generator (Stable Diffusion's CLIPTextModel, the
# T5EncoderModel of SD3/CogVideoX/DeepFloyd-style pipelines): padded to max_length and run without a mask
# on purpose, the way the denoiser was trained on their outputs (diffusers' pipelines, ControlNet's ldm
# encoders); a mask there would change the conditioning the generator learned
_CONDITIONING = ("TextModel", "EncoderModel")


def _pads(call: ast.Call) -> Optional[str]:
    """How the call pads a batch (``padding=True``, ``"longest"``, ``"max_length"``,
    ``pad_to_max_length=True``), or None when it does not pad."""
    padding = kwarg(call, "padding")
    if padding is not None:
        if isinstance(padding, ast.Constant) and padding.value is True:
            return "padding=True"
        value = const_str(padding)
        if value in ("longest", "max_length"):
            return f'padding="{value}"'
        return None
    legacy = kwarg(call, "pad_to_max_length")
    if isinstance(legacy, ast.Constant) and legacy.value is True:
        return "pad_to_max_length=True"
    return None


def _tokenizer_names(ctx: FileContext) -> set[str]:
    """Names and attributes bound to ``X.from_pretrained(...)`` where X is a transformers tokenizer class."""
    out: set[str] = set()
    for node in ctx.nodes(ast.Assign):
        value = node.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                and value.func.attr == "from_pretrained":
            qual = qualify(ctx, value.func.value) or ""
            if qual.startswith("transformers.") and "Tokenizer" in qual:
                out.update(ast.unparse(t) for t in node.targets if isinstance(t, (ast.Name, ast.Attribute)))
    return out


def _encoding(call: ast.Call, tokenizers: set[str]) -> bool:
    func = call.func
    if isinstance(func, (ast.Name, ast.Attribute)) and ast.unparse(func) in tokenizers:
        return True
    return isinstance(func, ast.Attribute) and func.attr in _ENCODERS and ast.unparse(func.value) in tokenizers


def _ids_of(expr: ast.AST, encodings: set[str], names: dict[str, list[ast.AST]]) -> Optional[str]:
    """``enc["input_ids"]`` / ``enc.input_ids`` (also moved or viewed, or through a name the scope binds
    once to it) of a padded encoding: the encoding's name."""
    for _ in range(4):
        while isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr in _KEEP:
            expr = expr.func.value
        if isinstance(expr, ast.Name) and len(names.get(expr.id, [])) == 1:
            expr = names[expr.id][0]
            continue
        break
    subscript = isinstance(expr, ast.Subscript) and const_str(expr.slice) == "input_ids"
    attribute = isinstance(expr, ast.Attribute) and expr.attr == "input_ids"
    if not (subscript or attribute) or not isinstance(expr, (ast.Subscript, ast.Attribute)):
        return None
    base = ast.unparse(expr.value)
    return base if base in encodings else None


def _left_padded(ctx: FileContext) -> bool:
    """``tok.padding_side = "left"`` or ``from_pretrained(..., padding_side="left")`` in the file."""
    for node in ctx.nodes(ast.Assign):
        if any(isinstance(t, ast.Attribute) and t.attr == "padding_side" for t in node.targets) \
                and const_str(node.value) == "left":
            return True
    for call in ctx.nodes(ast.Call):
        side = kwarg(call, "padding_side")
        if side is not None and const_str(side) == "left":
            return True
    return False


@register
class PaddedBatchWithoutAttentionMask(Rule):
    code = "PF366"
    name = "padded-batch-without-attention-mask"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    needs_text = ("input_ids", "padding")
    frameworks = ("transformers",)
    summary = ("A batch the tokenizer padded reaches a transformers model as `input_ids` without its "
               "`attention_mask`: the model attends to the pad tokens")
    explanation = """
## What it finds

A transformers tokenizer (`AutoTokenizer.from_pretrained(...)`) pads a batch
(`padding=True`, `"longest"`, `"max_length"`, or the old `pad_to_max_length=True`), and the
batch's `input_ids` (`enc["input_ids"]`, `enc.input_ids`, moved with `.to(device)`) go to a
model built with a transformers `X.from_pretrained(...)` in a call that passes no
`attention_mask=` (and does not unpack the encoding with `**enc`). For a decoder-only model
(`*ForCausalLM`, `*LMHeadModel`) it reports only when the file pads on the left
(`padding_side="left"`).

## Why it matters

Without `attention_mask` a transformers model attends to every position, pads included
(the mask defaults to all ones): the hidden states, the pooled output and the logits of
every shorter row change with the length of the longest row in its batch, so training and
evaluation see different representations for the same text and the results depend on the
batch size (rungjoo/CoMPM#2, huggingface/transformers#3481; the transformers troubleshooting
guide, "Incorrect output when padding tokens aren't masked"). Nothing fails: transformers
at most logs a warning once. In a decoder-only model padded on the right no real token
attends to a later pad, so that case is left alone; padded on the left, every real token
attends to the pads before it.

## How to fix it

Pass the mask the tokenizer built: `model(**enc)` or
`model(input_ids=enc["input_ids"], attention_mask=enc["attention_mask"])`.

## When preflight stays silent

* The call passes `attention_mask=` (any value) or unpacks the encoding (`**enc`).
* The tokenizer does not pad (no `padding`, `padding=False`, `"do_not_pad"`), or the
  padding is chosen at run time (`padding=args.padding`).
* The model is a project class or comes from code it cannot see; the encoding is built in
  another function than the one that calls the model.
* A decoder-only model with the default right padding.
* A text encoder class (`CLIPTextModel`, `CLIPTextModelWithProjection`, `T5EncoderModel`, ...): diffusion
  pipelines pad prompts to `max_length` and run these encoders without a mask on purpose, because the
  generator was trained on those unmasked embeddings (Stable Diffusion, SD3, CogVideoX in diffusers;
  ControlNet's `FrozenCLIPEmbedder`/`FrozenT5Embedder`). On real code every finding before this exemption
  was of that kind (bench/bugs/det74_real_code.txt).
"""
    bad_examples = examples("preflight.rules.code._pf366_examples", "PF366_BAD")
    good_examples = examples("preflight.rules.code._pf366_examples", "PF366_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        tokenizers = _tokenizer_names(ctx)
        if not tokenizers:
            return
        left = _left_padded(ctx)
        scopes: list[ast.AST] = [ctx.tree, *ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef)]
        for scope in scopes:
            yield from self._scope(ctx, scope, tokenizers, left)

    def _scope(self, ctx: FileContext, scope: ast.AST, tokenizers: set[str], left: bool) -> Iterable[Finding]:
        body = own_nodes_in_order(scope)
        encodings: dict[str, tuple[ast.Call, str]] = {}
        for node in body:
            value = node.value if isinstance(node, ast.Assign) else None
            while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                    and value.func.attr in ("to", "cuda"):
                value = value.func.value  # ``tok(texts, padding=True, return_tensors="pt").to(device)``
            if isinstance(node, ast.Assign) and isinstance(value, ast.Call) and _encoding(value, tokenizers):
                how = _pads(value)
                for tgt in node.targets:
                    if isinstance(tgt, (ast.Name, ast.Attribute)):
                        if how is None:
                            encodings.pop(ast.unparse(tgt), None)
                        else:
                            encodings[ast.unparse(tgt)] = (value, how)
        if not encodings:
            return
        names: dict[str, list[ast.AST]] = {}
        for node in body:
            if isinstance(node, ast.Assign):
                for tgt in node.targets:
                    for leaf in ast.walk(tgt):
                        if isinstance(leaf, ast.Name):
                            names.setdefault(leaf.id, []).append(node.value if tgt is leaf else tgt)
            elif isinstance(node, (ast.For, ast.AugAssign, ast.AnnAssign, ast.NamedExpr, ast.withitem)):
                target = node.optional_vars if isinstance(node, ast.withitem) else node.target
                for leaf in ast.walk(target) if target is not None else ():
                    if isinstance(leaf, ast.Name):
                        names.setdefault(leaf.id, []).append(node)
        for node in body:
            if not isinstance(node, ast.Call) or kwarg(node, "attention_mask") is not None:
                continue
            if any(k.arg is None for k in node.keywords):
                continue
            ids = node.args[0] if node.args else kwarg(node, "input_ids")
            base = _ids_of(ids, set(encodings), names) if ids is not None else None
            if ids is None or base is None:
                continue
            cls = pretrained_class(ctx, node)
            if cls is None or (any(c in cls for c in _CAUSAL) and not left) or any(c in cls for c in _CONDITIONING):
                continue
            enc_call, how = encodings[base]
            side = " (padded on the left)" if any(c in cls for c in _CAUSAL) else ""
            yield ctx.finding(
                self, node,
                f"`{ast.unparse(ids)}` is a batch the tokenizer pads (`{how}` at line {enc_call.lineno}){side}, "
                f"and this `{cls}` call gets no `attention_mask`: the model attends to the pad tokens, so every "
                f"shorter row's outputs depend on the longest row of its batch. Pass "
                f"`attention_mask={base}[\"attention_mask\"]` (or call the model with `**{base}`)",
                evidence=[ctx.evidence(enc_call, "the batch is padded here")])
