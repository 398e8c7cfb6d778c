"""PF399 accelerate-processes-without-multi-gpu: ``accelerate launch --num_processes N`` (N > 1) with
no ``--multi_gpu`` and no config file on a pinned accelerate before 0.20, which starts one process."""

from __future__ import annotations

from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._job_batch_scripts import job_shell_scripts, sbatch_gpus
from preflight.rules.plan._launch_support import launched_script, report_at
from preflight.rules.plan._pinned_release import pinned_version, released_between
from preflight.rules.plan._visible_devices import visible_device_count

# flags that choose the distributed mode themselves (then the launcher does not fall back to one process)
_MODE_FLAGS = ("__multi_gpu", "__config_file", "__use_deepspeed", "__use_fsdp", "__use_megatron_lm", "__tpu",
               "__cpu", "__use_cpu", "__mps", "__use_mps_device", "__num_machines", "__gpu_ids")


def _processes(value: Optional[str]) -> Optional[int]:
    if value is None or not value.strip().isdigit():
        return None
    return int(value)


@register
class AccelerateProcessesWithoutMultiGpu(PlanRule):
    code = "PF399"
    name = "accelerate-processes-without-multi-gpu"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("accelerate",)
    summary = ("accelerate < 0.20: `accelerate launch --num_processes N` without --multi_gpu or a config file "
               "starts one process")
    explanation = """
## What it finds

`accelerate launch --num_processes N train.py` with N above 1 and none of `--multi_gpu`,
`--config_file`, `--use_deepspeed`, `--use_fsdp`, `--gpu_ids`, `--num_machines`, in a project
that pins an accelerate release before 0.20 (`accelerate==0.19.0` in requirements.txt), when the
job shows several GPUs (`#SBATCH --gres=gpu:4`, or `CUDA_VISIBLE_DEVICES=0,1,2,3` on the launch line).

## Why it matters

Before accelerate 0.20, `accelerate launch` switched to multi-GPU on its own only when
`--num_processes` was *not* given (it then counted the GPUs); with an explicit
`--num_processes` and no `--multi_gpu` it ran the script through its simple launcher: one
process on one GPU, while the other GPUs of the allocation stay idle for the whole run.
huggingface/accelerate#1452 ("Auto multigpu logic", in 0.20.0) moved the check so that
`--num_processes` above 1 on a machine with several GPUs turns multi-GPU on.

## How to fix it

Add `--multi_gpu` (or launch with a config file from `accelerate config`), or upgrade
accelerate to 0.20 or later.

## When preflight stays silent

* accelerate is not pinned, or pinned to 0.20 or later (the launcher infers multi-GPU).
* The launch names a mode (`--multi_gpu`, `--use_deepspeed`, `--use_fsdp`), a config file,
  `--gpu_ids` or `--num_machines`, or `--num_processes` is 1 or not a literal.
* The job shows no GPUs beyond one (no `#SBATCH` request for several GPUs per node, no
  `CUDA_VISIBLE_DEVICES` listing several on the launch line): the process count alone may be a
  template's default, and the idle GPUs are not in view.
* A default config saved by `accelerate config` in the user's home can still choose
  multi-GPU; preflight cannot see it, which is why this is a warning.
"""
    bad_examples = examples("preflight.rules.plan._pf399_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf399_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        argv = pctx.project.argv
        if not argv:
            return
        from preflight.adapters.launchers import parse_launch

        info = parse_launch(argv)
        if info.launcher != "accelerate" or info.module or any(flag in info.options for flag in _MODE_FLAGS):
            return
        count = _processes(info.options.get("__num_processes"))
        if count is None or count <= 1:
            return
        script = launched_script(pctx, info.script)
        found = None
        for candidate in ([script] if script is not None else pctx.scripts):
            found = pinned_version(pctx, "accelerate", candidate)
            if found is not None:
                break
        if found is None or not released_between(found, (0, 0), (0, 20)):
            return
        evidence = self._gpus(pctx, info)
        if evidence is None:
            return
        message = (f"`accelerate launch --num_processes {count}` has no --multi_gpu and no --config_file, and "
                   f"the project pins {found.describe()}: before 0.20 the launcher inferred multi-GPU only when "
                   "--num_processes was not given, so this starts ONE process on one GPU and the other GPUs stay "
                   "idle for the whole run (huggingface/accelerate#1452). Add --multi_gpu, or upgrade accelerate")
        finding = report_at(pctx, self, script, message, evidence=evidence)
        if finding is not None:
            yield finding

    @staticmethod
    def _gpus(pctx: PlanContext, info: Any) -> Optional[list[Evidence]]:
        """Where the job shows several GPUs: ``#SBATCH`` GPUs per node above 1, or a launch-line
        ``CUDA_VISIBLE_DEVICES`` listing more than one device."""
        for display, text in job_shell_scripts(pctx):
            gpus = sbatch_gpus(display, text)
            if gpus is not None and gpus[0] > 1:
                return [Evidence(line=gpus[1], path=display, message=f"{gpus[0]} GPUs allocated per node")]
        visible = visible_device_count(info.env.get("CUDA_VISIBLE_DEVICES", ""))
        if visible is not None and visible > 1:
            return []  # on the launch line the finding points at
        return None
