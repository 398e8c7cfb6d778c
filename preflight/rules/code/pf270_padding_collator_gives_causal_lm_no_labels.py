"""PF270 padding-collator-gives-causal-lm-no-labels: ``DataCollatorWithPadding`` as the collator of a
causal-LM Trainer/SFTTrainer whose rows carry no labels."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import has_unpacking, kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

_COLLATOR = "DataCollatorWithPadding"


def _bindings(ctx: FileContext) -> dict[str, list[ast.AST]]:
    """Every value each plain name is assigned in the file."""
    out: dict[str, list[ast.AST]] = {}
    for node in ctx.nodes(ast.Assign):
        for target in node.targets:
            if isinstance(target, ast.Name):
                out.setdefault(target.id, []).append(node.value)
    return out


def _is_collator(expr: Optional[ast.AST], bound: dict[str, list[ast.AST]]) -> bool:
    if isinstance(expr, ast.Call):
        return call_last(expr) == _COLLATOR
    if isinstance(expr, ast.Name):
        values = bound.get(expr.id, [])
        return bool(values) and all(isinstance(v, ast.Call) and call_last(v) == _COLLATOR for v in values)
    return False


def _causal_lm(expr: Optional[ast.AST], bound: dict[str, list[ast.AST]]) -> bool:
    """A model loaded as a causal LM in the file (``AutoModelForCausalLM.from_pretrained``, also through a
    later ``get_peft_model(model, ...)`` rebinding)."""
    if isinstance(expr, ast.Call):
        return "ForCausalLM" in ast.unparse(expr)
    if isinstance(expr, ast.Name):
        return any("ForCausalLM" in ast.unparse(v) for v in bound.get(expr.id, []))
    return False


def _builds_labels(ctx: FileContext) -> bool:
    """The file names a ``labels`` column or key (its rows may carry labels), or computes its own loss."""
    for node in ctx.nodes(ast.Constant):
        if node.value in ("labels", "label_ids"):
            return True
    for kw in ctx.nodes(ast.keyword):
        if kw.arg == "labels":
            return True
    return any(fn.name == "compute_loss" for fn in ctx.nodes(ast.FunctionDef))


@register
class PaddingCollatorGivesCausalLmNoLabels(Rule):
    code = "PF270"
    name = "padding-collator-gives-causal-lm-no-labels"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    needs_text = (_COLLATOR,)
    summary = ("`DataCollatorWithPadding` is the collator of a causal-LM Trainer/SFTTrainer: it builds no labels, "
               "so the model returns no loss")
    explanation = """
## What it finds

`SFTTrainer(..., data_collator=DataCollatorWithPadding(tokenizer))`, or a transformers
`Trainer` given that collator for a model loaded as a causal LM
(`AutoModelForCausalLM.from_pretrained`, `LlamaForCausalLM`, ...), in a file that never
names a `labels` column or key and defines no `compute_loss` of its own.

## Why it matters

`DataCollatorWithPadding` pads what the tokenizer produced (`input_ids`,
`attention_mask`) and passes other keys through; unlike
`DataCollatorForLanguageModeling(mlm=False)` or SFTTrainer's own collator it does not copy
the inputs into `labels`. Without labels a causal LM returns no loss, and the Trainer stops
at the first step with "ValueError: The model did not return a loss from the inputs, only
the following keys: logits" (unslothai/unsloth issue 455: a collator added to a working
SFTTrainer notebook).

## How to fix it

Drop the collator (SFTTrainer builds the labels), or use
`DataCollatorForLanguageModeling(tokenizer, mlm=False)` (or `DataCollatorForSeq2Seq` with
labels built in the tokenize function).

## When preflight stays silent

* The file names a `labels` (or `label_ids`) column or key anywhere, or passes `labels=`:
  its rows may carry labels (whether those pad is PF590's question).
* The trainer is a subclass with its own `compute_loss`, or the file defines one.
* The model passed to a plain `Trainer` is not loaded as a causal LM in the file
  (a sequence classifier takes `label` and gets its loss from it).
"""
    bad_examples = examples("preflight.rules.code._pf270_examples", "PF270_BAD")
    good_examples = examples("preflight.rules.code._pf270_examples", "PF270_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if _builds_labels(ctx):
            return
        bound = _bindings(ctx)
        for call in ctx.nodes(ast.Call):
            name = call_last(call)
            if name not in ("SFTTrainer", "Trainer") or has_unpacking(call):
                continue
            collator = kwarg(call, "data_collator")
            if not _is_collator(collator, bound):
                continue
            if name == "Trainer" and not _causal_lm(kwarg(call, "model"), bound):
                continue
            assert collator is not None
            yield ctx.finding(
                self, collator,
                f"`{ast.unparse(collator)}` pads `input_ids`/`attention_mask` but builds no `labels`, and nothing "
                f"in this file gives the rows labels: the causal LM of this `{name}` returns no loss and training "
                "stops at the first step (\"The model did not return a loss from the inputs\"). Use "
                "`DataCollatorForLanguageModeling(tokenizer, mlm=False)`" +
                (", or drop the collator (SFTTrainer builds the labels)" if name == "SFTTrainer" else ""))
