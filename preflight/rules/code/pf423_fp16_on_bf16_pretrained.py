"""PF423 fp16-on-bf16-pretrained: fp16 mixed precision for a model family pretrained in bfloat16 (T5)."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import literal
from preflight.rules._pf414_support import (
    BF16_PRETRAINED,
    call_last,
    const_str,
    fp16_training_signals,
    may_signal_fp16,
)
from preflight.rules.base import Rule, examples

# A value the literal resolver computes is built from the file's own string constants, so a
# family name it could yield has "t5" or "ul2" in one of them.
_FAMILY_PART = re.compile(r"t5|ul2", re.IGNORECASE)
# transformers' classes of the T5 family (T5, mT5, UMT5, LongT5; ByT5, Flan-T5 and UL2 load through
# T5's): ``T5ForConditionalGeneration.from_pretrained(path)`` names the family whatever the path
_FAMILY_CLASS = re.compile(r"^(T5|MT5|UMT5|LongT5)(ForConditionalGeneration|Model|EncoderModel|"
                           r"ForQuestionAnswering|ForSequenceClassification|ForTokenClassification)$")


def _class_name(call: ast.Call) -> Optional[str]:
    """``T5ForConditionalGeneration`` of ``T5ForConditionalGeneration.from_pretrained(...)`` (or of
    ``transformers.T5ForConditionalGeneration.from_pretrained``) when it is a T5-family class."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    owner = func.value
    name = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""
    return name if _FAMILY_CLASS.match(name) else None


def _may_name_family(ctx: FileContext) -> bool:
    return any(isinstance(c.value, str) and _FAMILY_PART.search(c.value) for c in ctx.unordered(ast.Constant))


def _default_when_never_passed(ctx: FileContext, arg: ast.AST) -> Optional[str]:
    """``def __init__(self, model_name_or_path="google/flan-t5-xl")`` ... ``from_pretrained(model_name_or_path)``
    (flan-alpaca issue 19): the string default of a parameter of the enclosing function, when the
    function never rebinds it and the file calls that function (or, for ``__init__``, its class) and no
    call passes the parameter (by position or keyword, nor a ``*``/``**`` splat). None otherwise."""
    if not isinstance(arg, ast.Name):
        return None
    fn = ctx.enclosing(arg, ast.FunctionDef)
    if fn is None:
        return None
    params = [*fn.args.posonlyargs, *fn.args.args]
    defaults = dict(zip([a.arg for a in params][len(params) - len(fn.args.defaults):], fn.args.defaults))
    default = defaults.get(arg.id)
    if not (isinstance(default, ast.Constant) and isinstance(default.value, str)):
        return None
    if any(isinstance(n, ast.Name) and n.id == arg.id and isinstance(n.ctx, ast.Store) for n in ast.walk(fn)):
        return None
    owner = ctx.enclosing(fn, ast.ClassDef)
    method = owner is not None
    callee = owner.name if owner is not None and fn.name == "__init__" else fn.name
    position = [a.arg for a in params].index(arg.id) - (1 if method else 0)
    calls = [c for c in ctx.nodes(ast.Call) if call_last(c) == callee]
    if not calls:
        return None
    for c in calls:
        if len(c.args) > position or any(isinstance(a, ast.Starred) for a in c.args) \
                or any(k.arg in (None, arg.id) for k in c.keywords):
            return None
    return default.value


def _bf16_family_load(ctx: FileContext) -> Optional[tuple[ast.AST, str]]:
    if "from_pretrained" not in ctx.call_names():
        return None
    may_name: Optional[bool] = None  # looked at once, and only for a name that is not a literal
    for call in ctx.nodes(ast.Call):
        if call_last(call) != "from_pretrained" or not call.args:
            continue
        cls = _class_name(call)
        if cls is not None:
            return call, f"{cls}.from_pretrained(...)"
        name = const_str(call.args[0])
        if name is None:
            if may_name is None:
                may_name = _may_name_family(ctx)
            if not may_name:
                continue  # no literal resolver built for the file: it could not find a family name
            value = literal(ctx, call.args[0])
            name = value if isinstance(value, str) else _default_when_never_passed(ctx, call.args[0])
        if name and BF16_PRETRAINED.search(name):
            return call.args[0], name
    return None


@register
class Fp16OnBf16Pretrained(Rule):
    code = "PF423"
    needs_text = ('from_pretrained',)
    name = "fp16-on-bf16-pretrained"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers", "lightning", "accelerate")
    summary = "A model pretrained in bfloat16 (T5 family, GPT-Neo, BLOOM) is fine-tuned with fp16 mixed precision"
    explanation = """
## What it finds

`from_pretrained("t5-large")`, `google/flan-t5-*`, `google/t5-v1_1-*`, `mt5`,
`byt5`, `ul2`, `EleutherAI/gpt-neo-*`, `bigscience/bloom*` (families pretrained in
bfloat16; GPT-NeoX and Pythia were trained in fp16 and are not listed), or any checkpoint loaded through a T5
model class (`T5ForConditionalGeneration`, `MT5ForConditionalGeneration`,
`UMT5*`, `LongT5*`, `T5EncoderModel`: a continued pretraining of a T5 derivative such as
Randeng-T5), in a file that trains with fp16:
`TrainingArguments(fp16=True)`, Lightning `precision="16-mixed"`,
`Accelerator(mixed_precision="fp16")` or a `GradScaler`.

## Why it matters

These models were trained in bfloat16, whose range float16 does not have: some
feed-forward activations overflow to inf in float16 and the loss becomes NaN
(transformers issues 14189 and 23918; "It is a well known problem that one
cannot train T5 models using fp16").

## How to fix it

Train in bf16 (`bf16=True`, `precision="bf16-mixed"`) on Ampere or newer, or in fp32.

## When preflight stays silent

* The model name is not a literal or a statically known value and the class is a generic
  one (`AutoModelForSeq2SeqLM`), or no fp16 signal appears in the same file. A parameter's
  string default counts as known (`def __init__(self, model_name_or_path="google/flan-t5-xl")`,
  flan-alpaca issue 19) only when the file calls the function (or the class) and no call passes
  that parameter, and the function never rebinds it.
"""
    bad_examples = examples("preflight.rules.code._pf423_examples", "PF423_BAD")
    good_examples = examples("preflight.rules.code._pf423_examples", "PF423_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not may_signal_fp16(ctx):  # a finding needs both: the cheap test first
            return
        load = _bf16_family_load(ctx)
        if load is None:
            return
        signals = fp16_training_signals(ctx)
        if not signals:
            return
        node, name = load
        signal, what = signals[0]
        yield ctx.finding(
            self, signal,
            f"{what} for `{name}`, a family pretrained in bfloat16: its activations overflow float16 and the "
            "loss turns NaN. Train in bf16 (`bf16=True` / `precision=\"bf16-mixed\"`) or fp32",
            evidence=[ctx.evidence(node, f"`{name}` is loaded here")])
