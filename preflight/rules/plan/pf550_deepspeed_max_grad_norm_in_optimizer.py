"""PF550 deepspeed-max-grad-norm-in-optimizer: ``max_grad_norm`` among a DeepSpeed optimizer's params."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._deepspeed_runs import client_optimizer


@register
class DeepSpeedMaxGradNormInOptimizer(PlanRule):
    code = "PF550"
    name = "deepspeed-max-grad-norm-in-optimizer"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("deepspeed",)
    summary = ("`max_grad_norm` inside a DeepSpeed config's `optimizer.params`: DeepSpeed never clips with it "
               "(old releases zero it under fp16, current ones refuse the config)")
    explanation = """
## What it finds

A DeepSpeed config whose `optimizer` block carries `max_grad_norm` in its
`params` (`"optimizer": {"type": "Lamb", "params": {"lr": ..., "max_grad_norm": 1.0}}`).

## Why it matters

DeepSpeed clips gradients with its own top-level `gradient_clipping` key, never with an
optimizer parameter. Early releases overwrote `max_grad_norm` with 0.0 whenever fp16 was on,
so the run trained with no clipping at all while the config said 1.0 (DeepSpeed issue 102:
"Setting max_grad_norm in the JSON config has no effect since it is overidden"; the loss
scale kept dropping on overflows). Current releases raise at `deepspeed.initialize`:
`ValueError: 'max_grad_norm' is not supported as an optimizer parameter, please switch to
using the deepspeed parameter 'gradient_clipping'` — after the job waited for its GPUs.

## How to fix it

Remove `max_grad_norm` from `optimizer.params` and put `"gradient_clipping": 1.0` at the
top level of the DeepSpeed config.

## When preflight stays silent

* `gradient_clipping` at the top level, or `max_grad_norm` outside a DeepSpeed optimizer
  block (a TrainingArguments key, which the HF integration copies into `gradient_clipping`).
* A script passes its own optimizer to `deepspeed.initialize(optimizer=...)` (Megatron-DeepSpeed):
  the config's optimizer block is then never built, and its `max_grad_norm` is dead text.
"""
    bad_examples = examples("preflight.rules.plan._pf550_examples", "PF550_BAD")
    good_examples = examples("preflight.rules.plan._pf550_examples", "PF550_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        configs = pctx.deepspeed_configs()
        if not any(isinstance(b.get("optimizer"), dict) and isinstance(b["optimizer"].get("params"), dict)
                   and "max_grad_norm" in b["optimizer"]["params"] for _, b, _ in configs):
            return
        if client_optimizer(pctx):
            return
        for config, block, prefix in configs:
            optimizer = block.get("optimizer")
            params = optimizer.get("params") if isinstance(optimizer, dict) else None
            if not isinstance(params, dict) or "max_grad_norm" not in params:
                continue
            value = params["max_grad_norm"]
            clipping = block.get("gradient_clipping")
            also = (f" (the top-level `gradient_clipping` is {clipping!r})" if clipping is not None else "")
            yield pctx.config_finding(
                self, config, (*prefix, "optimizer", "params", "max_grad_norm"),
                f"`max_grad_norm: {value}` among the DeepSpeed optimizer's params is not a clipping setting "
                "DeepSpeed honours: releases of the fp16 era reset it to 0.0 (no clipping at all), current "
                "ones stop `deepspeed.initialize` with \"'max_grad_norm' is not supported as an optimizer "
                f"parameter\"{also}. Move it to the top level as `\"gradient_clipping\": {value}`")
