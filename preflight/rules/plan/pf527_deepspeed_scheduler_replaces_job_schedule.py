"""PF527 deepspeed-scheduler-replaces-job-schedule: a ``scheduler`` block in the DeepSpeed config beside the job's own schedule."""

from __future__ import annotations

import re
from typing import Iterable

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._deepspeed_runs import (
    initialize_with_scheduler,
    runs_config,
    uses_hf_trainer,
)

# DeepSpeed schedules that hold the rate after warming up (no decay)
_NO_DECAY = ("WarmupLR",)
_CONSTANT_ASKED = re.compile(r"lr_scheduler_type\W{1,4}constant")


@register
class DeepSpeedSchedulerReplacesJobSchedule(PlanRule):
    code = "PF527"
    name = "deepspeed-scheduler-replaces-job-schedule"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("deepspeed",)
    summary = "The DeepSpeed config's `scheduler` block and the job's own LR schedule: one of them never runs"
    explanation = """
## What it finds

A DeepSpeed config with a `scheduler` section in a job that also brings its own
schedule:

* a script passes `lr_scheduler=<scheduler>` to `deepspeed.initialize`; or
* the job runs the HF Trainer (a `Trainer`/`Seq2SeqTrainer`/TRL trainer) and the config's
  scheduler is `WarmupLR`, which warms up and then holds the rate.

## Why it matters

DeepSpeed runs one scheduler. Before 0.14.5 the engine built the config's scheduler
whenever the config had one and silently dropped the client's (DeepSpeed issue 5726:
"the LR scheduler is always initialized from the configuration file if it is defined
there, regardless of whether a scheduler is provided programmatically"); from 0.14.5
(PR 5846) the client's wins and the config's block is ignored. Either way one of the
two schedules written for the job never runs. Under the HF Trainer a `scheduler` in the
DeepSpeed config replaces the schedule of `--lr_scheduler_type` (default `linear`): a
`WarmupLR` block then keeps the rate at its peak for the whole run (transformers issue
15508: "the learning rate stayed at 5e-5 all the way").

## How to fix it

Keep one schedule: drop the config's `scheduler` block (or the `lr_scheduler=` argument).
Under the Trainer, use `WarmupDecayLR` with `"total_num_steps": "auto"`, or remove the
block and let `--lr_scheduler_type` decide.

## When preflight stays silent

* No script passes `lr_scheduler=` (or passes `None`), and no HF Trainer runs the config.
* The script neither names the config file nor is launched with it (`--deepspeed ds.json`):
  a project's other DeepSpeed configs are not the one its `initialize` reads.
* Under the Trainer the config's scheduler decays (`WarmupDecayLR`, `WarmupCosineLR`,
  `OneCycle`), or the job asks for a constant schedule (`lr_scheduler_type` `constant*`).
"""
    bad_examples = examples("preflight.rules.plan._pf527_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf527_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        configs = [(cfg, block, prefix) for cfg, block, prefix in pctx.deepspeed_configs()
                   if isinstance(block.get("scheduler"), dict) and isinstance(block["scheduler"].get("type"), str)]
        if not configs:
            return
        client = initialize_with_scheduler(pctx)
        trainer = None if client is not None else uses_hf_trainer(pctx)
        for config, block, prefix in configs:
            kind = block["scheduler"]["type"]
            evidence: list[Evidence] = []
            if client is not None and runs_config(pctx, client[0], config):
                script, call = client
                evidence.append(pctx.code_evidence(script, call, "`deepspeed.initialize` is given its own "
                                                                  "`lr_scheduler` here"))
                message = (f"the DeepSpeed config defines a scheduler ({kind}) and the script passes its own "
                           "`lr_scheduler=` to `deepspeed.initialize`: DeepSpeed runs only one. Before 0.14.5 "
                           "the config's wins and the script's schedule is silently dropped (DeepSpeed issue "
                           "5726); from 0.14.5 the script's wins and this block is ignored. Keep one: remove "
                           "this `scheduler` block or the `lr_scheduler=` argument")
            elif trainer is not None and kind in _NO_DECAY and runs_config(pctx, trainer[0], config):
                launch = " ".join(pctx.project.script_args(trainer[0]) or ())
                if any(_CONSTANT_ASKED.search(text) for text in (trainer[0].source.text, launch)):
                    continue
                evidence.append(pctx.code_evidence(trainer[0], trainer[1], "the HF Trainer runs the job"))
                message = (f"the DeepSpeed config's scheduler is {kind}, which warms up and then holds the rate, "
                           "and under the HF Trainer it replaces the schedule of `lr_scheduler_type` (default "
                           "linear decay): the learning rate never decays after warmup (transformers issue "
                           "15508). Use WarmupDecayLR with \"total_num_steps\": \"auto\", or remove the "
                           "block and let `--lr_scheduler_type` decide")
            else:
                continue
            yield pctx.config_finding(self, config, (*prefix, "scheduler"), message, evidence=evidence)
