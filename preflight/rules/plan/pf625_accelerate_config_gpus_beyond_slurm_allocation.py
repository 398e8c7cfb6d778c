"""PF625 accelerate-config-gpus-beyond-slurm-allocation: an accelerate config file whose ``gpu_ids`` or
``num_processes`` reach past the GPUs the SLURM batch script allocates on the node."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.sources import read_text_limited

_SHELL_SUFFIXES = (".sh", ".slurm", ".sbatch", ".bash")


def _allocation(pctx: PlanContext) -> Optional[tuple[str, int, int]]:
    """(batch script display path, directive line, GPUs per node) of the job's SLURM batch script (the launch
    script the job was read from, else the one top-level shell script that runs ``accelerate``), on one node."""
    from preflight.gate.slurm import parse_sbatch

    root = pctx.project.root
    at = pctx.project.launch_at
    if at is not None:
        candidates = [(at[0], Path(at[0]) if Path(at[0]).is_absolute() else root / at[0])]
    else:
        try:
            names = sorted(os.listdir(root))
        except OSError:
            return None
        candidates = [(n, root / n) for n in names if n.endswith(_SHELL_SUFFIXES)]
    found = []
    for display, path in candidates:
        if not os.path.isfile(path) or not pctx.project.may_read(path):
            continue
        try:
            text = read_text_limited(path, errors="replace")
        except OSError:  # InputRefused is an OSError
            continue
        if "#SBATCH" not in text or "accelerate" not in text:
            continue
        job = parse_sbatch(text, display)
        request = job.gpus()
        option = request.option
        if job.nodes()[0] != 1 or request.per_node is None or request.per_node < 1 or option is None \
                or option.origin != "directive" or option.line is None:
            continue
        found.append((display, option.line, request.per_node))
    return found[0] if len(found) == 1 else None


def _named_config(pctx: PlanContext, names: list[str]) -> Optional[Any]:
    from preflight.adapters.accelerate import is_accelerate_config

    wanted = {os.path.normpath(n).replace("\\", "/") for n in names}
    for config in pctx.configs:
        display = os.path.normpath(str(config.path)).replace("\\", "/")
        if isinstance(config.data, dict) and is_accelerate_config(config.data) and any(
                display == w or display.endswith("/" + w.lstrip("./")) for w in wanted):
            return config
    return None


def _ids(value: Any) -> Optional[list[int]]:
    """``gpu_ids: 0,1,2`` (a string or a list of integers) as integers; None for ``all`` or anything else."""
    items = value if isinstance(value, list) else str(value).split(",") if isinstance(value, (str, int)) else None
    if items is None or isinstance(value, bool):
        return None
    out = []
    for item in items:
        text = str(item).strip()
        if not text.isdigit():
            return None
        out.append(int(text))
    return out or None


@register
class AccelerateConfigGpusBeyondSlurmAllocation(PlanRule):
    code = "PF625"
    name = "accelerate-config-gpus-beyond-slurm-allocation"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("accelerate",)
    summary = ("the accelerate config's `gpu_ids`/`num_processes` describe more GPUs than the SLURM job "
               "allocates (`--gres=gpu:N`): accelerate replaces the allocation's device list and reaches other "
               "jobs' GPUs, or ranks fail")
    explanation = """
## What it finds

A SLURM batch script on one node that requests N GPUs (`#SBATCH --gres=gpu:N`,
`--gpus-per-node=N`, ...) and runs `accelerate launch --config_file cfg.yaml`, where
the config (one machine) lists `gpu_ids` outside 0..N-1 or more than N of them, or, with
`gpu_ids: all` or none, asks for `num_processes` above N; the launch line gives neither
`--num_processes` nor `--gpu_ids`.

## Why it matters

SLURM hands the job its GPUs through `CUDA_VISIBLE_DEVICES`. `accelerate launch` with
a config written on a full node sets `CUDA_VISIBLE_DEVICES` from the config's `gpu_ids`
itself, replacing the allocation's list, and starts `num_processes` processes: the job
runs on GPUs that belong to other users' jobs (where the cgroup does not fence them) or
its extra ranks fail with "invalid device ordinal" (accelerate issue 1643: `--gres=gpu:3`
with a config of `gpu_ids: 0,...,7` and 8 processes).

## How to fix it

Make the config follow the allocation (`gpu_ids: all`, `num_processes: N`), or pass
`--num_processes N` on the launch line.

## When preflight stays silent

* The launch line gives `--num_processes` or `--gpu_ids`, or names no `--config_file`
  (the default config lives outside the project).
* The batch script asks for several nodes, or its GPU count is not a literal directive.
* The config says `num_machines` above 1, `use_cpu: true`, or stays within the allocation.
"""
    bad_examples = examples("preflight.rules.plan._pf625_examples", "PF625_BAD")
    good_examples = examples("preflight.rules.plan._pf625_examples", "PF625_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        argv = pctx.project.argv
        if not argv or "accelerate" not in " ".join(argv):
            return
        from preflight.adapters.launchers import parse_launch

        info = parse_launch(argv)
        if info.launcher != "accelerate" or not info.config_files:
            return
        if any(k in info.options for k in ("__num_processes", "__gpu_ids", "__num_machines")):
            return
        config = _named_config(pctx, info.config_files)
        if config is None:
            return
        data = config.data
        if data.get("num_machines", 1) not in (1, None) or data.get("use_cpu") is True:
            return
        allocation = _allocation(pctx)
        if allocation is None:
            return
        script, line, count = allocation
        procs = data.get("num_processes")
        procs = procs if isinstance(procs, int) and not isinstance(procs, bool) else None
        ids = _ids(data["gpu_ids"]) if data.get("gpu_ids") is not None else None
        where = f"--gres/GPU request at {script}:{line}"
        evidence = [Evidence(line=line, path=script, message=f"the SLURM job allocates {count} GPU(s) on the node")]
        if ids is not None and (len(ids) > count or max(ids) >= count):
            listed = ",".join(str(i) for i in ids)
            yield pctx.config_finding(
                self, config, ["gpu_ids"],
                f"gpu_ids: {listed} names {len(ids)} GPU(s), but the SLURM job allocates {count} ({where}): "
                f"accelerate sets CUDA_VISIBLE_DEVICES from gpu_ids, replacing the allocation's own list, so the "
                f"processes run on GPUs outside the allocation (other jobs' devices) or fail. Use gpu_ids: all "
                f"and num_processes: {count}", evidence=evidence)
            return
        if ids is None and procs is not None and procs > count:
            yield pctx.config_finding(
                self, config, ["num_processes"],
                f"num_processes: {procs} on one machine, but the SLURM job allocates {count} GPU(s) ({where}): "
                f"ranks {count}..{procs - 1} have no GPU of their own (\"invalid device ordinal\"). Set "
                f"num_processes: {count} (or pass --num_processes {count})", evidence=evidence)
