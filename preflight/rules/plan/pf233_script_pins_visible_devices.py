"""PF233 script-pins-visible-devices: the launched script sets ``CUDA_VISIBLE_DEVICES`` to
fewer devices than the launcher starts processes on each node."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._launch_support import launched_script
from preflight.rules.plan._visible_devices import visible_device_count

_LAUNCHERS = ("torchrun", "torch.distributed.launch", "accelerate", "deepspeed")


def _pinned(tree: ast.Module) -> Optional[tuple[ast.stmt, str]]:
    """A module-level ``os.environ["CUDA_VISIBLE_DEVICES"] = "<literal>"`` (or ``setdefault``
    is not counted: it keeps the launcher's value)."""
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, ast.Subscript) and ast.unparse(target.value) in ("os.environ", "environ") \
                    and isinstance(target.slice, ast.Constant) and target.slice.value == "CUDA_VISIBLE_DEVICES" \
                    and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
                return stmt, stmt.value.value
    return None


@register
class ScriptPinsVisibleDevices(PlanRule):
    code = "PF233"
    name = "script-pins-visible-devices"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("torch", "accelerate", "deepspeed")
    summary = "The script sets CUDA_VISIBLE_DEVICES to fewer GPUs than the launcher starts processes per node"
    explanation = """
## What it finds

A script that assigns a literal `os.environ["CUDA_VISIBLE_DEVICES"] = "0"` at module level
and is started by a multi-process launcher (`torchrun`, `torch.distributed.launch`,
`accelerate launch`, `deepspeed`) that starts more processes per node than the listed
devices; or by `accelerate launch` with neither `--num_processes` nor `--config_file`,
which starts one process per GPU of the machine when no accelerate config was saved.

## Why it matters

The assignment runs in every process before CUDA starts, so every rank sees only the
listed device(s), renumbered from 0. Local ranks past the list call
`torch.cuda.set_device(local_rank)` on an ordinal that does not exist ("invalid device
ordinal"), or all ranks share one GPU. Reported in nnaisense/bayesian-flow-networks#1
(a single-GPU script pinning GPU 0, started with `accelerate launch` on an 8-GPU machine).

## How to fix it

Choose the devices on the launch line (`CUDA_VISIBLE_DEVICES=0 accelerate launch
--num_processes=1 train.py`) and delete the assignment, or start one process per listed device.

## When preflight stays silent

* The value is not a literal, is set with `setdefault`, or inside a function or branch.
* The launcher's process count per node is known and at most the number of listed devices,
  or `accelerate launch` names `--num_processes` / `--config_file` without a count above it.
* The job is started with plain `python`.
"""
    bad_examples = examples("preflight.rules.plan._pf233_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf233_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        argv = pctx.project.argv
        if not argv:
            return
        from preflight.adapters.launchers import parse_launch

        info = parse_launch(argv)
        if info.launcher not in _LAUNCHERS or info.module:
            return
        script = launched_script(pctx, info.script)
        if script is None:
            return
        pinned = _pinned(script.tree)
        if pinned is None:
            return
        stmt, value = pinned
        visible = visible_device_count(value)
        if visible is None:
            return
        per_node = info.procs_per_node
        if per_node is not None:
            if per_node <= visible:
                return
            how = f"{info.launcher} starts {per_node} processes per node"
        elif info.launcher == "accelerate" and not any(
                k in info.options for k in ("__num_processes", "__config_file")):
            how = ("`accelerate launch` without --num_processes or --config_file starts one process per GPU of "
                   "the machine when no accelerate config was saved")
        else:
            return
        message = (f"the script sets CUDA_VISIBLE_DEVICES={value} for every process ({visible} device(s)), but "
                   f"{how}: each rank then sees only {value}, and local ranks past it ask for CUDA devices that "
                   "do not exist (\"invalid device ordinal\") or share one GPU. Choose the devices on the launch "
                   "line and start one process per device (e.g. `--num_processes=1`)")
        evidence = []
        if pctx.project.launch_at is not None:
            path, line = pctx.project.launch_at
            evidence.append(Evidence(line=line, path=path, message="the multi-process launch"))
        yield pctx.location_finding(self, script.source.display, stmt.lineno, message, evidence=evidence)
