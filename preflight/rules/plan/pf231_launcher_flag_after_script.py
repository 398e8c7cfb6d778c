"""PF231 launcher-flag-after-script: a launcher's own option (``--master_port``,
``--nproc_per_node``, ``--include``, ...) written after the script name goes to the script."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._launch_support import launched_script, report_at

# options only the launcher reads (normalised: -- and _), rarely a training script's own
_LAUNCHER_ONLY = {
    "deepspeed": ("__master_port", "__master_addr", "__num_gpus", "__num_nodes", "__include", "__exclude",
                  "__hostfile", "__num_accelerators", "__no_local_rank"),
    "torchrun": ("__master_port", "__master_addr", "__nproc_per_node", "__nnodes", "__node_rank",
                 "__rdzv_endpoint", "__rdzv_backend", "__rdzv_id", "__standalone", "__max_restarts"),
    "accelerate": ("__main_process_port", "__main_process_ip", "__num_processes", "__num_machines",
                   "__machine_rank", "__gpu_ids", "__multi_gpu", "__config_file"),
}
_LAUNCHER_ONLY["torch.distributed.launch"] = _LAUNCHER_ONLY["torchrun"]


@register
class LauncherFlagAfterScript(PlanRule):
    code = "PF231"
    name = "launcher-flag-after-script"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("torch", "deepspeed", "accelerate")
    summary = "A launcher option written after the script name is passed to the script, not to the launcher"
    explanation = """
## What it finds

A `deepspeed`, `torchrun` / `python -m torch.distributed.launch` or `accelerate launch`
line with one of the launcher's own options (`--master_port`, `--master_addr`,
`--num_gpus`, `--include`, `--hostfile`, `--nproc_per_node`, `--nnodes`,
`--main_process_port`, `--num_processes`, ...) after the script name, not given before it,
while the launched script never mentions that option.

## Why it matters

Each launcher hands everything after the script name to the script: deepspeed/launcher/
runner.py `parser.add_argument('user_args', nargs=argparse.REMAINDER)`, torch/distributed/
run.py `parser.add_argument("training_script_args", nargs=REMAINDER)`, accelerate's
`training_script_args` likewise. The launcher keeps its default (port 29500, every GPU,
one process), and the script either rejects the option ("unrecognized arguments") or, with
`parse_known_args`, drops it silently. Reported in deepspeedai/DeepSpeed#1656: a second job
on the same machine with `--master_port` after the script still binds 29500 and fails with
"Address already in use".

## How to fix it

Put the launcher's options before the script name:
`deepspeed --include localhost:4,5 --master_port 29501 train.py ...`.

## When preflight stays silent

* The option is also given before the script (the launcher has it).
* The launched script mentions the option's name (it defines its own `--master_port`), or
  it is not among the audited files.
* The launch runs a module (`-m`) or a plain `python` script.
"""
    bad_examples = examples("preflight.rules.plan._pf231_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf231_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        argv = pctx.project.argv
        if not argv:
            return
        from preflight.adapters.launchers import parse_launch

        info = parse_launch(argv)
        flags = _LAUNCHER_ONLY.get(info.launcher or "")
        if flags is None or info.script is None or info.module or not info.script.endswith(".py"):
            return
        script = launched_script(pctx, info.script)
        if script is None:
            return
        text = script.source.text
        for tok in info.script_args:
            if tok == "--":
                break
            if not tok.startswith("--"):
                continue
            name = tok.split("=", 1)[0].replace("-", "_")
            if name not in flags or name in info.options:
                continue
            bare = name[2:]
            if bare in text or bare.replace("_", "-") in text:
                continue
            flag = tok.split("=", 1)[0]
            message = (f"`{flag}` comes after the script name `{info.script}`, so {info.launcher} passes it to "
                       f"the script instead of reading it (everything after the script is the script's "
                       f"arguments): the launcher keeps its default for {flag}, and `{script.source.display}` "
                       f"does not define it (rejected, or dropped by parse_known_args). Move {flag} before "
                       f"the script name")
            finding = report_at(pctx, self, script, message, prefer_parse=True)
            if finding is not None:
                yield finding
            return
