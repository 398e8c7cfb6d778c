"""PF689 accelerate-config-processes-over-visible-gpus: an accelerate config file whose
``num_processes`` is larger than the GPUs the launch script makes visible."""

from __future__ import annotations

import os
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._visible_devices import visible_device_count


def _count(value: Any) -> Optional[int]:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _named_config(pctx: PlanContext, names: list[str]) -> Optional[Any]:
    """The loaded accelerate config the launch line names with ``--config_file``."""
    from preflight.adapters.accelerate import is_accelerate_config

    wanted = {os.path.normpath(n).replace("\\", "/") for n in names}
    for config in pctx.configs:
        display = os.path.normpath(str(config.path)).replace("\\", "/")
        if not isinstance(config.data, dict) or not is_accelerate_config(config.data):
            continue
        if any(display == w or display.endswith("/" + w.lstrip("./")) for w in wanted):
            return config
    return None


@register
class AccelerateConfigProcessesOverVisibleGpus(PlanRule):
    code = "PF689"
    name = "accelerate-config-processes-over-visible-gpus"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("accelerate",)
    summary = ("the accelerate config file asks for more processes than the GPUs the launch makes visible: "
               "the extra ranks fail with \"invalid device ordinal\"")
    explanation = """
## What it finds

`accelerate launch --config_file cfg.yaml train.py` where the launch line (or an `export`
of the launch script) sets `CUDA_VISIBLE_DEVICES` to a literal list of K devices and the
config file says `num_processes: N` with N > K on one machine (`num_machines` 1 or
absent), and neither the line nor the file chooses the devices itself (`--gpu_ids`,
`gpu_ids:`).

## Why it matters

`accelerate launch` starts `num_processes` processes and does not compare that count with
the visible devices. Each process selects the GPU numbered by its local rank
(`PartialState` -> `torch.cuda.set_device(local_rank)`), so ranks K..N-1 fail in
`Accelerator()` with "RuntimeError: CUDA error: invalid device ordinal" (ChatGLM-finetune-LoRA
issue 16: a config for four processes on a machine where two GPUs are visible). The
config file was usually written by `accelerate config` on another machine.

## How to fix it

Set `num_processes` to the number of visible GPUs (or pass `--num_processes K` on the
launch line), or make more devices visible.

## When preflight stays silent

* `--num_processes` is on the launch line (PF230 compares that with the devices), or the
  launch line names no `--config_file` (the default config lives outside the project).
* `CUDA_VISIBLE_DEVICES` is not a literal list, or the line/config gives `gpu_ids`.
* `num_machines` is more than 1 (the count is over all machines), or `num_processes` is
  at most the number of visible devices.
"""
    bad_examples = examples("preflight.rules.plan._pf689_examples", "PF689_BAD")
    good_examples = examples("preflight.rules.plan._pf689_examples", "PF689_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        argv = pctx.project.argv
        if not argv or not any("CUDA_VISIBLE_DEVICES" in tok for tok in argv):
            return
        from preflight.adapters.launchers import parse_launch

        info = parse_launch(argv)
        if info.launcher != "accelerate" or "CUDA_VISIBLE_DEVICES" not in info.env:
            return
        opts = info.options
        if any(k in opts for k in ("__num_processes", "__gpu_ids", "__num_machines")) or not info.config_files:
            return
        visible = visible_device_count(info.env["CUDA_VISIBLE_DEVICES"])
        config = _named_config(pctx, info.config_files)
        if visible is None or config is None:
            return
        data = config.data
        procs = _count(data.get("num_processes"))
        machines = data.get("num_machines", 1)
        gpu_ids = data.get("gpu_ids")
        if procs is None or procs <= visible or machines not in (1, None) or data.get("use_cpu") is True:
            return
        if gpu_ids is not None and str(gpu_ids).strip().lower() not in ("", "all"):
            return
        value = info.env["CUDA_VISIBLE_DEVICES"]
        finding = pctx.config_finding(
            self, config, ["num_processes"],
            f"num_processes: {procs} starts {procs} processes on one machine, but the launch makes {visible} "
            f"GPU(s) visible (CUDA_VISIBLE_DEVICES={value}): each process selects the GPU of its local rank, so "
            f"ranks {visible}..{procs - 1} fail in Accelerator() with \"CUDA error: invalid device ordinal\". "
            f"Set num_processes: {visible} (or pass --num_processes {visible})")
        if finding is not None:
            yield finding
