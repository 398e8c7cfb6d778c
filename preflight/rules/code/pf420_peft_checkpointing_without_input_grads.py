"""PF420 peft-checkpointing-without-input-grads: reentrant checkpointing switched on after wrapping in PEFT."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last, names_called
from preflight.rules.base import Rule, examples

_HANDLED = frozenset({"enable_input_require_grads", "prepare_model_for_kbit_training", "prepare_model_for_int8_training",
                      "prepare_model_for_gradient_checkpointing"})
# trl's trainers make the inputs require grad themselves (trl/trainer/sft_trainer.py: `if is_peft_model(model)
# and args.gradient_checkpointing: model.enable_input_require_grads()`); transformers' Trainer does not on 4.x
_TRL_TRAINERS = frozenset({"SFTTrainer", "DPOTrainer", "GRPOTrainer", "ORPOTrainer", "KTOTrainer", "PPOTrainer",
                           "RewardTrainer", "CPOTrainer"})
_EMBEDDING_WORDS = ("embed", "wte", "word_embeddings")


def _non_reentrant(call: ast.Call) -> bool:
    kwargs = kwarg(call, "gradient_checkpointing_kwargs")
    if kwargs is None:
        return False
    return "use_reentrant" in ast.unparse(kwargs) and "False" in ast.unparse(kwargs)


def _embeddings_trained(ctx: FileContext) -> bool:
    """A ``LoraConfig(modules_to_save=[..."embed_tokens"...])``: the embeddings are trained, their output
    requires grad."""
    for call in ctx.nodes(ast.Call):
        saved = kwarg(call, "modules_to_save") if call_last(call) == "LoraConfig" else None
        if saved is not None and any(w in ast.unparse(saved) for w in _EMBEDDING_WORDS):
            return True
    return False


def _receiver(call: ast.Call) -> str:
    func = call.func
    return ast.unparse(func.value) if isinstance(func, ast.Attribute) else ""


def _wrapped_names(wrap: ast.Call, ctx: FileContext) -> set[str]:
    """The names the PEFT model goes by: the target of ``x = get_peft_model(y, ...)`` and ``y``."""
    out = {ast.unparse(wrap.args[0])} if wrap.args else set()
    parent = ctx.parent(wrap)
    if isinstance(parent, ast.Assign):
        out.update(ast.unparse(t) for t in parent.targets)
    return out


def _guards(ctx: FileContext, node: ast.AST) -> set[str]:
    """The conditions (and their ``and`` parts) of the ``if`` bodies that hold ``node``."""
    out: set[str] = set()
    child = node
    for anc in ctx.ancestors(node):
        if isinstance(anc, ast.If) and child in anc.body:
            tests = anc.test.values if isinstance(anc.test, ast.BoolOp) and isinstance(anc.test.op, ast.And) else []
            out.update(ast.unparse(t) for t in [anc.test, *tests])
        child = anc
    return out


def _negated(ctx: FileContext, node: ast.AST) -> set[str]:
    """What the ``if`` bodies holding ``node`` require to be false: ``not X``, ``not (A or B)``,
    and ``A != B`` for a test ``A == B``."""
    out: set[str] = set()
    child = node
    for anc in ctx.ancestors(node):
        if isinstance(anc, ast.If) and child in anc.body:
            for part in ast.walk(anc.test):
                if isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.Not):
                    inner = part.operand
                    values = inner.values if isinstance(inner, ast.BoolOp) and isinstance(inner.op, ast.Or) else [inner]
                    out.update(ast.unparse(v) for v in values)
                elif isinstance(part, ast.Compare) and len(part.ops) == 1 and type(part.ops[0]) in _OPPOSITE:
                    flipped = ast.Compare(part.left, [_OPPOSITE[type(part.ops[0])]()], part.comparators)
                    out.add(ast.unparse(flipped))  # `adapter == "full"` excludes `adapter != "full"`
        child = anc
    return out


_OPPOSITE: dict = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is}


def _wrapped_before(ctx: FileContext, call: ast.Call, wraps: list[ast.Call]) -> Optional[ast.Call]:
    """The ``get_peft_model`` that wrapped this receiver earlier in the same function, on a path
    the call can follow (not one the call's own ``if not X`` excludes)."""
    scope = ctx.enclosing_function(call)
    receiver = _receiver(call)
    negated = _negated(ctx, call)
    for wrap in wraps:
        if wrap.lineno > call.lineno or ctx.enclosing_function(wrap) is not scope:
            continue
        if receiver not in _wrapped_names(wrap, ctx):
            continue
        if negated & _guards(ctx, wrap):
            continue  # `if args.use_lora: wrap` ... `if not args.use_lora: checkpointing`
        return wrap
    return None


@register
class PeftCheckpointingWithoutInputGrads(Rule):
    code = "PF420"
    needs_text = ('get_peft_model',)
    name = "peft-checkpointing-without-input-grads"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = "Gradient checkpointing is enabled on a PEFT model without `enable_input_require_grads`"
    explanation = """
## What it finds

A script that wraps a model with `get_peft_model(...)` and then calls
`model.gradient_checkpointing_enable()` (reentrant checkpointing, the default of the
transformers 4.x line) without `model.enable_input_require_grads()`, in a hand-written
loop or before handing the model to a transformers `Trainer`.

## Why it matters

With every base weight frozen, the embeddings' output does not require grad, so
reentrant checkpointing sees inputs without `requires_grad` and drops the graph
of each checkpointed block: the LoRA weights receive no gradient ("element 0 of
tensors does not require grad", or, worse, a run that trains nothing: peft issue
137, transformers issue 26334). `get_peft_model` prepares the model for this
only when checkpointing was already on when it wrapped it.

Whether it bites depends on the transformers release: the 4.x releases from 4.35
call reentrant checkpointing by default (`use_reentrant=True`) and make the inputs
require grad only for adapters loaded through transformers itself; transformers 5
(5.24 read) defaults to `use_reentrant=False` and calls `enable_input_require_grads()`
itself for `input_ids` models. A code rule cannot see the installed release, so this is
a warning.

## How to fix it

Call `model.enable_input_require_grads()`, or pass
`gradient_checkpointing_kwargs={"use_reentrant": False}`, or enable
checkpointing before `get_peft_model`.

## When preflight stays silent

* The file calls `enable_input_require_grads`, `prepare_model_for_kbit_training` or
  `register_forward_hook` (the `make_inputs_require_grad` hook), names the embeddings
  in `modules_to_save`, uses non-reentrant checkpointing, or trains through a trl
  trainer (`SFTTrainer`, `DPOTrainer`, ...: trl enables the input grads itself for a
  PEFT model). transformers' `Trainer` does not on the 4.x line (transformers issues
  23170, 26334; issue 42489 on 5.0.0.dev0), so an explicit call before a `Trainer`
  counts.
* Checkpointing comes from `TrainingArguments(gradient_checkpointing=True)` alone: the
  Trainer of transformers 5 (5.24 read; the release assumed when none is declared)
  enables the input grads itself, and the benchmark labels that shape correct.
* Checkpointing is enabled before the model is wrapped, on another model than the
  wrapped one, in another function, or under `if not X:` where the wrap happens
  under `if X:` (peft's dreambooth examples: `if args.train_text_encoder and not
  args.use_lora:`).
* `prepare_model_for_gradient_checkpointing(...)` (PEFT's own preparation) is called.
"""
    bad_examples = examples("preflight.rules.code._pf420_examples", "PF420_BAD")
    good_examples = examples("preflight.rules.code._pf420_examples", "PF420_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        called = names_called(ctx)
        if "get_peft_model" not in called or called & _HANDLED or called & _TRL_TRAINERS \
                or "register_forward_hook" in called or _embeddings_trained(ctx):
            return
        wraps = [c for c in ctx.nodes(ast.Call) if call_last(c) == "get_peft_model"]
        for call in ctx.nodes(ast.Call):
            if call_last(call) != "gradient_checkpointing_enable" or _non_reentrant(call):
                continue
            wrap = _wrapped_before(ctx, call, wraps)
            if wrap is None:
                continue
            yield ctx.finding(
                self, call,
                "gradient checkpointing is switched on after `get_peft_model` wrapped the model and nothing "
                "makes the embeddings' output require grad: reentrant checkpointing then drops the graph and the "
                "adapters get no gradient (on transformers releases whose checkpointing is reentrant by default, the 4.x "
                "line). Call `model.enable_input_require_grads()` (or use "
                "`gradient_checkpointing_kwargs={\"use_reentrant\": False}`)",
                evidence=[ctx.evidence(wrap, "the model is wrapped in PEFT here (base weights frozen)")])
