"""PF486 lm-logits-kept-for-metrics: a Trainer with compute_metrics on a language-model head and no
preprocess_logits_for_metrics keeps the vocabulary-sized logits of the whole eval set."""

from __future__ import annotations

import ast
import re
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import has_unpacking, kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules._pf484_support import model_loads
from preflight.rules.base import Rule, examples

# heads whose logits are [batch, seq_len, vocab]
_LM_HEAD = re.compile(r"(ForCausalLM|LMHeadModel|ForMaskedLM|WithLMHead)$")
# heads whose predictions are not vocabulary-sized (the file's model is then not known to be an LM)
_OTHER_HEAD = re.compile(r"For(Sequence|Token|Multiple|Audio|Image|Video)?Classification$|ForQuestionAnswering$"
                         r"|ForConditionalGeneration$|ForSeq2SeqLM$|ForMultipleChoice$|^AutoModel$")
_TRAINERS = frozenset({"Trainer", "SFTTrainer", "Seq2SeqTrainer"})
# sequence-to-sequence (and vision/speech-to-text) generation heads: their forward returns vocabulary
# logits too, and the Trainer keeps those unless predict_with_generate swaps them for generated ids
_SEQ2SEQ_HEAD = re.compile(r"ForConditionalGeneration$|ForSeq2SeqLM$")
_ARGS = frozenset({"TrainingArguments", "Seq2SeqTrainingArguments"})


def _evaluates_logits(ctx: FileContext) -> bool:
    """The file builds its training arguments itself (no ``**`` unpacking, no parser) and never
    mentions ``predict_with_generate``: a seq2seq model's evaluation returns its logits."""
    if "predict_with_generate" in ctx.parsed.source.text:
        return False
    built = [c for c in ctx.nodes(ast.Call) if call_last(c) in _ARGS]
    return bool(built) and not any(has_unpacking(c) for c in built)


def _loaded_head(call: ast.Call) -> str:
    func = call.func
    return ast.unparse(func.value).rsplit(".", 1)[-1] if isinstance(func, ast.Attribute) else ""


@register
class LmLogitsKeptForMetrics(Rule):
    code = "PF486"
    name = "lm-logits-kept-for-metrics"
    severity = Severity.WARNING
    category = Category.MEMORY
    frameworks = ("transformers",)
    needs_text = ("compute_metrics",)
    summary = "compute_metrics on a language model without preprocess_logits_for_metrics: the eval set's full vocabulary logits are kept"
    explanation = """
## What it finds

A `Trainer(...)` (or trl `SFTTrainer`, or `Seq2SeqTrainer`) given `compute_metrics=` and no
`preprocess_logits_for_metrics=`, in a file whose models are all loaded as language-model
heads (`AutoModelForCausalLM`, `*LMHeadModel`, `*ForMaskedLM`), or as sequence-to-sequence
heads (`AutoModelForSeq2SeqLM`, `T5ForConditionalGeneration`) evaluated without
`predict_with_generate` (transformers issue 13597: t5-base trains in 20 GB and runs out of
memory in evaluation, "if I remove compute_metrics ... everything is working fine").

## Why it matters

To call `compute_metrics` once at the end, `Trainer.evaluation_loop` keeps every batch's
logits (transformers `trainer.py`: `all_preds.add(logits)`, on the GPU until
`eval_accumulation_steps` moves them to the CPU). A language-model head's logits are
`[batch, seq_len, vocab]`: for GPT-2 with 1,024 tokens that is 200 MB per example in
fp32, so evaluation runs out of GPU (or host) memory long before the eval set ends
(transformers#15466, #7232). `preprocess_logits_for_metrics` was added for this: it runs
per batch and lets the loop keep only the argmax ids.

## How to fix it

`preprocess_logits_for_metrics=lambda logits, labels: logits.argmax(dim=-1)` (and read
predictions, not logits, in `compute_metrics`), as `run_clm.py`/`run_mlm.py` do.

## When preflight stays silent

* `preprocess_logits_for_metrics=` is passed, `prediction_loss_only=True` is set, or the
  Trainer call unpacks `**kwargs`.
* The file loads a classification or question-answering model, or no model class it can name.
* A sequence-to-sequence head (`AutoModelForSeq2SeqLM`, `*ForConditionalGeneration`) counts as a
  language model only when the file builds its `TrainingArguments`/`Seq2SeqTrainingArguments`
  itself (no `**` unpacking, no argument parser) and never mentions `predict_with_generate`
  (which makes the evaluation return generated token ids instead of logits).
"""
    bad_examples = examples("preflight.rules.code._pf486_examples", "PF486_BAD")
    good_examples = examples("preflight.rules.code._pf486_examples", "PF486_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        heads = [_loaded_head(c) for c in model_loads(ctx)]
        if not heads:
            return
        seq2seq = all(_LM_HEAD.search(h) or _SEQ2SEQ_HEAD.search(h) for h in heads) and any(
            _SEQ2SEQ_HEAD.search(h) for h in heads)
        if seq2seq:
            if not _evaluates_logits(ctx):
                return
        elif not all(_LM_HEAD.search(h) for h in heads) or any(_OTHER_HEAD.search(h) for h in heads):
            return
        if "prediction_loss_only" in ctx.parsed.source.text:
            return
        for call in ctx.nodes(ast.Call):
            if call_last(call) not in _TRAINERS or has_unpacking(call):
                continue
            metrics = kwarg(call, "compute_metrics")
            if metrics is None or (isinstance(metrics, ast.Constant) and metrics.value is None):
                continue
            if kwarg(call, "preprocess_logits_for_metrics") is not None:
                continue
            yield ctx.finding(
                self, metrics,
                "`compute_metrics` on a language model without `preprocess_logits_for_metrics`: the Trainer keeps "
                "every eval batch's [batch, seq_len, vocab] logits until the end of evaluation (on the GPU unless "
                "`eval_accumulation_steps` is set), which runs out of memory on any sizeable eval set. Pass "
                "`preprocess_logits_for_metrics=lambda logits, labels: logits.argmax(dim=-1)`")
