"""PF466 head-drawn-before-seed: a model with a new random head loaded before any seeding, in a job that
asks its HF trainer for a seed: the trainer seeds too late for the head."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

_HEADS = ("ForSequenceClassification", "ForTokenClassification", "ForMultipleChoice", "ForQuestionAnswering",
          "ForAudioClassification", "ForImageClassification")
_ARGS = ("TrainingArguments", "Seq2SeqTrainingArguments", "RewardConfig", "SFTConfig", "DPOConfig", "PPOConfig",
         "GRPOConfig", "PRMConfig")
_SEEDS = ("set_seed", "seed_everything", "manual_seed", "manual_seed_all", "enable_full_determinism", "seed")


def _new_head(call: ast.Call) -> bool:
    """``AutoModelForSequenceClassification.from_pretrained(...)`` and kin, or ``from_pretrained(..., num_labels=)``."""
    if not (isinstance(call.func, ast.Attribute) and call.func.attr == "from_pretrained"):
        return False
    owner = ast.unparse(call.func.value)
    return any(owner.endswith(h) for h in _HEADS) or any(k.arg == "num_labels" for k in call.keywords)


def _seeded_before(ctx: FileContext, fn: ast.AST, line: int) -> bool:
    """A seeding call before ``line`` in the function, or anywhere at module level before it."""
    scopes = [fn] if fn is ctx.tree else [fn, ctx.tree]
    for scope in scopes:
        for node in ast.walk(scope):
            if isinstance(node, ast.Call) and node.lineno < line and (
                    call_last(node) in _SEEDS or "seed" in call_last(node).lower()):
                if scope is ctx.tree and ctx.enclosing_function(node) is not None and ctx.enclosing_function(node) is not fn:
                    continue
                return True
    return False


@register
class HeadDrawnBeforeSeed(Rule):
    code = "PF466"
    needs_text = ("seed",)
    name = "head-drawn-before-seed"
    severity = Severity.NOTE  # reproducibility, as PF305
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("A model with a new random head is loaded before anything is seeded; the trainer's `seed=` "
               "comes too late for the head")
    explanation = """
## What it finds

In one function: `AutoModelForSequenceClassification.from_pretrained(...)` (or another
`...For*Classification`/`ForQuestionAnswering` class, or any `from_pretrained(...,
num_labels=...)`), which adds a randomly initialised head, with no seeding call before
it (`set_seed`, `torch.manual_seed`, `seed_everything`, a helper named `*seed*`), and
later a `TrainingArguments`/`RewardConfig`/TRL config given an explicit `seed=`.

## Why it matters

The Trainer seeds the random generators when it is built, from `args.seed`: after the
model, and so after its new head was drawn from an unseeded generator. Two runs with
the same `seed` start from different heads and give different results, which is what
the explicit seed was meant to prevent (TRL PR 4887: "As
AutoModelForSequenceClassification.from_pretrained() will add a random head for the
model, set_seed must be done before loading the model").

It is a note, as PF305 (unseeded training) is: the runs train correctly, they only
do not repeat.

## How to fix it

Call `transformers.set_seed(args.seed)` before `from_pretrained`, or pass
`model_init=` to the Trainer (it seeds, then builds the model).

## When preflight stays silent

* A seeding call precedes the load in the function (or at module level), or the
  Trainer gets `model_init=`.
* No training-arguments call of the function passes `seed=` (no reproducibility was
  asked for), or the loaded class adds no head.
"""
    bad_examples = examples("preflight.rules.code._pf466_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf466_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call in ctx.nodes(ast.Call):
            if not _new_head(call):
                continue
            fn = ctx.enclosing_function(call) or ctx.tree
            seeded_args: Optional[ast.Call] = None
            for node in ast.walk(fn):
                if not isinstance(node, ast.Call):
                    continue
                if any(k.arg == "model_init" for k in node.keywords):
                    seeded_args = None
                    break
                if seeded_args is None and call_last(node) in _ARGS and node.lineno > call.lineno and any(
                        k.arg == "seed" for k in node.keywords):
                    seeded_args = node
            if seeded_args is None or _seeded_before(ctx, fn, call.lineno):
                continue
            yield ctx.finding(
                self, call,
                f"`{ast.unparse(call.func)}(...)` adds a randomly initialised head before anything is seeded; the "
                f"`seed=` of `{call_last(seeded_args)}` is applied only when the trainer is built, after the head "
                "was drawn, so runs with the same seed start from different heads. Call `set_seed(...)` before "
                "loading the model (or pass `model_init=` to the trainer)",
                evidence=[ctx.evidence(seeded_args, "the seed is given here, after the model is loaded")])
