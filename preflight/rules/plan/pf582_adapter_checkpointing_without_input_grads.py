"""PF582 adapter-checkpointing-without-input-grads: transformers' ``add_adapter`` with reentrant gradient
checkpointing where transformers does not make the inputs require grad."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_HANDLED = ("enable_input_require_grads", "prepare_model_for_kbit_training", "prepare_model_for_int8_training",
            "prepare_model_for_gradient_checkpointing", "get_peft_model")


def _method_calls(fn: ast.AST, name: str) -> list[ast.Call]:
    return [n for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr == name]


def _non_reentrant(call: ast.Call) -> bool:
    text = " ".join(ast.unparse(k) for k in call.keywords)
    return "use_reentrant" in text and "False" in text


def _pairs(tree: ast.AST) -> Iterator[tuple[ast.Call, ast.Call]]:
    """(add_adapter call, gradient_checkpointing_enable call) on the same receiver in one function."""
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        adds = _method_calls(fn, "add_adapter")
        if not adds:
            continue
        for enable in _method_calls(fn, "gradient_checkpointing_enable"):
            if _non_reentrant(enable):
                continue
            receiver = ast.unparse(enable.func.value)  # type: ignore[attr-defined]
            add = next((a for a in adds if ast.unparse(a.func.value) == receiver), None)  # type: ignore[attr-defined]
            if add is not None:
                yield add, enable


@register
class AdapterCheckpointingWithoutInputGrads(PlanRule):
    code = "PF582"
    name = "adapter-checkpointing-without-input-grads"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("A LoRA adapter attached with transformers' `add_adapter` and reentrant gradient checkpointing, "
               "where transformers does not make the inputs require grad")
    explanation = """
## What it finds

`model.add_adapter(LoraConfig(...))` (transformers' own PEFT integration, not
`get_peft_model`) and `model.gradient_checkpointing_enable()` (reentrant, the default of
the 4.x line) on the same model without `enable_input_require_grads()`, in a project
that pins transformers 4.x and where:

* transformers is older than 4.34, or
* `gradient_checkpointing_enable()` is called before `add_adapter(...)`.

## Why it matters

`add_adapter` freezes the base weights, so the embeddings' output does not require
grad; reentrant checkpointing then records no graph through the checkpointed blocks,
and backward fails with "element 0 of tensors does not require grad and does not have
a grad_fn" (or the adapters silently get no gradient). transformers 4.34 (PR 25846,
for issue 25841: a custom `PreTrainedModel` with `add_adapter` and checkpointing)
makes `gradient_checkpointing_enable()` call `enable_input_require_grads()` when an
adapter is loaded, but only at that call: enabled before the adapter is added, the
inputs still do not require grad (the maintainers' advice: enable checkpointing after
adding the adapter). `get_peft_model` is PF420's.

## How to fix it

Call `model.enable_input_require_grads()`, enable checkpointing after `add_adapter`
on transformers 4.34 or later, or pass
`gradient_checkpointing_kwargs={"use_reentrant": False}`.

## When preflight stays silent

* transformers is not pinned (a lower bound installs the newest release), or pinned at
  5 or later (non-reentrant by default).
* The file calls `enable_input_require_grads`, PEFT's preparation helpers or
  `get_peft_model`, or checkpointing is non-reentrant.
"""
    bad_examples = examples("preflight.rules.plan._pf582_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf582_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.project.scripts:
            text = script.text if script.text is not None else script.source.text
            if "add_adapter" not in text or "gradient_checkpointing_enable" not in text \
                    or any(h in text for h in _HANDLED):
                continue
            version = pctx.version("transformers", script)
            if version is None or version.how != "pinned" or version.at_least(5):
                continue  # a lower bound installs the newest release (5.x: non-reentrant by default)
            old = not version.at_least(4, 34)
            for add, enable in _pairs(script.tree):
                before = (enable.lineno, enable.col_offset) < (add.lineno, add.col_offset)
                if not (old or before):
                    continue
                why = (f"{version.describe()} does not make the inputs require grad for an adapter added with "
                       "`add_adapter` (transformers 4.34 does, inside gradient_checkpointing_enable)" if old else
                       "checkpointing is enabled before the adapter is added, so transformers' own "
                       "`enable_input_require_grads()` call (made only when an adapter is already loaded) never runs")
                yield pctx.code_finding(
                    self, script, enable,
                    "reentrant gradient checkpointing on a model whose only trainable weights are the adapter of "
                    f"`{ast.unparse(add.func)}(...)`: {why}; the frozen embeddings' output does not require grad, "
                    "the checkpoints record no graph and backward fails (\"element 0 of tensors does not require "
                    "grad\"). Call `enable_input_require_grads()` or use "
                    "`gradient_checkpointing_kwargs={\"use_reentrant\": False}`",
                    evidence=[Evidence(line=add.lineno, path=script.source.display,
                                       message="the adapter is attached here (base weights frozen)")])
