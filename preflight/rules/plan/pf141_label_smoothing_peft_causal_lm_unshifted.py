"""PF141 label-smoothing-peft-causal-lm-unshifted: ``label_smoothing_factor`` on a PEFT-wrapped causal LM under a
transformers release whose Trainer shifts the labels only for plain causal-LM classes."""

from __future__ import annotations

import ast
import textwrap
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import calls, is_from, kwarg, literal
from preflight.rules.base import examples

_ARGS = ("TrainingArguments", "Seq2SeqTrainingArguments")
_FIXED = (4, 35)  # the Trainer looks through the PEFT wrapper (issue 27161) from the release after 4.34


@register
class LabelSmoothingPeftCausalLmUnshifted(PlanRule):
    code = "PF141"
    name = "label-smoothing-peft-causal-lm-unshifted"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("`label_smoothing_factor` on a PEFT causal LM with transformers before 4.35: the Trainer does not "
               "shift the labels, so each position is scored against its own input token")
    explanation = textwrap.dedent("""
    ## What it finds

    A Trainer script with `TrainingArguments(label_smoothing_factor=<above 0>)` whose model is wrapped by
    `get_peft_model(...)` (or `PeftModel.from_pretrained`) and is a causal LM (`task_type="CAUSAL_LM"` or
    a `...ForCausalLM` class in the file), in a project that pins or caps transformers below 4.35.

    ## Why it matters

    With label smoothing the Trainer computes the loss itself: `compute_loss` pops the labels and calls
    its `LabelSmoother`, asking it to shift them only if the unwrapped model's class name is in
    `MODEL_FOR_CAUSAL_LM_MAPPING_NAMES`. Up to 4.34 that name is `PeftModelForCausalLM` (or, after PR
    25044, the `LoraModel` tuner), never in the mapping, so the logits at position t are scored against
    the token at t: the adapter learns to copy its input and the reported loss looks excellent
    (transformers issue 27161, "this silent bug"; fixed by reading
    `unwrapped_model.base_model.model._get_name()`).

    ## How to fix it

    Drop label smoothing for this model, upgrade transformers, or override `compute_loss` and call
    `self.label_smoother(outputs, labels, shift_labels=True)`.

    ## When preflight stays silent

    * No transformers version is declared, or the declared one may be 4.35 or later (a lower bound
      lets the latest release install).
    * The factor is 0 or not a literal, the model is not wrapped by PEFT or is not a causal LM, or the
      script overrides `compute_loss`.
    """)
    bad_examples = examples("preflight.rules.plan._pf141_examples", "PF141_BAD")
    good_examples = examples("preflight.rules.plan._pf141_examples", "PF141_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            text = script.source.text
            if "label_smoothing_factor" not in text or "peft" not in text.lower():
                continue
            if "CAUSAL_LM" not in text and "ForCausalLM" not in text:
                continue
            ctx = pctx.file_context(script)
            if any(f.name == "compute_loss" for f in ctx.nodes(ast.FunctionDef)):
                continue
            wraps = [c for c, q in calls(ctx) if is_from(q, "peft", "get_peft_model")
                     or (is_from(q, "peft", "from_pretrained") and "PeftModel" in q)]
            if not wraps:
                continue
            for call, qual in calls(ctx):
                if not any(is_from(qual, "transformers", name) for name in _ARGS):
                    continue
                node = kwarg(call, "label_smoothing_factor")
                value = literal(ctx, node) if node is not None else None
                if node is None or isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                    continue
                found = pctx.version("transformers", script)
                if found is None or found.how != "pinned" or found.at_least(*_FIXED):
                    continue
                yield pctx.code_finding(
                    self, script, node,
                    f"label_smoothing_factor={value:g} makes the Trainer compute the loss with its LabelSmoother, "
                    f"which shifts the labels only for model classes in the causal-LM mapping; with "
                    f"{found.describe()} the PEFT wrapper's name is looked up and not found, so the logits at "
                    "position t are scored against the token at t: the adapter learns to copy its input while the "
                    "loss looks excellent. Drop label smoothing for this model or upgrade transformers to 4.35+",
                    evidence=[pctx.code_evidence(script, wraps[0], "the causal LM is wrapped by PEFT")])
