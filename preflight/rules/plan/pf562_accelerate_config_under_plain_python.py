"""PF562 accelerate-config-under-plain-python: a multi-process accelerate config, a plain ``python`` launch."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

# what starts the processes from inside the script (then `python script.py` is right)
_SELF_SPAWN = ("notebook_launcher", "debug_launcher", "spawn", "start_processes", "elastic_launch",
               "Popen", "subprocess")


def _count(value: object) -> int:
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return 0


@register
class AccelerateConfigUnderPlainPython(PlanRule):
    code = "PF562"
    name = "accelerate-config-under-plain-python"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("accelerate",)
    summary = "an accelerate config asks for several processes but the script is started with plain python"
    explanation = """
## What it finds

The job's accelerate config (a file from `accelerate config`, given with `--config`)
asks for more than one process (`num_processes: 4`, or `num_machines` above 1), the
script builds an `Accelerator()`, and the launch command starts the script with plain
`python script.py` (not `accelerate launch`, `torchrun`, `deepspeed`, `srun`). The script
spawns no processes of its own (`notebook_launcher`, `mp.spawn`, ...).

## Why it matters

The accelerate config file is read only by `accelerate launch`, which starts
`num_processes` processes and passes them the settings through environment variables.
`Accelerator()` in a script started with plain `python` finds no such variables and runs
one process on one GPU, without the config's mixed precision or DeepSpeed/FSDP settings:
nothing fails, the job is just N times slower than planned (and its batch size per step
N times smaller). The maintainers in huggingface/accelerate#707: "python script.py does
not handle multiple GPUs ... You need to [use] accelerate launch".

## How to fix it

`accelerate launch --config_file <config> script.py`.

## When preflight stays silent

* The launch uses a launcher, or no launch command is given.
* The config asks for one process.
* The script starts its processes itself.
"""
    bad_examples = examples("preflight.rules.plan._pf562_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf562_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        argv = pctx.project.argv
        if not argv:
            return
        from preflight.adapters.accelerate import is_accelerate_config
        from preflight.adapters.launchers import parse_launch

        info = parse_launch(argv)
        if info.launcher != "python" or info.wrapper is not None:
            return
        scripts = [s for s in pctx.scripts if any((c.qualified or "") == "accelerate.Accelerator"
                                                   for c in pctx.index(s).calls)]
        if not scripts or any(word in s.source.text for s in scripts for word in _SELF_SPAWN):
            return
        for config in pctx.configs:
            data = config.data
            if not isinstance(data, dict) or not is_accelerate_config(data):
                continue
            procs, machines = _count(data.get("num_processes")), _count(data.get("num_machines"))
            if procs <= 1 and machines <= 1:
                continue
            key = "num_processes" if procs > 1 else "num_machines"
            asked = f"{key}: {data.get(key)}"
            message = (f"the accelerate config asks for `{asked}` ({data.get('distributed_type', '?')}), "
                       f"but the launch starts `{scripts[0].source.display}` with plain python: the config is "
                       f"read only by `accelerate launch`, so Accelerator() runs ONE process on one GPU, "
                       f"without the config's settings. Launch with `accelerate launch --config_file "
                       f"{config.path} "
                       f"{scripts[0].source.display}`")
            if pctx.project.launch_at is not None:
                path, line = pctx.project.launch_at
                evidence = [Evidence(line=config.line_of((key,)) or 1, path=config.path,
                                     message=f"`{asked}`")]
                yield pctx.location_finding(self, path, line, message, evidence=evidence)
            else:
                yield pctx.config_finding(self, config, (key,), message)
            return
