"""PF497 load-best-without-saving: ``load_best_model_at_end`` may be on while ``save_strategy="no"``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import has_unpacking, kwarg
from preflight.rules._pf414_support import call_last, const_str
from preflight.rules.base import Rule, examples

_ARGS = frozenset({"TrainingArguments", "Seq2SeqTrainingArguments", "SFTConfig", "DPOConfig", "ORPOConfig",
                   "KTOConfig", "CPOConfig", "RewardConfig", "GRPOConfig"})


def _strategy(node: Optional[ast.AST]) -> Optional[str]:
    """A literal strategy: ``"no"``, ``IntervalStrategy.NO``/``SaveStrategy.NO`` -> ``"no"``."""
    if node is None:
        return None
    text = const_str(node)
    if text is not None:
        return text
    if isinstance(node, ast.Attribute) and node.attr.isupper():
        return node.attr.lower()
    return None


def _literal_false(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and not node.value


@register
class LoadBestWithoutSaving(Rule):
    code = "PF497"
    name = "load-best-without-saving"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("transformers",)
    needs_text = ("load_best_model_at_end",)
    summary = "load_best_model_at_end can be on while save_strategy is \"no\": TrainingArguments refuses, or no best model exists"
    explanation = """
## What it finds

`TrainingArguments(...)` (or a trl config) with `save_strategy="no"` and a
`load_best_model_at_end=` that is not a literal False: an expression that is true on some
path (`load_best_model_at_end=eval_data is not None`), or `True` with no evaluation
strategy. (`True` with an evaluation strategy that differs is PF508's.)

## Why it matters

transformers `training_args.py` `__post_init__`: with `load_best_model_at_end` set and a
save strategy other than `"best"`, the evaluation and save strategies must match, else
"ValueError: --load_best_model_at_end requires the save and eval strategy to match". With
saving off, every path that evaluates fails at construction (oobabooga/textgen#2078: the
web UI turned on evaluation and `load_best_model_at_end` whenever an eval set was chosen,
and kept `save_strategy="no"`), and a path that neither saves nor evaluates has no
checkpoint to load the best model from.

## How to fix it

Save with the evaluation strategy (`save_strategy="steps"`, `save_steps=eval_steps`), or
make `load_best_model_at_end` false whenever saving is off.

## When preflight stays silent

* `load_best_model_at_end` is absent or a literal False, `save_strategy` is not a literal
  `"no"`, or the call unpacks `**kwargs`.
* `load_best_model_at_end=True` with an evaluation strategy other than `"no"`: PF508 reports
  the mismatch.
"""
    bad_examples = examples("preflight.rules.code._pf497_examples", "PF497_BAD")
    good_examples = examples("preflight.rules.code._pf497_examples", "PF497_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call in ctx.nodes(ast.Call):
            if call_last(call) not in _ARGS or has_unpacking(call):
                continue
            save = kwarg(call, "save_strategy")
            best = kwarg(call, "load_best_model_at_end")
            if best is None or _literal_false(best) or _strategy(save) != "no":
                continue
            evals = kwarg(call, "eval_strategy") or kwarg(call, "evaluation_strategy")
            if isinstance(best, ast.Constant) and _strategy(evals) not in (None, "no"):
                continue  # a literal mismatch: PF508 reports it
            assert save is not None
            yield ctx.finding(
                self, save,
                "`save_strategy=\"no\"` while `load_best_model_at_end` can be true: on a path that evaluates, "
                "TrainingArguments raises \"--load_best_model_at_end requires the save and eval strategy to "
                "match\"; on one that does not, no checkpoint exists to load the best model from. Save with the "
                "evaluation strategy (`save_strategy=\"steps\"`, `save_steps=eval_steps`)",
                evidence=[ctx.evidence(best, "load_best_model_at_end set here")])
