"""PF688 deepspeed-include-physical-gpu-ids: ``deepspeed --include localhost:$CUDA_VISIBLE_DEVICES`` in a
SLURM job: the launcher numbers the GPUs it sees from 0, so the physical ids of the allocation name slots it
does not have."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._launch_support import launched_script, report_at
from preflight.sources import read_text_limited

# the variables a scheduler fills with the physical ids of the GPUs it allocated
_ID_VARS = ("CUDA_VISIBLE_DEVICES", "SLURM_JOB_GPUS", "SLURM_STEP_GPUS", "GPU_DEVICE_ORDINAL")
_SHELL_SUFFIXES = (".sh", ".slurm", ".sbatch", ".bash")
_REF = re.compile(r"\$\{?(" + "|".join(_ID_VARS) + r")\}?")


def _launch_text(pctx: PlanContext) -> str:
    """The launch script the job was read from; else the top-level shell scripts of the project that run
    the deepspeed launcher (joined)."""
    root = pctx.project.root
    at = pctx.project.launch_at
    paths = [Path(at[0]) if Path(at[0]).is_absolute() else root / at[0]] if at is not None else [
        root / name for name in sorted(os.listdir(root)) if name.endswith(_SHELL_SUFFIXES)] \
        if os.path.isdir(root) else []
    texts = []
    for path in paths:
        if not os.path.isfile(path) or not pctx.project.may_read(path):
            continue
        try:
            text = read_text_limited(path, errors="replace")
        except OSError:  # InputRefused is an OSError
            continue
        if at is not None or "deepspeed" in text:
            texts.append(text)
    return "\n".join(texts)


def _assigned(text: str, var: str) -> bool:
    """The launch script sets the variable itself (``CUDA_VISIBLE_DEVICES=0,1``, ``export ...=``)."""
    return re.search(r"^\s*(?:export\s+)?" + var + r"=", text, re.M) is not None


@register
class DeepspeedIncludePhysicalGpuIds(PlanRule):
    code = "PF688"
    name = "deepspeed-include-physical-gpu-ids"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("deepspeed",)
    summary = ("`deepspeed --include localhost:$CUDA_VISIBLE_DEVICES` under SLURM: the launcher numbers the visible GPUs from 0, so the physical ids name slots it "
               "does not have")
    explanation = """
## What it finds

A `deepspeed` launch line whose `--include` (`-i`) list is the scheduler's device
variable (`--include localhost:$CUDA_VISIBLE_DEVICES`, `$SLURM_JOB_GPUS`,
`$SLURM_STEP_GPUS`) in a SLURM batch script that does not set the variable itself.

## Why it matters

The launcher builds its resource pool from the GPUs it can see (`torch.cuda.device_count()`
in the launcher process), numbered 0..K-1, and `--include` selects slots of that pool.
Inside a SLURM allocation of GPUs 4 and 5 (`CUDA_VISIBLE_DEVICES=4,5`) the launcher sees two
GPUs, slots 0 and 1, so `--include localhost:4,5` names slots that do not exist and it stops
in `parse_inclusion_exclusion` before starting any worker ("No slot '4' specified on host
'localhost'"; DeepSpeed issue 1331). It works only on the allocations that happen to be
GPUs 0..K-1, so the job fails on some nodes and not others.

## How to fix it

Let the launcher use what the allocation makes visible: `deepspeed --num_gpus K` (or no
resource flag at all), not the physical ids.

## When preflight stays silent

* The launch script sets the variable itself (a literal list it chose: what the launcher
  sees then depends on whether it is exported, which PF545 covers for bare launches).
* The script is not a SLURM batch script (the caller's environment is unknown).
* The include list is literal ids (`--include localhost:0,1`).
"""
    bad_examples = examples("preflight.rules.plan._pf688_examples", "PF688_BAD")
    good_examples = examples("preflight.rules.plan._pf688_examples", "PF688_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        argv = pctx.project.argv
        if not argv:
            return
        from preflight.adapters.launchers import parse_launch

        info = parse_launch(argv)
        if info.launcher != "deepspeed":
            return
        include = info.options.get("__include", info.options.get("-i"))
        if not include:
            return
        text = _launch_text(pctx)
        ref = _REF.search(include)
        if ref is None or "#SBATCH" not in text or _assigned(text, ref.group(1)):
            return
        message = (f"`--include {include}` hands the launcher the physical ids of the SLURM allocation, but "
                   "the launcher numbers the GPUs it can see from 0: on an allocation that is not GPUs 0..K-1 "
                   "(CUDA_VISIBLE_DEVICES=4,5) the included slots do not exist and it stops in "
                   "parse_inclusion_exclusion before any worker starts (\"No slot '4' specified on host "
                   "'localhost'\"). Use `--num_gpus K`, or no resource flag")
        finding = report_at(pctx, self, launched_script(pctx, info.script), message)
        if finding is not None:
            yield finding
