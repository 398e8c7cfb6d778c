"""PF699 accelerate-deepspeed-plugin-before-0-19: accelerate pinned before 0.19.0 drives DeepSpeed pinned at
0.9.0 or later: the engine's batch-size check sees a world size of 1 and ``accelerator.prepare`` fails."""

from __future__ import annotations

from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

# accelerate PR 1352 ("using deepspeed.comm for distributed init", commit 57f2cf5f) first released in 0.19.0
_ACCELERATE_FIXED = (0, 19, 0)
# DeepSpeed 0.9.0 reads the world size from its own communication backend (deepspeed.comm)
_DEEPSPEED_FROM = (0, 9, 0)


def _text(script: Any) -> str:
    return (script.text if script.text is not None else script.source.text) or ""


def _uses_plugin(pctx: PlanContext) -> Optional[str]:
    """How the job hands the model to DeepSpeed through accelerate: an accelerate config with
    ``distributed_type: DEEPSPEED``, the launch line's ``--use_deepspeed``, or a ``DeepSpeedPlugin`` in the
    code; None when it does not."""
    from preflight.adapters.accelerate import is_accelerate_config

    if not any("Accelerator(" in _text(s) for s in pctx.scripts):
        return None
    for config in pctx.configs:
        data = config.data
        if isinstance(data, dict) and is_accelerate_config(data) \
                and str(data.get("distributed_type", "")).upper() == "DEEPSPEED":
            return f"{config.path}: distributed_type: DEEPSPEED"
    if "--use_deepspeed" in (pctx.project.argv or []):
        return "--use_deepspeed on the launch line"
    if any("DeepSpeedPlugin(" in _text(s) for s in pctx.scripts):
        return "a DeepSpeedPlugin in the code"
    return None


@register
class AccelerateDeepspeedPluginBefore019(PlanRule):
    code = "PF699"
    name = "accelerate-deepspeed-plugin-before-0-19"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("accelerate", "deepspeed")
    summary = ("accelerate pinned before 0.19.0 drives DeepSpeed pinned at 0.9.0 or later: `accelerator.prepare` "
               "fails with \"train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * world_size\"")
    explanation = """
## What it finds

A job whose requirements pin accelerate to a release before 0.19.0 and DeepSpeed to 0.9.0
or later, where the training script builds an `Accelerator` and hands the model to
DeepSpeed through accelerate (an accelerate config with `distributed_type: DEEPSPEED`,
`accelerate launch --use_deepspeed`, or a `DeepSpeedPlugin`).

## Why it matters

From DeepSpeed 0.9.0 the engine takes the world size from its own communication
backend (`deepspeed.comm`). accelerate before 0.19.0 starts the process group with
`torch.distributed` only, so the engine built in `accelerator.prepare` counts one process
and its batch check fails on every multi-GPU run: "AssertionError: Check batch related
parameters. train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step *
world_size 32 != 16 * 1 * 1" (huggingface/accelerate issue 1324: accelerate 0.18.0 with
DeepSpeed 0.9.0, runs with DeepSpeed 0.8.3; OpenGVLab/InternImage issue 111, the same pins;
deepspeedai/DeepSpeed issue 3228). accelerate PR 1352 (first in 0.19.0) initialises the
process group through `deepspeed.comm`.

## How to fix it

Upgrade accelerate to 0.19.0 or later, or pin DeepSpeed 0.8.3 with the older accelerate.

## When preflight stays silent

* Either package is unpinned or only bounded from below, or the pins are outside the ranges above.
* The script builds no `Accelerator`, or accelerate does not drive DeepSpeed (HF Trainer before
  transformers 4.30 starts DeepSpeed itself; a plain `deepspeed.initialize`).
"""
    bad_examples = examples("preflight.rules.plan._pf699_examples", "PF699_BAD")
    good_examples = examples("preflight.rules.plan._pf699_examples", "PF699_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        how = _uses_plugin(pctx)
        if how is None:
            return
        script = next(s for s in pctx.scripts if "Accelerator(" in _text(s))
        accelerate = pctx.version("accelerate", script)
        deepspeed = pctx.version("deepspeed", script)
        if accelerate is None or deepspeed is None or accelerate.how != "pinned" or deepspeed.how != "pinned":
            return
        if accelerate.at_least(*_ACCELERATE_FIXED) or not deepspeed.at_least(*_DEEPSPEED_FROM):
            return
        path, _, line = deepspeed.where.rpartition(":")
        if not path or not line.isdigit():
            return
        yield pctx.location_finding(
            self, path, int(line),
            f"{deepspeed.describe()} under {accelerate.describe()}, which hands the model to DeepSpeed ({how}): "
            "from DeepSpeed 0.9.0 the engine reads the world size from deepspeed.comm, which accelerate before "
            "0.19.0 never initialises, so the engine counts one process and `accelerator.prepare` fails with "
            "\"train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * world_size\" on every "
            "multi-GPU run. Upgrade accelerate to 0.19.0 or later, or pin deepspeed==0.8.3")
