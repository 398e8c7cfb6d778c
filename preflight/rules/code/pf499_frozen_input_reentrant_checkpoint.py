"""PF499 frozen-input-reentrant-checkpoint: reentrant ``torch.utils.checkpoint`` around blocks of a loralib
model whose frozen base gives the checkpointed blocks no input that requires grad."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import names_called
from preflight.rules.base import Rule, examples

_CHECKPOINTS = frozenset({"torch.utils.checkpoint.checkpoint", "torch.utils.checkpoint.checkpoint_sequential"})
# what makes the checkpointed inputs require grad, or trains the embeddings
_HANDLED = frozenset({"requires_grad_", "enable_input_require_grads", "register_forward_hook"})


@register
class FrozenInputReentrantCheckpoint(Rule):
    code = "PF499"
    name = "frozen-input-reentrant-checkpoint"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    needs_text = ("mark_only_lora_as_trainable",)
    summary = "reentrant torch checkpoint on a loralib model with a frozen base: the LoRA weights get no gradient"
    explanation = """
## What it finds

A file that freezes its model with loralib's `lora.mark_only_lora_as_trainable(model)` and
wraps blocks in `torch.utils.checkpoint.checkpoint(...)`/`checkpoint_sequential(...)`
without `use_reentrant=False`, and never makes the checkpointed inputs require grad
(`h.requires_grad_()`, a forward hook, `enable_input_require_grads`).

## Why it matters

`mark_only_lora_as_trainable` sets `requires_grad=False` on every parameter but the
`lora_` ones (loralib `utils.py`), the embeddings included, so the hidden states entering
the first checkpointed block do not require grad. Reentrant checkpointing (the default of
`torch.utils.checkpoint` when `use_reentrant` is not passed; torch warns "None of the
inputs have requires_grad=True. Gradients will be None") runs the block under `no_grad`
and records a graph only through inputs that require grad: the LoRA weights inside the
blocks get no gradient and stay at their initialisation (microsoft/LoRA#120).

## How to fix it

`checkpoint(block, h, use_reentrant=False)`, or `h.requires_grad_(True)` before the first block.

## When preflight stays silent

* `use_reentrant=False` is passed (any non-literal value counts as passed).
* The file calls `requires_grad_`, `enable_input_require_grads` or `register_forward_hook`.
* The model is not frozen with `mark_only_lora_as_trainable` (PEFT models through
  transformers' checkpointing are PF420's).
"""
    bad_examples = examples("preflight.rules.code._pf499_examples", "PF499_BAD")
    good_examples = examples("preflight.rules.code._pf499_examples", "PF499_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        called = names_called(ctx)
        if "mark_only_lora_as_trainable" not in called or called & _HANDLED:
            return
        qualify = scope_index(ctx).imports.qualify
        for call in ctx.nodes(ast.Call):
            if (qualify(call.func) or "") not in _CHECKPOINTS:
                continue
            reentrant = kwarg(call, "use_reentrant")
            if reentrant is not None and not (isinstance(reentrant, ast.Constant) and reentrant.value is True):
                continue
            yield ctx.finding(
                self, call,
                "reentrant checkpointing over a model frozen by `mark_only_lora_as_trainable`: the hidden states "
                "entering the checkpointed block come from frozen layers and do not require grad, so the block's "
                "graph is dropped and its LoRA weights get no gradient. Pass `use_reentrant=False` (or call "
                "`h.requires_grad_(True)` first)")
            return
