"""PF155 unpacked-eval-without-labels: TRL ``SFTTrainer`` with ``packing=True`` and ``eval_packing=False``
and no ``data_collator``, on trl 0.8 to 0.14: the unpacked evaluation set is collated without labels, so
evaluation returns no ``eval_loss`` (and ``load_best_model_at_end`` fails on it)."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples
from preflight.rules.plan._pinned_release import pinned_version, released_between

# eval_packing arrives in v0.8.0; up to v0.14.0 SFTTrainer sets DataCollatorForLanguageModeling only
# `if not args.packing` (sft_trainer.py:342-344 at v0.11.0, :258-260 at v0.14.0); v0.15.0 sets it whatever
# the packing (sft_trainer.py:214-215)
_LOW, _FIXED = (0, 8), (0, 15)
_CONFIGS = ("SFTConfig", "SFTTrainer")


def _true(node: Optional[ast.AST]) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _false(node: Optional[ast.AST]) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def _calls(tree: ast.AST) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and call_last(node) in _CONFIGS:
            yield node


@register
class UnpackedEvalWithoutLabels(PlanRule):
    code = "PF155"
    name = "unpacked-eval-without-labels"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("trl",)
    summary = ("`SFTTrainer` with `packing=True`, `eval_packing=False` and no `data_collator` on trl 0.8-0.14: "
               "the unpacked evaluation batches carry no labels, so there is no `eval_loss`")
    explanation = """
## What it finds

A TRL `SFTConfig` (or `SFTTrainer` keywords) with `packing=True` and `eval_packing=False`,
a text dataset field or formatting function (the trainer tokenizes the data itself), an
`eval_dataset` and no `data_collator` given to `SFTTrainer`, in a project that pins trl
from 0.8.0 to 0.14.x.

## Why it matters

On these releases `SFTTrainer` builds its `DataCollatorForLanguageModeling` only when
training is not packed (`if not args.packing: ... data_collator = DataCollatorForLanguageModeling(...)`,
sft_trainer.py at v0.9.6, v0.11.0, v0.14.0). Packed training batches carry their own labels
(`ConstantLengthDataset`), but the unpacked evaluation set only has `input_ids` and
`attention_mask`, and the Trainer's default collator adds no labels: the model returns no
loss and evaluation reports no `eval_loss`. With `load_best_model_at_end` (best model on the
default `eval_loss`) the first checkpoint save raises `KeyError: 'eval_loss'` (TRL issue 1907,
"When eval_packing=False, training failed with KeyError: 'eval_loss'"). trl 0.15.0 sets the
language-modelling collator whatever the packing.

## How to fix it

Keep evaluation packed like training (drop `eval_packing=False`), pass
`data_collator=DataCollatorForLanguageModeling(tokenizer, mlm=False)`, or upgrade to trl 0.15.

## When preflight stays silent

* `data_collator=` is given, or no `eval_dataset`, or neither `dataset_text_field` nor
  `formatting_func` is set (a pre-tokenized dataset may carry its labels).
* `packing` or `eval_packing` is not the literal `True` / `False`.
* trl is not pinned, or pinned outside 0.8.0 to 0.14.x.
"""
    bad_examples = examples("preflight.rules.plan._pf155_examples", "BAD")
    good_examples = examples("preflight.rules.plan._pf155_examples", "GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            text = script.source.text
            if "eval_packing" not in text or "SFTTrainer" not in text:
                continue
            calls = list(_calls(script.tree))
            trainers = [c for c in calls if call_last(c) == "SFTTrainer"]
            if not trainers or any(kwarg(t, "data_collator") is not None or kwarg(t, "eval_dataset") is None
                                   or any(k.arg is None for k in t.keywords) for t in trainers):
                continue
            if not any(kwarg(c, k) is not None for c in calls for k in ("dataset_text_field", "formatting_func")):
                continue
            packed = [c for c in calls if _true(kwarg(c, "packing"))]
            unpacked = [kwarg(c, "eval_packing") for c in calls if _false(kwarg(c, "eval_packing"))]
            if not packed or not unpacked:
                continue
            version = pinned_version(pctx, "trl", script)
            if version is None or not released_between(version, _LOW, _FIXED):
                continue
            best = "load_best_model_at_end" in text
            node = unpacked[0]
            assert node is not None
            yield pctx.code_finding(self, script, node, (
                f"`packing=True` with `eval_packing=False` and no `data_collator`: {version.describe()} builds its "
                "language-modelling collator only for unpacked training, so the unpacked evaluation batches carry "
                "no labels, the model returns no loss and evaluation reports no `eval_loss`"
                + (" (and `load_best_model_at_end` raises KeyError 'eval_loss' at the first checkpoint)" if best
                   else "") + " (TRL issue 1907; trl 0.15.0 always sets the collator). Keep evaluation packed, pass "
                "`data_collator=DataCollatorForLanguageModeling(tokenizer, mlm=False)`, or upgrade"))
