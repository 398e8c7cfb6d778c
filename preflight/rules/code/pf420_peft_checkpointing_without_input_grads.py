"""PF420 peft-checkpointing-without-input-grads: reentrant checkpointing switched on after wrapping in PEFT."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last, names_called
from preflight.rules.base import Rule, examples

_HANDLED = frozenset({"enable_input_require_grads", "prepare_model_for_kbit_training", "prepare_model_for_int8_training"})
_TRAINERS = frozenset({"Trainer", "Seq2SeqTrainer", "SFTTrainer", "DPOTrainer", "GRPOTrainer", "ORPOTrainer"})


def _non_reentrant(call: ast.Call) -> bool:
    kwargs = kwarg(call, "gradient_checkpointing_kwargs")
    if kwargs is None:
        return False
    return "use_reentrant" in ast.unparse(kwargs) and "False" in ast.unparse(kwargs)


@register
class PeftCheckpointingWithoutInputGrads(Rule):
    code = "PF420"
    needs_text = ('get_peft_model',)
    name = "peft-checkpointing-without-input-grads"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = "Gradient checkpointing is enabled on a PEFT model without `enable_input_require_grads`"
    explanation = """
## What it finds

A hand-written training loop (no `Trainer`) that wraps a model with
`get_peft_model(...)` and then calls `model.gradient_checkpointing_enable()`
(reentrant checkpointing, the default) without `model.enable_input_require_grads()`.

## Why it matters

With every base weight frozen, the embeddings' output does not require grad, so
reentrant checkpointing sees inputs without `requires_grad` and drops the graph
of each checkpointed block: the LoRA weights receive no gradient ("element 0 of
tensors does not require grad", or, worse, a run that trains nothing: peft issue
137, transformers issue 26334). `get_peft_model` prepares the model for this
only when checkpointing was already on when it wrapped it.

## How to fix it

Call `model.enable_input_require_grads()`, or pass
`gradient_checkpointing_kwargs={"use_reentrant": False}`, or enable
checkpointing before `get_peft_model`.

## When preflight stays silent

* The file calls `enable_input_require_grads` or `prepare_model_for_kbit_training`,
  uses non-reentrant checkpointing, or trains through a `Trainer` (which does it).
* Checkpointing is enabled before the model is wrapped.
"""
    bad_examples = examples("preflight.rules.code._pf414_examples", "PF420_BAD")
    good_examples = examples("preflight.rules.code._pf414_examples", "PF420_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        called = names_called(ctx)
        if "get_peft_model" not in called or called & _HANDLED or called & _TRAINERS:
            return
        wraps = [c for c in ctx.nodes(ast.Call) if call_last(c) == "get_peft_model"]
        first_wrap = min(c.lineno for c in wraps)
        for call in ctx.nodes(ast.Call):
            if call_last(call) != "gradient_checkpointing_enable" or _non_reentrant(call):
                continue
            if call.lineno < first_wrap:
                continue
            yield ctx.finding(
                self, call,
                "gradient checkpointing is switched on after `get_peft_model` wrapped the model and nothing "
                "makes the embeddings' output require grad: reentrant checkpointing then drops the graph and the "
                "adapters get no gradient. Call `model.enable_input_require_grads()` (or use "
                "`gradient_checkpointing_kwargs={\"use_reentrant\": False}`)",
                evidence=[ctx.evidence(wraps[0], "the model is wrapped in PEFT here (base weights frozen)")])
