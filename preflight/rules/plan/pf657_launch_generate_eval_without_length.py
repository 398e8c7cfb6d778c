"""PF657 launch-generate-eval-without-length: a T5 summarization/translation job whose launch line turns on
``--predict_with_generate`` and evaluation during training, with no generation length anywhere: every
evaluation run inside ``train()`` generates at most 20 tokens."""

from __future__ import annotations

import ast
import re
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import known, launch_site

# checkpoints whose config sets no generation length (generation_config.max_length falls back to 20)
_T5 = re.compile(r"(^|/)(t5|mt5|flan-t5|byt5|t5-v1_1|long-t5)[-_]", re.IGNORECASE)
_LENGTH_FLAGS = ("generation_max_length", "generation_config")
_LENGTH_ATTRS = frozenset({"max_length", "max_new_tokens", "generation_max_length", "generation_config"})


def _model_name(values: dict[str, Any], script: Any) -> Optional[str]:
    """The checkpoint the launch line names, else the literal default of a ``model_name_or_path`` field."""
    name = values.get("model_name_or_path")
    if isinstance(name, str) and known(name):
        return name
    for node in ast.walk(script.tree):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
                and node.target.id == "model_name_or_path" and isinstance(node.value, ast.Call):
            default = next((kw.value for kw in node.value.keywords if kw.arg == "default"), None)
            if isinstance(default, ast.Constant) and isinstance(default.value, str):
                return default.value
    return None


def _length_set_in(script: Any) -> bool:
    """``training_args.generation_max_length = ...``, ``model.config.max_length = ...``,
    ``model.generation_config = GenerationConfig(max_length=...)``, a ``GenerationConfig(max_new_tokens=...)``,
    or ``generation_config=``/``generation_max_length=`` given to any call."""
    for node in ast.walk(script.tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Attribute) and t.attr in _LENGTH_ATTRS for t in targets):
                return True
        if isinstance(node, ast.Call) and any(kw.arg in ("generation_config", "generation_max_length")
                                              for kw in node.keywords):
            return True
        if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("GenerationConfig"):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "update" \
                and any(kw.arg in _LENGTH_ATTRS for kw in node.keywords):
            return True
    return False


@register
class LaunchGenerateEvalWithoutLength(PlanRule):
    code = "PF657"
    name = "launch-generate-eval-without-length"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("A T5 job launched with `--predict_with_generate` and evaluation during training, no generation "
               "length: the evaluations inside `train()` generate at most 20 tokens")
    explanation = """
## What it finds

A script that reads its `Seq2SeqTrainingArguments` from the launch line
(`HfArgumentParser(...).parse_args_into_dataclasses()`), launched with
`--predict_with_generate` and `--evaluation_strategy`/`--eval_strategy` `steps` or
`epoch`, whose `Seq2SeqTrainer` gets a `compute_metrics`, for a T5-family checkpoint
(`t5-*`, `google/flan-t5-*`, `mt5`, `byt5`: their configs set no generation length),
while no generation length is given anywhere: no `--generation_max_length` or
`--generation_config` on the line, and the script assigns no `generation_max_length`,
`config.max_length`, `generation_config` or `max_new_tokens`. A `max_length=` passed to a
`trainer.evaluate(...)` called after `train()` does not count: it reaches only that call.

## Why it matters

The evaluations the strategy runs inside `train()` call `Seq2SeqTrainer.evaluate()`
without arguments. `prediction_step` then generates with `args.generation_max_length`
when it is set, and otherwise with the model's generation config, whose `max_length`
is 20 for T5 checkpoints (`transformers/trainer_seq2seq.py`; transformers 4.3.3 used
`model.config.max_length`). Every ROUGE/BLEU computed during training, and the
best-checkpoint choice, uses predictions cut at 20 tokens although the targets are
longer (transformers issue 10032: "generation length always equal to 20 when using
run_seq2seq.py", with `--val_max_target_length 100`).

## How to fix it

`--generation_max_length 128` on the launch line (transformers >= 4.5), or
`model.config.max_length = args.val_max_target_length` /
`model.generation_config.max_new_tokens = ...` before training.

## When preflight stays silent

* The checkpoint is not a T5 one or is not readable (BART-CNN, Pegasus and Marian
  checkpoints carry their own generation length; PF478 judges literal
  `Seq2SeqTrainingArguments` in the script).
* Evaluation during training is off or unreadable, `--predict_with_generate` is not on
  the line, or the trainer gets no `compute_metrics` (the evaluation reports the loss).
* A length is set anywhere as above (the current `run_summarization.py` assigns
  `training_args.generation_max_length`).
"""
    bad_examples = examples("preflight.rules.plan._pf657_examples", "PF657_BAD")
    good_examples = examples("preflight.rules.plan._pf657_examples", "PF657_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        launch = launch_site(pctx)
        if launch is None or launch.script is None:
            return
        values = launch.values
        if values.get("predict_with_generate") is not True or any(k in values for k in _LENGTH_FLAGS):
            return
        strategy = values.get("eval_strategy", values.get("evaluation_strategy"))
        if strategy not in ("steps", "epoch"):
            return
        script = launch.script
        model = _model_name(values, script)
        if model is None or not _T5.search(model + "-"):
            return
        if _length_set_in(script):
            return
        trainer = self._trainer(pctx, script)
        if trainer is None or ".train(" not in script.source.text:
            return
        message = (f"`--predict_with_generate` with `--evaluation_strategy {strategy}` on the launch line and no "
                   f"generation length anywhere: the evaluations inside `train()` call `evaluate()` without one, so "
                   f"`{model}` generates with its generation config's `max_length` of 20 tokens and every "
                   "ROUGE/BLEU during training (and the best-checkpoint choice) reads truncated predictions. Pass "
                   "`--generation_max_length` (or set `model.generation_config.max_new_tokens`)")
        yield pctx.code_finding(self, script, trainer, message,
                                evidence=[pctx.code_evidence(script, launch.anchor,
                                                             "the arguments are read from the launch line here")])

    @staticmethod
    def _trainer(pctx: PlanContext, script: Any) -> Optional[ast.Call]:
        for site in pctx.index(script).calls:
            if site.last != "Seq2SeqTrainer" or not (site.qualified or "").startswith("transformers"):
                continue
            metrics = next((kw.value for kw in site.call.keywords if kw.arg == "compute_metrics"), None)
            if metrics is None or (isinstance(metrics, ast.Constant) and metrics.value is None):
                continue
            return site.call
        return None
