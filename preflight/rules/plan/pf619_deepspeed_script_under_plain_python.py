"""PF619 deepspeed-script-under-plain-python: a DeepSpeed script started with plain ``python`` from a
batch script that allocates several GPUs per node."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._job_batch_scripts import job_shell_scripts, sbatch_gpus
from preflight.rules.plan._launch_support import launched_script

_DEEPSPEED_SETUP = ("deepspeed.initialize", "deepspeed.init_distributed")
# what starts the processes from inside the script (then `python script.py` is right)
_SELF_SPAWN = ("mp.spawn", "multiprocessing.spawn", "start_processes", "elastic_launch", "subprocess", "Popen",
               "mpi4py")


@register
class DeepspeedScriptUnderPlainPython(PlanRule):
    code = "PF619"
    name = "deepspeed-script-under-plain-python"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("deepspeed",)
    summary = ("A DeepSpeed script is started with plain python on a node allocated several GPUs: one process "
               "trains on one GPU")
    explanation = """
## What it finds

A batch script whose `#SBATCH` directives allocate more than one GPU per node
(`--gres=gpu:4`, `--gpus-per-node=4`) and that starts a script calling
`deepspeed.initialize` (or `deepspeed.init_distributed`) with plain `python train.py`,
not through `srun`, `mpirun`, `torchrun` or the `deepspeed` launcher.

## Why it matters

DeepSpeed does not start processes itself: the `deepspeed` launcher (or torchrun, or
one srun task per GPU) starts one process per GPU and sets `RANK`, `LOCAL_RANK` and
`WORLD_SIZE`. Started with `python`, the script is one process: DeepSpeed trains on one
GPU with world size 1 (the other GPUs of the allocation stay idle for its whole time),
or initialisation stops without a distributed environment. The maintainers' answer in
deepspeedai/DeepSpeed#1320: "You should use distributed launcher like `deepspeed OOO.py`
or `torch.distributed.launcher` if you use multiple GPU program".

## How to fix it

Start it with the launcher: `deepspeed --num_gpus 4 train.py ...` (or
`torchrun --nproc_per_node 4 train.py ...`, or `srun` with one task per GPU).

## When preflight stays silent

* The batch script allocates one GPU per node, or says nothing about GPUs.
* `srun` / `mpirun` wraps the python command, or the script starts its own processes
  (`mp.spawn`, `subprocess`).
* The script never calls `deepspeed.initialize` / `deepspeed.init_distributed`.
"""
    bad_examples = examples("preflight.rules.plan._pf619_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf619_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        argv = pctx.project.argv
        if not argv:
            return
        from preflight.adapters.launchers import parse_launch

        info = parse_launch(argv)
        if info.launcher != "python" or info.wrapper is not None or info.module:
            return
        script = launched_script(pctx, info.script)
        if script is None or any(word in script.source.text for word in _SELF_SPAWN):
            return
        if not any((call.qualified or "") in _DEEPSPEED_SETUP for call in pctx.index(script).calls):
            return
        for display, text in job_shell_scripts(pctx):
            gpus = sbatch_gpus(display, text)
            if gpus is None or gpus[0] <= 1:
                continue
            count, line = gpus
            message = (f"`python {info.script}` starts ONE process, but the batch script allocates {count} GPUs "
                       f"per node and the script sets up DeepSpeed: only the launcher (`deepspeed`, torchrun, or "
                       "srun with one task per GPU) starts one process per GPU and sets RANK / WORLD_SIZE, so one "
                       f"GPU trains and {count - 1} stay idle for the allocation (or initialisation stops without "
                       f"a distributed environment). Start it with `deepspeed --num_gpus {count} {info.script} ...`")
            evidence = [Evidence(line=line, path=display, message=f"{count} GPUs per node allocated")]
            if pctx.project.launch_at is not None:
                path, at = pctx.project.launch_at
                yield pctx.location_finding(self, path, at, message, evidence=evidence)
            else:
                yield pctx.location_finding(self, display, line, message)
            return
