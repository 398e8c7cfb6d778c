"""PF509 nvme-offload-without-path: DeepSpeed offload to NVMe with no ``nvme_path``."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples


@register
class NvmeOffloadWithoutPath(PlanRule):
    code = "PF509"
    name = "nvme-offload-without-path"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("deepspeed", "accelerate")
    summary = "ZeRO offload to NVMe is configured without an `nvme_path`"
    explanation = """
## What it finds

`zero_optimization.offload_param` or `offload_optimizer` with
`"device": "nvme"` and no `nvme_path` in a DeepSpeed config, or an accelerate
config with `offload_param_device: nvme` / `offload_optimizer_device: nvme` and
no `offload_param_nvme_path` / `offload_optimizer_nvme_path`.

## Why it matters

DeepSpeed cannot guess where to swap: it stops at start-up with
`AssertionError: "nvme_path" in DeepSpeed Config cannot be None if remote
device is nvme` (DeepSpeed issue 2624; accelerate issue 1463), after the job
waited for its GPUs.

## How to fix it

Add `"nvme_path": "/local_nvme"` (a fast local NVMe mount) beside the device,
or offload to `"cpu"`.

## When preflight stays silent

* A path is given, or the device is `cpu` / `none`.
"""
    bad_examples = examples("preflight.rules.plan._pf509_examples", "PF509_BAD")
    good_examples = examples("preflight.rules.plan._pf509_examples", "PF509_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for config, block, prefix in pctx.deepspeed_configs():
            zero = block.get("zero_optimization")
            if not isinstance(zero, dict):
                continue
            for part in ("offload_param", "offload_optimizer"):
                node = zero.get(part)
                if isinstance(node, dict) and node.get("device") == "nvme" and not node.get("nvme_path"):
                    yield pctx.config_finding(
                        self, config, (*prefix, "zero_optimization", part, "device"),
                        f"`{part}` swaps to NVMe but no `nvme_path` says where: DeepSpeed asserts "
                        "\"nvme_path ... cannot be None if remote device is nvme\" at start-up. Add "
                        "`\"nvme_path\": \"/local_nvme\"` (a local NVMe mount) or offload to \"cpu\"")
        for config in pctx.configs:
            ds = config.data.get("deepspeed_config") if isinstance(config.data, dict) else None
            if not isinstance(ds, dict) or "deepspeed_config_file" in ds:
                continue
            for part in ("param", "optimizer"):
                if ds.get(f"offload_{part}_device") == "nvme" and not ds.get(f"offload_{part}_nvme_path"):
                    yield pctx.config_finding(
                        self, config, ("deepspeed_config", f"offload_{part}_device"),
                        f"`offload_{part}_device: nvme` without `offload_{part}_nvme_path`: DeepSpeed has no "
                        "folder to swap to and stops at start-up. Add the path of a local NVMe mount")
