"""PF409 packing-without-flash-attention: TRL packing/padding-free batches on an attention that mixes samples."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import (
    UNKNOWN,
    calls,
    has_unpacking,
    is_flash,
    is_from,
    kwarg,
    literal,
)
from preflight.rules.base import Rule, examples

_CONFIGS = ("SFTConfig",)


def _attn_values(ctx: FileContext) -> tuple[list[object], bool]:
    """Every ``attn_implementation`` the file sets, and whether it loads a model at all."""
    values: list[object] = []
    loads = False
    for call in ctx.nodes(ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "from_pretrained":
            base = ast.unparse(func.value)
            if "Tokenizer" in base or "Processor" in base or "Config" in base:
                continue
            loads = True
            if has_unpacking(call):
                values.append(UNKNOWN)
        for kw in call.keywords:
            if kw.arg == "attn_implementation":
                values.append(literal(ctx, kw.value))
    for d in ctx.nodes(ast.Dict):
        for k, v in zip(d.keys, d.values):
            if isinstance(k, ast.Constant) and k.value == "attn_implementation":
                values.append(literal(ctx, v))
    for node in ctx.nodes(ast.Attribute):
        if node.attr in ("_attn_implementation", "attn_implementation") and not isinstance(node.ctx, ast.Load) \
                and not _write_goes_nowhere(ctx, node):
            values.append(UNKNOWN)
    return values, loads


def _write_goes_nowhere(ctx: FileContext, node: ast.Attribute) -> bool:
    """``model_args.attn_implementation = "flash_attention_2"`` on an arguments object the file
    never hands on whole and whose ``attn_implementation`` it never reads back: the value
    reaches no ``from_pretrained`` (TRL issue 2834). A write to a model's or a config's
    attribute, or to an object passed anywhere, still counts as unknown."""
    if node.attr != "attn_implementation" or not isinstance(node.value, ast.Name):
        return False
    root = node.value.id
    if root in ("self", "cls"):
        return False
    for name in ctx.nodes(ast.Name):
        if name.id != root or not isinstance(name.ctx, ast.Load):
            continue
        parent = ctx.parent(name)
        if not isinstance(parent, ast.Attribute) or parent.value is not name:
            return False  # the object itself is passed on, returned or aliased
        if not isinstance(parent.ctx, ast.Load):
            continue  # a write to one of its fields (this one included)
        if parent.attr in ("attn_implementation", "_attn_implementation", "__dict__") or parent.attr.startswith(
                ("to_", "as_")):
            return False  # read back (``attn_implementation=args.attn_implementation``, ``args.to_dict()``)
    return True


@register
class PackingWithoutFlashAttention(Rule):
    code = "PF409"
    needs_text = ('SFTConfig',)
    name = "packing-without-flash-attention"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("trl",)
    summary = "TRL packing or padding-free batches with an attention implementation that is not flash attention"
    explanation = """
## What it finds

`SFTConfig(packing=True)` (best-fit-decreasing packing, the default
`packing_strategy` of current TRL) or `SFTConfig(padding_free=True)` in a script
whose model is loaded without a flash-attention `attn_implementation`
(`flash_attention_2`, `flash_attention_3` or a `kernels-community/...` flash kernel).

## Why it matters

Packed and padding-free batches put several samples in one row and rely on
`position_ids` to keep them apart; only the flash-attention kernels read those
boundaries. With `sdpa` (the default) or `eager` every token attends to the
tokens of the other samples packed before it: TRL's own warning calls it
"cross-contamination between samples". Training runs and the loss looks normal.

## How to fix it

Load the model with `attn_implementation="flash_attention_2"` (or pass it in
`SFTConfig(model_init_kwargs={"attn_implementation": ...})` when the trainer
loads the model), or use `packing_strategy="wrapped"`, or turn packing off.

## When preflight stays silent

* Any flash-attention implementation is set, or one preflight cannot read
  (a variable, `**kwargs`, a write to `config._attn_implementation`). A write to
  an arguments object (`model_args.attn_implementation = "flash_attention_2"`)
  counts only when the object reaches the load: passed on whole or its
  `attn_implementation` read back. When neither happens the value goes nowhere
  and the model keeps sdpa (TRL issue 2834, "Can the loss become significantly
  high at the beginning when using padding-free?").
* `packing_strategy="wrapped"`, packing not known to be on.
* `packing=True` without `packing_strategy` in a script that passes `tokenizer=` to
  `SFTTrainer`: that keyword exists only up to TRL 0.12 (renamed `processing_class`), whose
  packing is ConstantLengthDataset's wrapped chunks, not the best-fit packing with
  `position_ids` that TRL 0.19 made the default (`packing_strategy`, TRL PR 3521).
* The script loads no model itself (the model comes from elsewhere).
"""
    bad_examples = examples("preflight.rules.code._pf41x_examples", "PF409_BAD")
    good_examples = examples("preflight.rules.code._pf41x_examples", "PF409_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        configs = [(c, q) for c, q in calls(ctx) if any(is_from(q, "trl", n) for n in _CONFIGS)]
        if not configs:
            return
        values, loads = _attn_values(ctx)
        string_model = any(isinstance(kwarg(c, "model"), ast.Constant) or (
            c.args and isinstance(c.args[0], ast.Constant)) for c, q in calls(ctx) if is_from(q, "trl", "SFTTrainer"))
        if not (loads or string_model):
            return
        if any(v is UNKNOWN or is_flash(v) for v in values):
            return
        # `SFTTrainer(tokenizer=...)`: accepted only up to TRL 0.12 (renamed processing_class), whose packing is
        # ConstantLengthDataset's wrapped chunks (best-fit packing with position_ids came in TRL 0.19)
        wrapped_era = any(kwarg(c, "tokenizer") is not None for c, q in calls(ctx) if is_from(q, "trl", "SFTTrainer"))
        for call, _ in configs:
            if has_unpacking(call):
                continue
            feature = self._feature(ctx, call)
            if wrapped_era and feature is not None and feature.startswith("`packing=True`") \
                    and kwarg(call, "packing_strategy") is None:
                continue
            if feature is None:
                continue
            attn = next((v for v in values if isinstance(v, str)), None)
            used = f"`attn_implementation=\"{attn}\"`" if attn else "the default attention (sdpa)"
            message = (
                f"{feature} puts several samples in one row, and only flash attention keeps them apart "
                f"(through `position_ids`); with {used} every token also attends to the other samples "
                "packed before it (TRL: \"cross-contamination between samples\"). Load the model with "
                "`attn_implementation=\"flash_attention_2\"`, or use `packing_strategy=\"wrapped\"`")
            yield ctx.finding(self, call, message, evidence=[ctx.evidence(call, feature)])

    @staticmethod
    def _feature(ctx: FileContext, call: ast.Call) -> Optional[str]:
        if literal(ctx, kwarg(call, "padding_free")) is True:
            return "`padding_free=True`"
        if literal(ctx, kwarg(call, "packing")) is True:
            strategy = kwarg(call, "packing_strategy")
            value = literal(ctx, strategy) if strategy is not None else "bfd"
            if value in ("bfd", "bfd_split"):
                return f"`packing=True` (packing_strategy \"{value}\")"
        return None
