"""PF631 deepspeed-activation-checkpointing-unused: a DeepSpeed ``activation_checkpointing`` block in a job whose
transformers model never checkpoints: the block configures an API nothing calls, every activation is kept."""

from __future__ import annotations

import re
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import model_loads
from preflight.rules.base import examples

# the block's switches that promise a memory saving
_SWITCHES = ("partition_activations", "cpu_checkpointing", "contiguous_memory_optimization")
# any sign that the job checkpoints activations some way: the model's own gradient checkpointing (a call, a
# TrainingArguments field, a launch flag), torch's checkpoint API, DeepSpeed's checkpointing API, Megatron flags
_CHECKPOINTS = re.compile(r"gradient_checkpointing|checkpoint_activations|checkpoint-activations|"
                          r"activation_checkpointing|utils\.checkpoint|checkpoint_sequential|"
                          r"deepspeed\.checkpointing|from deepspeed import checkpointing|recompute")


@register
class DeepSpeedActivationCheckpointingUnused(PlanRule):
    code = "PF631"
    name = "deepspeed-activation-checkpointing-unused"
    severity = Severity.WARNING
    category = Category.MEMORY
    frameworks = ("deepspeed", "transformers")
    summary = ("The DeepSpeed config's `activation_checkpointing` block is the only checkpointing of a transformers "
               "model: it configures `deepspeed.checkpointing.checkpoint`, which the model never calls")
    explanation = """
## What it finds

A DeepSpeed config with an `activation_checkpointing` block that turns on
`partition_activations`, `cpu_checkpointing` or `contiguous_memory_optimization`, in a job
that trains a transformers model loaded with `from_pretrained`, where nothing turns on
checkpointing: no `gradient_checkpointing_enable()`, no `gradient_checkpointing` argument or
launch flag, no `torch.utils.checkpoint` and no `deepspeed.checkpointing` in the job's code.

## Why it matters

The block only configures DeepSpeed's own activation-checkpointing API
(`deepspeed.checkpointing.checkpoint`, as Megatron-style models call it). A Hugging Face
model checkpoints through its own `gradient_checkpointing_enable()` (torch's checkpoint) and
never calls DeepSpeed's: with the model's checkpointing off, every layer's activations stay
on the GPU and the memory the block was meant to save is not saved (DeepSpeed issue 5550:
"whether I used gradient_checkpointing ... I still use up same memory"). Long sequences run
out of memory at the first step.

## How to fix it

Turn on the model's checkpointing: `model.gradient_checkpointing_enable()` (or
`--gradient_checkpointing` / `gradient_checkpointing=True` for the HF Trainer). The
DeepSpeed block can stay, but it does not checkpoint an HF model.

## When preflight stays silent

* The block turns none of its switches on.
* The job's code or launch line mentions gradient or activation checkpointing in any form
  (even `gradient_checkpointing=False`: preflight does not weigh which), `torch.utils.checkpoint`,
  `deepspeed.checkpointing`, or Megatron's `--checkpoint-activations` / `recompute`.
* The model is not a transformers model loaded with `from_pretrained` (a project's own model
  may call `deepspeed.checkpointing` in a file preflight was not given).
"""
    bad_examples = examples("preflight.rules.plan._pf631_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf631_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        blocks = []
        for config, block, prefix in pctx.deepspeed_configs():
            ac = block.get("activation_checkpointing")
            if isinstance(ac, dict):
                on = [k for k in _SWITCHES if ac.get(k) is True]
                if on:
                    blocks.append((config, prefix, on))
        if not blocks:
            return
        for script in pctx.scripts:
            launch = " ".join(pctx.project.script_args(script) or ())
            if _CHECKPOINTS.search(script.source.text) or _CHECKPOINTS.search(launch):
                return
        for script in pctx.scripts:
            loads = model_loads(pctx, script)
            if not loads:
                continue
            site = loads[0]
            config, prefix, on = blocks[0]
            switches = ", ".join(f"`{k}`" for k in on)
            yield pctx.code_finding(
                self, script, site.call,
                f"the model loaded here is a transformers model and nothing in the job turns on its gradient "
                f"checkpointing; the DeepSpeed config's `activation_checkpointing` block ({switches}) only "
                "configures `deepspeed.checkpointing.checkpoint`, which the model never calls, so no activation "
                "is checkpointed and every layer's activations stay on the GPU (DeepSpeed issue 5550). Call "
                "`model.gradient_checkpointing_enable()` (or pass `--gradient_checkpointing`)",
                evidence=[pctx.config_evidence(config, (*prefix, "activation_checkpointing"),
                                               "the block that checkpoints nothing here")])
            return
