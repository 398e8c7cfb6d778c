"""PF559 parallel-sweep-jobs-on-one-gpu: Hydra's joblib launcher runs sweep jobs side by side and every job
puts its model on the default GPU."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_app_support import config_chain, hydra_main_apps, lookup
from preflight.rules.plan._hydra_sweeps import group_choices, is_sweep, yaml_configs

# what picks a GPU per job (or hands the choice to something that does)
_PER_JOB = ("job.num", "CUDA_VISIBLE_DEVICES", "device_count", "LOCAL_RANK", "local_rank", "set_device",
            "HydraConfig", "gpu_id", "cuda:{", "device_id", "Trainer(", "Accelerator(", "num_gpus", "gpus")


def _default_gpu(node: ast.AST) -> bool:
    """``torch.device("cuda")``, ``"cuda:0"``, ``x.cuda()``, ``x.to("cuda")``."""
    if isinstance(node, ast.Constant) and node.value in ("cuda", "cuda:0"):
        return True
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "cuda" \
        and not node.args


def _config_default_gpu(node: ast.AST, root: str, config: object) -> bool:
    """``torch.device(cfg.device)`` / ``x.to(cfg.device)`` where the composed config's value is ``cuda``/``cuda:0``
    (a value built from ``${hydra:job.num}`` is a GPU per job, not this)."""
    if not (isinstance(node, ast.Call) and len(node.args) == 1 and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("device", "to")):
        return False
    path = config_chain(node.args[0], root)
    return path is not None and lookup(config, path) in ("cuda", "cuda:0")


def _config_sweep(pctx: PlanContext) -> bool:
    """The config itself sweeps: a non-empty ``hydra.sweeper.params`` (Hydra 1.2+), which ``--multirun`` runs."""
    for cfg in yaml_configs(pctx):
        hydra = cfg.data.get("hydra") if isinstance(cfg.data, dict) else None
        sweeper = hydra.get("sweeper") if isinstance(hydra, dict) else None
        params = sweeper.get("params") if isinstance(sweeper, dict) else None
        if isinstance(params, dict) and params:
            return True
    return False


def _jobs(pctx: PlanContext) -> Optional[int]:
    """The joblib launcher's n_jobs (-1, its default, when not set), or None without the joblib launcher."""
    argv = [tok.replace(" ", "") for tok in pctx.project.argv]
    chosen = any(tok.endswith("hydra/launcher=joblib") for tok in argv)
    jobs: Optional[int] = None
    for cfg in yaml_configs(pctx):
        data = cfg.data
        if not isinstance(data, dict):
            continue
        if "joblib" in group_choices(data.get("defaults"), "hydra/launcher"):
            chosen = True
        hydra = data.get("hydra")
        launcher = hydra.get("launcher") if isinstance(hydra, dict) else None
        value = launcher.get("n_jobs") if isinstance(launcher, dict) else None
        if isinstance(value, int) and not isinstance(value, bool):
            jobs = value
    for tok in argv:
        value_text = tok.split("=", 1)[1] if tok.startswith("hydra.launcher.n_jobs=") else ""
        if value_text.lstrip("-").isdigit():
            jobs = int(value_text)
    if not chosen:
        return None
    return -1 if jobs is None else jobs


@register
class ParallelSweepJobsOnOneGpu(PlanRule):
    code = "PF559"
    name = "parallel-sweep-jobs-on-one-gpu"
    severity = Severity.WARNING
    category = Category.PERFORMANCE
    frameworks = ("hydra",)
    summary = "Parallel jobs of a Hydra sweep (joblib launcher) all put their model on the default GPU"
    explanation = """
## What it finds

A `--multirun` sweep (values on the launch line, or the config's `hydra.sweeper.params`)
launched with Hydra's joblib launcher (`override hydra/launcher: joblib`) running more
than one job at a time (`n_jobs` > 1, or not set: the plugin's default is -1, one job per
CPU), whose `@hydra.main` function puts the model on the default GPU
(`torch.device("cuda")`, `"cuda:0"`, `.cuda()`, or `torch.device(cfg.device)` with
`device: cuda` in the composed config) and never picks a GPU per job
(`HydraConfig.get().job.num`, `cuda:${hydra:job.num}`, `CUDA_VISIBLE_DEVICES`,
`torch.cuda.set_device`, ...).

## Why it matters

The joblib launcher runs the jobs as worker processes of one machine
(hydra_joblib_launcher `JoblibLauncherConf`: `n_jobs: int = -1`, backend loky). Every
process sees every GPU and `"cuda"` is device 0 in each, so the parallel runs share the
first GPU (its memory and its time) while the others stay idle; larger batches then
fail with out-of-memory (hydra issue 1331).

## How to fix it

Choose a GPU per job, for example `torch.device(f"cuda:{HydraConfig.get().job.num %
torch.cuda.device_count()}")`, or use a launcher that places jobs (the submitit/SLURM
launcher with `gpus_per_task`), or run one job at a time (`hydra.launcher.n_jobs: 1`).

## When preflight stays silent

* The joblib launcher is not selected, `n_jobs` is 1, or neither the launch nor the config's
  `hydra.sweeper.params` sweeps anything.
* The file picks devices per job or hands devices to a trainer that places them.
"""
    bad_examples = examples("preflight.rules.plan._pf555_examples", "PF559_BAD")
    good_examples = examples("preflight.rules.plan._pf555_examples", "PF559_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        project = pctx.project
        argv = list(project.argv)
        if not any(tok == "-m" or (tok.startswith("--m") and "--multirun".startswith(tok)) for tok in argv):
            return
        jobs = _jobs(pctx)
        if jobs is None or jobs in (0, 1):
            return
        for comp, script, fn in hydra_main_apps(project):
            if not (is_sweep(project.script_args(script)) or _config_sweep(pctx)):
                continue
            text = script.text if script.text is not None else script.source.text
            if any(word in text for word in _PER_JOB):
                continue
            root = fn.args.args[0].arg
            node = next((n for n in ast.walk(fn) if _default_gpu(n) or _config_default_gpu(n, root, comp.config)),
                        None)
            if node is None:
                continue
            shown = "all CPUs (the plugin's default n_jobs -1)" if jobs < 0 else str(jobs)
            evidence = []
            if project.launch_at is not None:
                where, line = project.launch_at
                evidence.append(Evidence(line=line, path=where, message="the sweep"))
            yield pctx.code_finding(
                self, script, node,
                f"the joblib launcher runs {shown} jobs of this sweep at a time on one machine, and each job puts "
                "its model on the default GPU here: every parallel run lands on GPU 0 (shared memory and time) "
                "while the other GPUs stay idle. Pick a GPU per job (`HydraConfig.get().job.num % "
                "torch.cuda.device_count()`), or run one job at a time (`hydra.launcher.n_jobs: 1`)",
                evidence=evidence or None)
