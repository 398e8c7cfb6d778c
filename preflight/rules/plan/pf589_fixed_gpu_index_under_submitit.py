"""PF589 fixed-gpu-index-under-submitit: a config that launches each job through Hydra's submitit
launcher with N GPUs per job and names a fixed GPU index N or above (``device: 1`` with
``gpus_per_node: 1``)."""

from __future__ import annotations

import re
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_app_support import config_files

_DEVICE_KEYS = ("device", "gpu", "gpu_id", "gpu_idx", "cuda_device", "device_id")
_CUDA = re.compile(r"^cuda:(\d+)$")


def _selects_submitit(defaults: Any) -> bool:
    if not isinstance(defaults, list):
        return False
    for entry in defaults:
        for key, value in (entry.items() if isinstance(entry, dict) else []):
            if isinstance(key, str) and re.sub(r"^override\s+", "", key).strip().lstrip("/") == "hydra/launcher" \
                    and isinstance(value, str) and "submitit" in value:
                return True
    return False


def _index(value: Any) -> Optional[int]:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        found = _CUDA.match(value.strip())
        if found:
            return int(found.group(1))
    return None


@register
class FixedGpuIndexUnderSubmitit(PlanRule):
    code = "PF589"
    name = "fixed-gpu-index-under-submitit"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("hydra",)
    summary = ("A fixed GPU index (`device: 1`) in a config whose submitit launcher gives each job fewer GPUs "
               "(`gpus_per_node: 1`): \"invalid device ordinal\"")
    explanation = """
## What it finds

A config that selects Hydra's submitit launcher (`override hydra/launcher:
submitit_local`/`submitit_slurm`), gives each job `hydra.launcher.gpus_per_node` (or
`gpus_per_task`) GPUs, and sets a device key (`device`, `gpu`, `gpu_id`, ...) to a fixed
index at or above that number (`device: 1`, `device: cuda:1`), read by a script of the job.

## Why it matters

submitit starts each job with only the GPUs it was given visible: it sets
`CUDA_VISIBLE_DEVICES` to the assigned GPU(s) (submitit's local executor, and SLURM's
`--gpus-per-node`), so inside the job they are numbered from 0. Index 1 of a one-GPU job
does not exist: "CUDA error: invalid device ordinal" (hydra issue 2602), while the same
config works in a plain run on a multi-GPU machine.

## How to fix it

Use `device: 0` (or `cuda`) and let the launcher choose the physical GPU.

## When preflight stays silent

* The index is below the GPUs per job, the launcher is not submitit, or no script of the
  job mentions the key.
"""
    bad_examples = examples("preflight.rules.plan._pf589_examples", "PF589_BAD")
    good_examples = examples("preflight.rules.plan._pf589_examples", "PF589_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        configs = config_files(pctx)
        texts = [s.source.text or "" for s in pctx.scripts]
        for cfg in configs.values():
            data = cfg.data
            if not isinstance(data, dict) or not _selects_submitit(data.get("defaults")):
                continue
            hydra = data.get("hydra")
            launcher = hydra.get("launcher") if isinstance(hydra, dict) else None
            if not isinstance(launcher, dict):
                continue
            gpus = launcher.get("gpus_per_task", launcher.get("gpus_per_node"))
            if not isinstance(gpus, int) or isinstance(gpus, bool) or gpus < 1:
                continue
            for key in _DEVICE_KEYS:
                index = _index(data.get(key))
                if index is None or index < gpus:
                    continue
                if not any(re.search(rf"\.{key}\b|\[['\"]{key}['\"]\]", t) for t in texts):
                    continue
                yield pctx.config_finding(
                    self, cfg, (key,),
                    f"`{key}: {data.get(key)}` names GPU {index}, but the submitit launcher gives each job {gpus} "
                    f"GPU(s) and makes only those visible, numbered from 0: the job fails with \"CUDA error: invalid "
                    f"device ordinal\". Use `{key}: 0` and let the launcher pick the GPU")
