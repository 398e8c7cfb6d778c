"""PF671 label-smoothing-seq2seq-collator-without-model: ``label_smoothing_factor`` on the Trainer while an
encoder-decoder model gets its batches from ``DataCollatorForSeq2Seq`` built without ``model=``."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, has_unpacking, is_from, kwarg, literal
from preflight.rules._pf484_support import assigned_to, model_loads, receiver_name
from preflight.rules.base import Rule, examples

# encoder-decoder classes whose forward builds decoder inputs from `labels` only (not vision-language
# "...ForConditionalGeneration" decoders such as Llava or Qwen2-VL)
_ENC_DEC = re.compile(
    r"^(AutoModelForSeq2SeqLM|(Bart|MBart|PLBart|T5|MT5|UMT5|LongT5|Pegasus|PegasusX|BigBirdPegasus|Marian|"
    r"Blenderbot|BlenderbotSmall|LED|ProphetNet|XLMProphetNet|M2M100|NllbMoe|FSMT|SwitchTransformers|Mvp|"
    r"Whisper)ForConditionalGeneration|MarianMTModel)$")
_ARGS = ("TrainingArguments", "Seq2SeqTrainingArguments")


def _smoothing(ctx: FileContext) -> Optional[tuple[float, ast.AST]]:
    for call, qual in calls(ctx):
        if not any(is_from(qual, "transformers", name) for name in _ARGS):
            continue
        node = kwarg(call, "label_smoothing_factor")
        value = literal(ctx, node) if node is not None else None
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
            return float(value), node  # type: ignore[return-value]
    return None


def _passed_as_collator(ctx: FileContext, call: ast.Call) -> bool:
    parent = ctx.parent(call)
    if isinstance(parent, ast.keyword):
        return parent.arg == "data_collator"
    name = assigned_to(ctx, call)
    if name is None:
        return False
    return any(kw.arg == "data_collator" and isinstance(kw.value, ast.Name) and kw.value.id == name
               for node in ctx.nodes(ast.Call) for kw in node.keywords)


@register
class LabelSmoothingSeq2SeqCollatorWithoutModel(Rule):
    code = "PF671"
    name = "label-smoothing-seq2seq-collator-without-model"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    needs_text = ("label_smoothing_factor", "DataCollatorForSeq2Seq")
    summary = ("`label_smoothing_factor` with an encoder-decoder model whose `DataCollatorForSeq2Seq` has no "
               "`model=`: the batch carries no `decoder_input_ids` once the Trainer pops the labels")
    explanation = """
## What it finds

A Trainer script with `TrainingArguments`/`Seq2SeqTrainingArguments(label_smoothing_factor=<above 0>)`,
an encoder-decoder model (`AutoModelForSeq2SeqLM`, `BartForConditionalGeneration`, T5, Pegasus,
Marian, ...) and a `DataCollatorForSeq2Seq(tokenizer)` passed as `data_collator` without `model=`
(keyword or second positional argument).

## Why it matters

With label smoothing the Trainer builds a `LabelSmoother`, and `Trainer.compute_loss` *pops*
`labels` from the batch before calling the model (`if self.label_smoother is not None and "labels"
in inputs: labels = inputs.pop("labels")`). An encoder-decoder model only derives its decoder inputs
from `labels` (`shift_tokens_right(labels, ...)` in BART's forward, `_shift_right(labels)` in T5's);
`DataCollatorForSeq2Seq` adds `decoder_input_ids` to the batch only when it was given the model
(`if labels is not None and self.model is not None and hasattr(self.model,
"prepare_decoder_input_ids_from_labels")`). Without both, BART shifts the *source* `input_ids` into
the decoder, the logits have the source length and the label smoother fails with a size mismatch
(transformers issue 10452); T5 stops with "You have to specify either decoder_input_ids or
decoder_inputs_embeds". The example scripts (`run_summarization.py`, `run_translation.py`) pass
`model=model` to the collator and warn when the model cannot prepare decoder inputs.

## How to fix it

`DataCollatorForSeq2Seq(tokenizer, model=model, ...)`.

## When preflight stays silent

* `model=` (or a second positional argument, or `**kwargs`) is given, or the label smoothing factor
  is 0 or not a literal.
* The model is not loaded in the file or is decoder-only (`AutoModelForCausalLM`; a causal LM's
  logits follow its `input_ids` and the smoother shifts the labels itself).
* The collator is not passed as a Trainer's `data_collator`, or the file overrides `compute_loss`.
"""
    bad_examples = examples("preflight.rules.code._pf671_examples", "PF671_BAD")
    good_examples = examples("preflight.rules.code._pf671_examples", "PF671_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        smoothing = _smoothing(ctx)
        if smoothing is None:
            return
        if any(f.name == "compute_loss" for f in ctx.nodes(ast.FunctionDef)):
            return
        loads = [c for c in model_loads(ctx) if _ENC_DEC.match(receiver_name(c))]
        if not loads:
            return
        factor, where = smoothing
        for call, qual in calls(ctx):
            if not is_from(qual, "transformers", "DataCollatorForSeq2Seq") or has_unpacking(call):
                continue
            if kwarg(call, "model") is not None or len(call.args) >= 2:
                continue
            if not _passed_as_collator(ctx, call):
                continue
            yield ctx.finding(
                self, call,
                "DataCollatorForSeq2Seq is built without `model=`, so its batches carry no `decoder_input_ids`; "
                f"with label_smoothing_factor={factor:g} the Trainer pops `labels` before the forward pass, and "
                f"{receiver_name(loads[0])} then has nothing to build its decoder inputs from (BART shifts the "
                "source ids: logits of the source length and a size mismatch in the label smoother; T5 raises "
                "\"You have to specify either decoder_input_ids\"). Pass `model=model` to the collator",
                evidence=[ctx.evidence(where, f"label_smoothing_factor={factor:g}"),
                          ctx.evidence(loads[0], "an encoder-decoder model")])
