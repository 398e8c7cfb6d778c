"""PF478 generate-eval-without-length: ``Seq2SeqTrainingArguments(predict_with_generate=True)`` with no
generation length anywhere: evaluation generates up to the generation config's ``max_length`` (20 by
default), truncating every prediction the metric reads."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, has_unpacking, kwarg, literal
from preflight.rules._pf414_support import const_str
from preflight.rules.base import Rule, examples

# keywords of an evaluate()/predict()/generation-config call that set the generated length
_LENGTH_KEYS = frozenset({"max_length", "max_new_tokens", "generation_max_length", "generation_config"})
_EVAL_KEYS = ("eval_strategy", "evaluation_strategy")


@register
class GenerateEvalWithoutLength(Rule):
    code = "PF478"
    needs_text = ("predict_with_generate",)
    name = "generate-eval-without-length"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("`predict_with_generate=True` with no generation length: evaluation generates up to the "
               "generation config's `max_length` (20 by default) and the metrics read truncated outputs")
    explanation = """
## What it finds

`Seq2SeqTrainingArguments(predict_with_generate=True)` that evaluates (an evaluation
strategy other than `"no"`, or a `trainer.evaluate()`/`trainer.predict()` call in the
file), while nothing in the file sets how long the generated sequences may be: no
`generation_max_length=` or `generation_config=` in the arguments, no `max_length=`/
`max_new_tokens=` passed to `evaluate`/`predict`, and no assignment to a
`generation_config.max_length`/`max_new_tokens` or `config.max_length`.

## Why it matters

`Seq2SeqTrainer.evaluate` passes `args.generation_max_length` to `generate` only when
it is set; otherwise `prediction_step` falls back to `model.generation_config`, whose
`max_length` is 20 unless the checkpoint's config says otherwise
(`transformers/trainer_seq2seq.py`). The evaluations run during `train()` never get a
length from the caller, so summaries or translations are cut at 20 tokens while the
targets are longer, and ROUGE/BLEU come out far too low (transformers issue 13252:
"Unless you call the trainer.evaluate(eval_dataset = eval_dataset,
max_length=max_target_length) manually, in the training time it uses
model.config.max_length").

## How to fix it

`Seq2SeqTrainingArguments(..., generation_max_length=MAX_TARGET_LENGTH,
generation_num_beams=4)`, or set `model.generation_config.max_new_tokens`.

## When preflight stays silent

* A length is set anywhere in the file as above, or the arguments unpack `**kwargs`
  (an argument parser may set `generation_max_length`).
* Nothing evaluates (`eval_strategy="no"` and no `evaluate`/`predict` call), or no
  `compute_metrics` reads the generated outputs (the evaluation then reports the
  teacher-forced loss only) and nothing calls `predict`.
* Checkpoints whose own generation config sets a length are not known to preflight:
  this is a warning.
"""
    bad_examples = examples("preflight.rules.code._pf478_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf478_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        targets: list[ast.Call] = []
        evaluates = predicts = metrics = False
        for call, qual in calls(ctx):
            last = qual.rsplit(".", 1)[-1] if qual else ""
            func = call.func
            attr = func.attr if isinstance(func, ast.Attribute) else ""
            length_call = attr in ("evaluate", "predict", "update") or last in (
                "GenerationConfig", "Seq2SeqTrainingArguments", "Seq2SeqTrainer")
            if length_call and any(k.arg in _LENGTH_KEYS for k in call.keywords):
                return  # a length given to evaluate/predict, a generation config or the arguments
            if attr == "evaluate":
                evaluates = True
            elif attr == "predict":
                predicts = True  # the generated predictions are returned to the caller
            if last == "Seq2SeqTrainer" or (last.endswith("Trainer") and kwarg(call, "compute_metrics") is not None):
                found = kwarg(call, "compute_metrics")
                metrics = metrics or (found is not None and not (isinstance(found, ast.Constant) and found.value is None))
            if last == "Seq2SeqTrainingArguments" and qual.startswith("transformers"):
                flag = kwarg(call, "predict_with_generate")
                if flag is not None and literal(ctx, flag) is True and not has_unpacking(call):
                    targets.append(call)
        # without compute_metrics an evaluation reports the teacher-forced loss only: the length does not matter
        if not targets or self._length_assigned(ctx) or not (metrics or predicts):
            return
        evaluates = evaluates or predicts
        for call in targets:
            if not metrics and not predicts:
                continue
            strategy = next((kwarg(call, k) for k in _EVAL_KEYS if kwarg(call, k) is not None), None)
            text = const_str(strategy) if strategy is not None else None
            if strategy is not None and text is None and not evaluates:
                continue  # a computed strategy
            if not evaluates and (strategy is None or text == "no") and literal(ctx, kwarg(call, "do_eval")) is not True:
                continue
            flag = kwarg(call, "predict_with_generate")
            assert flag is not None
            yield ctx.finding(
                self, flag,
                "`predict_with_generate=True` but no generation length is set (`generation_max_length`, "
                "`generation_config`, `max_length`/`max_new_tokens` to `evaluate`/`predict`, or the model's "
                "generation config): the evaluations generate up to `model.generation_config.max_length`, 20 "
                "tokens unless the checkpoint says otherwise, so predictions are truncated and the metrics "
                "(ROUGE/BLEU) come out too low. Pass `generation_max_length=` (and `generation_num_beams=`)")

    @staticmethod
    def _length_assigned(ctx: FileContext) -> bool:
        """``model.generation_config.max_length = ...`` / ``model.config.max_length = ...`` (or
        ``max_new_tokens``) anywhere in the file."""
        for node in ctx.nodes(ast.Assign):
            for tgt in node.targets:
                if isinstance(tgt, ast.Attribute) and tgt.attr in ("max_length", "max_new_tokens") \
                        and isinstance(tgt.value, ast.Attribute) and tgt.value.attr in ("generation_config", "config"):
                    return True
        return False
