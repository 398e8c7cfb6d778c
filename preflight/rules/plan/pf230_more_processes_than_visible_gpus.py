"""PF230 more-processes-than-visible-gpus: the launch line's ``CUDA_VISIBLE_DEVICES`` lists
fewer devices than the launcher starts processes on each node."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._launch_support import launched_script, report_at
from preflight.rules.plan._visible_devices import visible_device_count

_LAUNCHERS = ("torchrun", "torch.distributed.launch", "accelerate")


@register
class MoreProcessesThanVisibleGpus(PlanRule):
    code = "PF230"
    name = "more-processes-than-visible-gpus"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("torch", "accelerate")
    summary = "The launch line makes K GPUs visible but starts more than K processes per node"
    explanation = """
## What it finds

A `torchrun` / `python -m torch.distributed.launch` / `accelerate launch` line that sets
`CUDA_VISIBLE_DEVICES` to a literal list of K devices and asks for more than K processes
per node (`--nproc_per_node`, or accelerate's `--num_processes` on one machine).

## Why it matters

The launcher does not look at `CUDA_VISIBLE_DEVICES`: torchrun starts `--nproc_per_node`
workers and hands each its `LOCAL_RANK` (torch/distributed/run.py), and the processes see
only the K listed devices, renumbered 0..K-1. Local ranks K and above call
`torch.cuda.set_device(local_rank)` (or `cuda:<local_rank>`) on an ordinal that does not
exist and die with "invalid device ordinal"; if they all share cuda:0 instead, NCCL stops
on "Duplicate GPU detected". Reported in wenwenyu/PICK-pytorch#14 (`CUDA_VISIBLE_DEVICES=1,2`
with `--nproc_per_node=4`).

## How to fix it

Start as many processes per node as there are visible devices
(`CUDA_VISIBLE_DEVICES=1,2 torchrun --nproc_per_node=2 ...`), or list more devices.

## When preflight stays silent

* The process count is not a literal (`--nproc_per_node gpu`, `auto`, `$NGPU`), or the
  device list is a shell variable.
* `accelerate launch --gpu_ids ...` (accelerate sets the visible devices itself), or a
  launcher that picks devices itself (the deepspeed launcher: see PF545).
* The process count per node is at most the number of listed devices.
"""
    bad_examples = examples("preflight.rules.plan._pf230_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf230_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        argv = pctx.project.argv
        if not argv or not any("CUDA_VISIBLE_DEVICES" in tok for tok in argv):
            return
        from preflight.adapters.launchers import parse_launch

        info = parse_launch(argv)
        if info.launcher not in _LAUNCHERS or "CUDA_VISIBLE_DEVICES" not in info.env:
            return
        if info.launcher == "accelerate" and info.options.get("__gpu_ids"):
            return
        visible = visible_device_count(info.env["CUDA_VISIBLE_DEVICES"])
        per_node = info.procs_per_node
        if visible is None or per_node is None or per_node <= visible:
            return
        flag = "--num_processes" if info.launcher == "accelerate" else "--nproc_per_node"
        value = info.env["CUDA_VISIBLE_DEVICES"]
        message = (f"the launch line makes {visible} GPU(s) visible (CUDA_VISIBLE_DEVICES={value}) but "
                   f"{info.launcher} starts {per_node} processes per node ({flag} {per_node}): the launcher does "
                   f"not read CUDA_VISIBLE_DEVICES, so local ranks {visible}..{per_node - 1} ask for CUDA "
                   f"devices that do not exist (\"invalid device ordinal\"). Use {flag} {visible}, or list "
                   f"{per_node} devices")
        finding = report_at(pctx, self, launched_script(pctx, info.script), message)
        if finding is not None:
            yield finding
