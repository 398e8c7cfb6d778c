"""PF175 bf16-optimizer-with-offload: a DeepSpeed config that routes training to the BF16 optimizer
(a pipeline engine, or ``grad_accum_dtype: fp32``, with bf16 and ZeRO stage 1) and offloads the optimizer."""

from __future__ import annotations

from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples


def _on(block: Any, key: str) -> bool:
    value = block.get(key) if isinstance(block, dict) else None
    return isinstance(value, dict) and value.get("enabled") is True


def _offload_device(zero: Any) -> Optional[str]:
    off = zero.get("offload_optimizer") if isinstance(zero, dict) else None
    device = off.get("device") if isinstance(off, dict) else None
    return device if device in ("cpu", "nvme") else None


def _pipeline(pctx: PlanContext) -> Optional[tuple[Any, Any]]:
    """(script, call) of a ``PipelineModule`` built by the job."""
    for script in pctx.scripts:
        for site in pctx.index(script).calls:
            qual = site.qualified or ""
            if site.last == "PipelineModule" and (qual.startswith("deepspeed.") or "deepspeed" in script.source.text):
                return script, site.call
    return None


@register
class Bf16OptimizerWithOffload(PlanRule):
    code = "PF175"
    name = "bf16-optimizer-with-offload"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("deepspeed",)
    summary = ("bf16 with ZeRO stage 1 on a pipeline engine (or with `grad_accum_dtype: fp32`) selects DeepSpeed's "
               "BF16 optimizer, which cannot offload the optimizer: `offload_optimizer` makes the run fail")
    explanation = """
## What it finds

A DeepSpeed config with `bf16.enabled: true`, `zero_optimization.stage: 1` and
`zero_optimization.offload_optimizer.device` `cpu` or `nvme`, where either

* the job trains a `deepspeed.pipe.PipelineModule` (the pipeline engine), or
* the config sets `data_types.grad_accum_dtype: "fp32"`.

## Why it matters

A bf16 model that accumulates gradients in fp32 under ZeRO stage 1 is routed to DeepSpeed's
`BF16_Optimizer` (`_do_optimizer_sanity_check` returns `BFLOAT16`), and the pipeline engine
needs that optimizer for bf16 (its ZeRO optimizer path raises `NotImplementedError` in
`_exec_reduce_grads`, gpt-neox issue 963, DeepSpeed PR 4713). The BF16 optimizer keeps its
fp32 master weights and optimizer states on the GPU and has no CPU/NVMe offload: with
`offload_optimizer` the job fails at `deepspeed.initialize` or at the first optimizer step
(DeepSpeed issue 3866, "Pipeline Parallelism cannot work with BFloat16 + Optimizer
offload", still open; issue 4083, "BF16 training with FP32 gradient accumulation - Zero
Stage 1 CPU - DeepSpeedCPUAdam", fixed by PR 4084, which added `not self.zero_cpu_offload()`
to the selection after 0.10.0).

## How to fix it

Drop `offload_optimizer` (the BF16 optimizer shards its fp32 state like ZeRO-1 already), or,
outside a pipeline, drop `data_types.grad_accum_dtype: fp32` so ZeRO's own offload path is
used.

## When preflight stays silent

* bf16 is off, the ZeRO stage is not 1 (the pipeline engine refuses stage 2 and 3 on its
  own), or nothing is offloaded (`device: none`).
* The `grad_accum_dtype: fp32` form when the project declares a DeepSpeed version: from
  0.10.1 the selection skips the BF16 optimizer for offloaded configs (PR 4084), and a pin
  before that is PF385's (its table of pinned-release defects). The pipeline form is reported
  in every release (after PR 4084 the offloaded pipeline job gets the ZeRO optimizer, which
  the bf16 pipeline engine cannot use).
* `grad_accum_dtype` is `bf16` and no `PipelineModule` is built.
"""
    bad_examples = examples("preflight.rules.plan._pf175_examples", "PF175_BAD")
    good_examples = examples("preflight.rules.plan._pf175_examples", "PF175_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        configs = pctx.deepspeed_configs()
        if not configs:
            return
        pipe = None
        pipe_done = False
        for config, block, prefix in configs:
            zero = block.get("zero_optimization")
            if not _on(block, "bf16") or _on(block, "fp16") or not isinstance(zero, dict) or zero.get("stage") != 1:
                continue
            device = _offload_device(zero)
            if device is None:
                continue
            types = block.get("data_types")
            accum = types.get("grad_accum_dtype") if isinstance(types, dict) else None
            if not pipe_done:
                pipe, pipe_done = _pipeline(pctx), True
            if pipe is not None:
                script, call = pipe
                yield pctx.config_finding(
                    self, config, (*prefix, "zero_optimization", "offload_optimizer"),
                    f"the job trains a `PipelineModule` with bf16 and ZeRO stage 1, which DeepSpeed runs on its BF16 "
                    f"optimizer, and this config offloads the optimizer to {device}: the BF16 optimizer has no "
                    "optimizer offload and the pipeline engine cannot use the ZeRO optimizer for bf16, so the run "
                    "fails at initialize or at the first optimizer step (DeepSpeed issue 3866). Drop "
                    "`offload_optimizer`",
                    evidence=[pctx.code_evidence(script, call, "the pipeline model is built here")])
                continue
            if accum not in ("fp32", "float32", "float"):
                continue
            if pctx.version("deepspeed") is not None:
                continue  # a declared release: PF385's table reads it (issue 4083 before 0.10.1)
            yield pctx.config_finding(
                self, config, (*prefix, "data_types", "grad_accum_dtype"),
                f"`grad_accum_dtype: {accum}` with bf16 and ZeRO stage 1 selects DeepSpeed's BF16 optimizer, while "
                f"`offload_optimizer` puts the optimizer on {device} (ZeRO-Offload's path): the BF16 optimizer "
                "cannot offload, so `deepspeed.initialize` fails (DeepSpeed issue 4083, before 0.10.1). Drop the fp32 "
                "`grad_accum_dtype` (ZeRO-Offload keeps fp32 master weights on the CPU) or the offload",
                evidence=[pctx.config_evidence(config, (*prefix, "zero_optimization", "offload_optimizer"),
                                               f"the optimizer is offloaded to {device}")])
