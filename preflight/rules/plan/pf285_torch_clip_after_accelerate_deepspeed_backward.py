"""PF285 torch-clip-after-accelerate-deepspeed-backward: a torch gradient clip placed after
``accelerator.backward`` in a job that Accelerate runs under DeepSpeed, where the backward has
already stepped the engine."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import accelerator_calls, qualify
from preflight.rules.base import examples

_CLIPS = ("torch.nn.utils.clip_grad_norm_", "torch.nn.utils.clip_grad_value_", "torch.nn.utils.clip_grad.clip_grad_norm_",
          "torch.nn.utils.clip_grad.clip_grad_value_")


def _deepspeed_config(pctx: PlanContext) -> Optional[str]:
    """The accelerate config that runs the job under DeepSpeed (``distributed_type: DEEPSPEED``)."""
    for cfg in pctx.configs:
        data = cfg.data if isinstance(cfg.data, dict) else {}
        if str(data.get("distributed_type", "")).upper() == "DEEPSPEED":
            return cfg.path
    return None



@register
class TorchClipAfterAccelerateDeepspeedBackward(PlanRule):
    code = "PF285"
    name = "torch-clip-after-accelerate-deepspeed-backward"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate", "deepspeed")
    summary = ("`torch.nn.utils.clip_grad_*_` after `accelerator.backward` under Accelerate's DeepSpeed: the "
               "engine has already stepped, nothing is clipped")
    explanation = """
## What it finds

`torch.nn.utils.clip_grad_norm_(...)` or `clip_grad_value_(...)` after
`accelerator.backward(loss)` in the same loop, in a job whose accelerate config runs
DeepSpeed (`distributed_type: DEEPSPEED`).

## Why it matters

Under DeepSpeed, `accelerator.backward(loss)` is `DeepSpeedEngineWrapper.backward`: it
runs `engine.backward(loss)` and then `engine.step()`, which clips with the config's
`gradient_clipping`, updates the weights and clears the gradients at the accumulation
boundary (accelerate issue 2951: "DeepSpeedEngineWrapper.backward() does a bit too much
... zeros grad and change the parameter without noticing the user"). A torch clip
placed after it acts once the update is done, on gradients ZeRO-2/3 do not even keep
in `param.grad`: the updates are never clipped, with no error. (`optimizer.step()` after
it is a no-op wrapper under DeepSpeed.)

## How to fix it

Remove the hand-written clip and set `"gradient_clipping"` in the DeepSpeed config
(a norm; DeepSpeed has no per-element clipping), or `accelerator.clip_grad_norm_`
with a config that sets `gradient_clipping`.

## When preflight stays silent

* No accelerate config of the job says `distributed_type: DEEPSPEED` (a DeepSpeed
  plugin built in code is not read).
* The clip is `accelerator.clip_grad_norm_` (PF511 checks that one against the
  config), or it is not after an `accelerator.backward` of the same loop.
"""
    bad_examples = examples("preflight.rules.plan._pf285_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf285_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        config = _deepspeed_config(pctx)
        if config is None:
            return
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if "clip_grad_" not in text or "backward" not in text:
                continue
            ctx = pctx.file_context(script)
            backwards = accelerator_calls(ctx, "backward")
            if not backwards:
                continue
            for clip in ctx.nodes(ast.Call):
                if qualify(ctx, clip.func) not in _CLIPS:
                    continue
                loop = ctx.enclosing_loop(clip)
                before = [b for b in backwards if loop is not None and ctx.enclosing_loop(b) is loop
                          and (b.lineno, b.col_offset) < (clip.lineno, clip.col_offset)]
                if not before:
                    continue
                name = qualify(ctx, clip.func).rsplit(".", 1)[-1]
                yield pctx.code_finding(
                    self, script, clip,
                    f"`{name}(...)` runs after `accelerator.backward(...)`, but {config} runs the job under "
                    "DeepSpeed, where `accelerator.backward` also calls `engine.step()`: the weights are already "
                    "updated (and the gradients cleared or held in ZeRO's partitions), so this clip never touches "
                    "an update. Remove it and set `\"gradient_clipping\"` in the DeepSpeed config",
                    evidence=[pctx.code_evidence(script, before[-1], "the backward that already stepped the engine")])
