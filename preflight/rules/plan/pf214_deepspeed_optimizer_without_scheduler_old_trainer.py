"""PF214 deepspeed-optimizer-without-scheduler-old-trainer: an HF Trainer job whose DeepSpeed config
has an ``optimizer`` block but no ``scheduler`` block, under transformers before 4.33."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._deepspeed_runs import runs_config, uses_hf_trainer

_SUPPORTED = (4, 33)  # a Trainer scheduler with a DeepSpeed optimizer (transformers issue 24359, accelerate PR 1909)


@register
class DeepSpeedOptimizerWithoutSchedulerOldTrainer(PlanRule):
    code = "PF214"
    name = "deepspeed-optimizer-without-scheduler-old-trainer"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("deepspeed", "transformers")
    summary = ("An HF Trainer job whose DeepSpeed config defines an `optimizer` but no `scheduler`: "
               "transformers before 4.33 stops with \"Found `optimizer` configured in the DeepSpeed config, "
               "but no `scheduler`\"")
    explanation = """
## What it finds

A job trained by the HF `Trainer` (or a TRL trainer) with a DeepSpeed config that has an
`"optimizer"` block and no `"scheduler"` block, where the project pins transformers below 4.33.

## Why it matters

The Trainer always creates a learning-rate scheduler (`lr_scheduler_type`, linear by default).
Before transformers 4.33 its DeepSpeed integration (`deepspeed_optim_sched` in
`transformers/deepspeed.py`) could not combine an optimizer that DeepSpeed builds from its
config with a scheduler that the Trainer builds, and `trainer.train()` stops before the first
step with "ValueError: Found `optimizer` configured in the DeepSpeed config, but no `scheduler`.
Please configure a scheduler in the DeepSpeed config." (transformers issue 24359 with 4.30,
DeepSpeedExamples issue 600, KnowLM issue 30). The combination works from the 4.33/4.34
releases with accelerate 0.23 (accelerate PR 1909, "Add support for deepspeed optimizer and
custom scheduler"; the maintainer in 24359: "hf scheduler + ds optimizer combination is working
well with the latest release").

## How to fix it

Add a `"scheduler"` block with `"auto"` values (`WarmupDecayLR`/`WarmupLR`, filled from the
Trainer's arguments), or remove the `"optimizer"` block so the Trainer builds both, or upgrade
transformers.

## When preflight stays silent

* transformers is not pinned, or pinned at 4.33 or later (a lower bound installs a newer one).
* The config has a `scheduler` block, or no `optimizer` block; the job has no HF Trainer, or it
  has several DeepSpeed configs and this one is not the one the Trainer's script or launch line
  names.
"""
    bad_examples = examples("preflight.rules.plan._pf214_examples", "PF214_BAD")
    good_examples = examples("preflight.rules.plan._pf214_examples", "PF214_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        configs = [(cfg, block, prefix) for cfg, block, prefix in pctx.deepspeed_configs()
                   if isinstance(block.get("optimizer"), dict) and "scheduler" not in block]
        if not configs:
            return
        trainer = uses_hf_trainer(pctx)
        if trainer is None:
            return
        script, call = trainer
        version = pctx.version("transformers", script)
        if version is None or version.how != "pinned" or version.at_least(*_SUPPORTED):
            return
        only = len(pctx.deepspeed_configs()) == 1  # the one DeepSpeed config the job was given
        for config, _block, prefix in configs:
            if not (only or runs_config(pctx, script, config)):
                continue
            yield pctx.config_finding(
                self, config, (*prefix, "optimizer"),
                "this DeepSpeed config defines an `optimizer` but no `scheduler`, while the HF Trainer always "
                f"creates its own scheduler: under {version.describe()} the Trainer cannot pair a DeepSpeed-built "
                "optimizer with its scheduler and `trainer.train()` stops with \"ValueError: Found `optimizer` "
                "configured in the DeepSpeed config, but no `scheduler`\". Add a `scheduler` block with \"auto\" "
                "values (WarmupDecayLR), remove the `optimizer` block, or use transformers >= 4.33",
                evidence=[pctx.code_evidence(script, call, "the HF Trainer runs the job")])
