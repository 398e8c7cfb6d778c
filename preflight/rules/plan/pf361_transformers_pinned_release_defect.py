"""PF361 transformers-pinned-release-defect: a job whose code triggers a documented defect of the transformers
release the project pins (the DeepSpeed loss divided by the accumulation steps twice on 4.48; labels under
`lm_labels` unseen by the 2.9 Trainer; DataCollatorForSeq2Seq padding labels short of `max_length` before 4.41)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples
from preflight.rules.plan._pinned_release import pinned_scripts, released_between
from preflight.sources import ParsedPython

# heads whose forward takes no **kwargs on 4.48 (Trainer.model_accepts_loss_kwargs False): Trainer divides
# their loss by the accumulation steps itself
_NO_LOSS_KWARGS = ("ForSequenceClassification", "ForTokenClassification", "ForQuestionAnswering",
                   "ForMultipleChoice")


def _calls(tree: ast.AST, name: str) -> list[ast.Call]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and call_last(n) == name]


def _int(node: Optional[ast.AST]) -> Optional[int]:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, int) \
        and not isinstance(node.value, bool) else None


def _deepspeed_double_division(pctx: PlanContext, script: ParsedPython) -> Optional[tuple[ast.Call, str, int]]:
    """(TrainingArguments call, model class, accumulation steps) on 4.48 with DeepSpeed and GA > 1 for a head
    that takes no loss kwargs."""
    heads = [c for c in ast.walk(script.tree) if isinstance(c, ast.Call) and call_last(c) == "from_pretrained"
             and isinstance(c.func, ast.Attribute) and ast.unparse(c.func.value).endswith(_NO_LOSS_KWARGS)]
    if not heads or "compute_loss_func" in (script.text or ""):
        return None
    argv = list(pctx.project.argv)
    for ta in _calls(script.tree, "TrainingArguments"):
        ds = kwarg(ta, "deepspeed")
        if ds is None and "--deepspeed" not in argv:
            continue
        steps = _int(kwarg(ta, "gradient_accumulation_steps"))
        if steps is None:
            ga = pctx.plan.resolve("batch.grad_accum")
            steps = ga.value if ga is not None and isinstance(ga.value, int) else None
        if steps is not None and steps > 1:
            assert isinstance(heads[0].func, ast.Attribute)
            return ta, ast.unparse(heads[0].func.value), steps
    return None


def _lm_labels_key(tree: ast.AST) -> Optional[ast.AST]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key in node.keys:
                if isinstance(key, ast.Constant) and key.value == "lm_labels":
                    return key
    return None


def _max_length_seq2seq_collator(tree: ast.AST) -> Optional[ast.Call]:
    """``DataCollatorForSeq2Seq(..., padding="max_length" | PaddingStrategy.MAX_LENGTH, max_length=N)`` in a file
    that trains a causal LM (labels must match the inputs' length)."""
    if not any(call_last(c) == "from_pretrained" and isinstance(c.func, ast.Attribute)
               and ast.unparse(c.func.value).endswith("ForCausalLM") for c in _calls(tree, "from_pretrained")):
        return None
    for call in _calls(tree, "DataCollatorForSeq2Seq"):
        padding = kwarg(call, "padding")
        text = ast.unparse(padding) if padding is not None else ""
        if kwarg(call, "max_length") is not None and (text in ("'max_length'", '"max_length"')
                                                        or text.endswith("MAX_LENGTH")):
            return call
    return None


@register
class TransformersPinnedReleaseDefect(PlanRule):
    code = "PF361"
    name = "transformers-pinned-release-defect"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("the job's code triggers a known defect of the pinned transformers release (DeepSpeed loss divided "
               "twice by the accumulation steps on 4.48; `lm_labels` unseen by the 2.9 Trainer; Seq2Seq collator "
               "labels short of `max_length` before 4.41)")
    explanation = """
## What it finds

A project that pins `transformers` to a release with one of these documented defects, and code
that triggers it:

* **4.48.x**: a Trainer job with DeepSpeed (`TrainingArguments(deepspeed=...)` or `--deepspeed`
  on the launch line), `gradient_accumulation_steps` > 1 and a classification-style head
  (`*ForSequenceClassification`, `*ForTokenClassification`, `*ForQuestionAnswering`,
  `*ForMultipleChoice`: their `forward` takes no `**kwargs`, so `model_accepts_loss_kwargs` is
  false). 4.48's `training_step` divides such a loss by the accumulation steps, and DeepSpeed's
  `engine.backward` divides it again: gradients are `steps`² times too small instead of `steps`,
  `max_grad_norm` never clips and the logged `grad_norm` shrinks with the accumulation steps
  (transformers PR 35808, "Fix GA loss for Deepspeed", released in 4.49.0, passes
  `scale_wrt_gas=False`; read in the 4.47.0, 4.48.3 and 4.49.0 wheels: 4.47 does not divide).
* **2.9.x**: a collator that returns the targets under `"lm_labels"` (T5/BART of that time)
  with a Trainer: 2.9's Trainer looks for labels under `labels`/`masked_lm_labels` only, so
  evaluation computes no loss and `evaluate_during_training` logs no `eval_loss` (issue 4361;
  PR 4363 in 2.10.0 adds `lm_labels`).
* **Before 4.41**: `DataCollatorForSeq2Seq(padding="max_length", max_length=N)` in a script
  that trains a causal LM. The collator pads `input_ids` to N but pads the labels only to the
  longest label of the batch, so labels and inputs differ in length and the causal-LM loss
  fails on the first batch (issue 30521; 4.41.0's collator pads labels to `max_length` under
  `PaddingStrategy.MAX_LENGTH`, read in the 4.40.2 and 4.41.0 wheels).

## How to fix it

Upgrade the pin past the fix (4.49, 2.10, 4.41), or on the pinned release: no accumulation under
DeepSpeed (or a `compute_loss_func`); return the targets as `labels`; pad dynamically
(`padding=True`) or pad the labels to `max_length` yourself.

## When preflight stays silent

* transformers is not pinned, or pinned outside the defective releases.
* 4.48: no DeepSpeed, no accumulation, a causal-LM head (its `forward` takes `**kwargs`), or a
  `compute_loss_func`.
* The collator pads dynamically, or the model is an encoder-decoder (labels need not match the
  inputs' length).
"""
    bad_examples = examples("preflight.rules.plan._pf361_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf361_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script, _, version in pinned_scripts(pctx, "transformers",
                                                 lambda text: "Trainer" in text or "DataCollatorForSeq2Seq" in text):
            pin = version.describe()
            if released_between(version, (4, 48), (4, 49)):
                found = _deepspeed_double_division(pctx, script)
                if found is not None:
                    ta, head, steps = found
                    yield pctx.code_finding(
                        self, script, ta,
                        f"the project pins {pin}: with DeepSpeed and gradient_accumulation_steps={steps}, that "
                        f"release's Trainer divides the loss of `{head}` (its forward takes no loss kwargs) by {steps} "
                        f"and DeepSpeed's backward divides it by {steps} again, so the gradients are {steps * steps}x "
                        f"smaller instead of {steps}x, max_grad_norm never clips and the logged grad_norm is off "
                        "(transformers PR 35808, fixed in 4.49.0). Upgrade transformers or do not accumulate under "
                        "DeepSpeed on this release")
            if released_between(version, (2, 9), (2, 10)) and _calls(script.tree, "Trainer"):
                key = _lm_labels_key(script.tree)
                if key is not None:
                    yield pctx.code_finding(
                        self, script, key,
                        f"the project pins {pin}, whose Trainer treats only `labels`/`masked_lm_labels` as labels: "
                        "the targets passed as `lm_labels` give no evaluation loss, and evaluation during training "
                        "reports no eval_loss (transformers issue 4361, fixed in 2.10.0). Upgrade transformers or "
                        "compute the evaluation loss yourself")
            if not version.at_least(4, 41):
                call = _max_length_seq2seq_collator(script.tree)
                if call is not None:
                    yield pctx.code_finding(
                        self, script, call,
                        f"the project pins {pin}, whose DataCollatorForSeq2Seq pads input_ids to max_length but the "
                        "labels only to the longest label of the batch: for this causal LM the labels no longer "
                        "have the inputs' length and the loss fails on the first batch (transformers issue 30521, "
                        "fixed in 4.41.0). Pad dynamically (padding=True) or pad the labels to max_length yourself")
