"""PF164 seq2seq-eval-without-generate: a Seq2SeqTrainer script that decodes its evaluation predictions as
text, launched with evaluation but without ``--predict_with_generate``: the predictions are logits."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import launch_site


@register
class Seq2SeqEvalWithoutGenerate(PlanRule):
    code = "PF164"
    name = "seq2seq-eval-without-generate"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("A Seq2SeqTrainer script whose metrics decode generated text, launched with evaluation but "
               "without `--predict_with_generate`: evaluation hands the metrics logits, not answers")
    explanation = """
## What it finds

A script that reads `Seq2SeqTrainingArguments` from the launch line
(`HfArgumentParser(...).parse_args_into_dataclasses()`), never mentions
`predict_with_generate` itself, decodes token ids with `batch_decode`, and builds a
`Seq2SeqTrainer` (or a subclass whose name ends in `Seq2SeqTrainer`, such as the
examples' `QuestionAnsweringSeq2SeqTrainer`) with a `compute_metrics`, launched with
`--do_eval` or an evaluation strategy of `steps`/`epoch` and without
`--predict_with_generate`.

## Why it matters

`Seq2SeqTrainer.prediction_step` generates only when `predict_with_generate` is true;
otherwise it returns the model's logits as the predictions. The script's
post-processing decodes those as if they were generated token ids: the QA/ROUGE/BLEU
metrics get no usable text (or `batch_decode` fails on a 3-D float array), and the run
reports only `eval_loss` (transformers issue 22640: `run_seq2seq_qa.py` on MLQA with
`--do_train --do_eval` "returns no useful metric"). The official summarization and
translation scripts guard this with `compute_metrics=... if
training_args.predict_with_generate else None`; the QA one does not.

## How to fix it

Pass `--predict_with_generate` (with a generation length) on the launch line.

## When preflight stays silent

* The script mentions `predict_with_generate` (it sets or guards it), or decodes nothing.
* The launch line passes `--predict_with_generate`, or evaluates nothing.
* The arguments come from a JSON/YAML file or are built in code (PF478 judges literal
  `Seq2SeqTrainingArguments`).
"""
    bad_examples = examples("preflight.rules.plan._pf164_examples", "PF164_BAD")
    good_examples = examples("preflight.rules.plan._pf164_examples", "PF164_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        launch = launch_site(pctx)
        if launch is None or launch.script is None:
            return
        values = launch.values
        if values.get("predict_with_generate") is True:
            return
        strategy = values.get("eval_strategy", values.get("evaluation_strategy"))
        if values.get("do_eval") is not True and strategy not in ("steps", "epoch"):
            return
        script = launch.script
        text = script.source.text
        if "Seq2SeqTrainingArguments" not in text or "predict_with_generate" in text or "batch_decode" not in text:
            return
        trainer = self._trainer(script)
        if trainer is None:
            return
        yield pctx.code_finding(
            self, script, trainer,
            f"`{ast.unparse(trainer.func)}` is evaluated ({'--do_eval' if values.get('do_eval') is True else '--eval_strategy ' + str(strategy)}) "
            "without `--predict_with_generate` on the launch line, and the script never sets it: "
            "`prediction_step` then returns logits, not generated ids, so the post-processing decodes no answers "
            "and the run reports only eval_loss (no exact-match/F1/ROUGE to judge or select the model). Pass "
            "`--predict_with_generate`",
            evidence=[pctx.code_evidence(script, launch.anchor, "the arguments are read from the launch line here")])

    @staticmethod
    def _trainer(script: Any) -> Optional[ast.Call]:
        for node in ast.walk(script.tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if not name.endswith("Seq2SeqTrainer"):
                continue
            metrics = next((kw.value for kw in node.keywords if kw.arg == "compute_metrics"), None)
            if metrics is None or (isinstance(metrics, ast.Constant) and metrics.value is None):
                continue
            return node
        return None
