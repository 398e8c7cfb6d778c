"""PF595 hydra-now-run-dir-per-process: a ``${now:...}`` run folder in an app that a launcher starts
once per GPU: every process resolves its own timestamp."""

from __future__ import annotations

import os
import re
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_apps import hydra_main_apps, partial_hydra_main_apps
from preflight.rules.plan._pinned_release import pinned_lightning
from preflight.rules.plan.pf575_hydra_run_dir_key_not_composed import composed_run_dirs
from preflight.sources import read_text_limited

_NOW = re.compile(r"\$\{\s*now\s*:")
_SHELL_SUFFIXES = (".sh", ".slurm", ".sbatch", ".bash")


def _sbatch_tasks(pctx: PlanContext, script: str) -> Optional[int]:
    """Tasks of the ``#SBATCH`` allocation of a batch script in the project that runs ``srun ... script``
    without task flags of its own (srun then starts one task per allocated task)."""
    from preflight.adapters.shell import slurm_environment

    root = pctx.project.root
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return None
    for name in names:
        path = root / name
        if not name.endswith(_SHELL_SUFFIXES) or not pctx.project.may_read(path) or not os.path.isfile(path):
            continue
        try:
            text = read_text_limited(path, errors="replace")
        except OSError:  # InputRefused is an OSError
            continue
        if "#SBATCH" not in text or not any("srun" in line and script in line for line in text.splitlines()):
            continue
        env = slurm_environment(text, str(path))
        tasks = env.get("SLURM_NTASKS")
        if tasks and tasks.isdigit():
            return int(tasks)
    return None


def _processes(pctx: PlanContext, script: str) -> Optional[tuple[int, str]]:
    """(processes, how) when the launch line starts ``script`` as more than one process."""
    from preflight.adapters.launchers import parse_launch

    argv = list(pctx.project.argv)
    if not argv:
        return None
    info = parse_launch(argv)
    if info.script is None or os.path.basename(info.script) != script:
        return None
    line = " ".join(argv)
    if info.total_procs is not None:
        return (info.total_procs, f"`{line}`") if info.total_procs > 1 else None
    if info.wrapper == "srun" and not info.wrapper_options:
        tasks = _sbatch_tasks(pctx, script)
        if tasks is not None and tasks > 1:
            return tasks, f"`{line}` in a batch job of {tasks} tasks (#SBATCH)"
    return None


_DDP_KEYS = ("accelerator", "strategy", "distributed_backend")


def _dropped_may_set(comp: Any, path: tuple[str, ...]) -> bool:
    from preflight.adapters.hydra_partial import dropped_may_set

    return dropped_may_set(comp, path)


def _lightning_ddp(pctx: PlanContext, comp: Any) -> Optional[tuple[int, str]]:
    """(processes, how) when the composed config gives the Trainer the ``ddp`` launcher on more than one GPU
    (a node with ``accelerator``/``strategy``/``distributed_backend: ddp`` and an integer ``gpus``/``devices``)
    and the project pins Lightning before 1.1.6: its DDP launcher starts ranks 1.. by re-running the script, and
    those releases do not hand the children the parent's Hydra run folder (Lightning PR 5629, in 1.1.6 and 1.2)."""
    version = pinned_lightning(pctx, comp.app.script)
    if version is None or version.at_least(1, 1, 6):
        return None
    todo = [comp.config]
    while todo:
        node = todo.pop()
        if not isinstance(node, dict):
            continue
        todo.extend(v for v in node.values() if isinstance(v, dict))
        if not any(node.get(k) == "ddp" for k in _DDP_KEYS) or _dropped_may_set(comp, ("trainer",)):
            continue
        gpus = node.get("gpus", node.get("devices"))
        if isinstance(gpus, int) and not isinstance(gpus, bool) and gpus > 1:
            return gpus, (f"Lightning {version.text}'s `ddp` launcher (the Trainer config asks for {gpus} GPUs; "
                          "it re-runs the script for ranks 1.. and, before 1.1.6, does not pass them the parent's run "
                          "folder)")
    return None


@register
class HydraNowRunDirPerProcess(PlanRule):
    code = "PF595"
    name = "hydra-now-run-dir-per-process"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("`hydra.run.dir` is built from `${now:...}` in an app the launcher starts once per GPU: each "
               "process resolves its own timestamp and the run is split over several folders")
    explanation = """
## What it finds

An `@hydra.main` app whose `hydra.run.dir` (in the primary config, in the `hydra`
option it selects, or in a `hydra.run.dir=` override on the launch line) contains the
`${now:...}` resolver, started by a launcher that runs the script once per GPU:
`torchrun --nproc_per_node 4`, `deepspeed --num_gpus 4`, `accelerate launch
--num_processes 4`, `mpirun -np 8`, or `srun python train.py` inside a batch script
whose `#SBATCH` directives allocate several tasks.

## Why it matters

Each of those processes runs `@hydra.main` on its own and resolves `${now:...}` when
its own Hydra starts. Hydra registers `now` as `datetime.now().strftime(pattern)`,
cached per process (`hydra/core/utils.py`, `setup_globals`), so nothing makes the
ranks agree: processes that start a second apart (imports and node start-up differ
by seconds) get different folders. The run's `.hydra` configs and logs are split over
several timestamped directories, and rank 0's checkpoints land in only one of them;
a resume or evaluation that reads "the" run folder misses files (Hydra issue 2070,
"two sets of output dir were created"; lightning-hydra-template issue 393).

## How to fix it

Give every process the same folder from a value fixed before the launch:
`hydra.run.dir=outputs/${RUN_ID}` on the launch line (with `RUN_ID=$(date +%F_%H-%M-%S)`
set once in the launch script), or `${oc.env:RUN_ID}` / `${oc.env:SLURM_JOB_ID}` in the
config instead of `${now:...}`.

## When preflight stays silent

* The run folder has no `${now:...}` (a job id, an environment variable, a fixed name).
* The launch line sets `hydra.run.dir` to a folder without `${now:...}`.
* The launch starts one process (`torchrun --nproc_per_node 1`, plain `python`), or
  the process count is unknown (`srun` with no `#SBATCH` task count preflight can read).
* A multirun (`-m`): the sweep folder is resolved by the launcher process.
* The job lacks config files its defaults list or launch line names (`dataset/emotion.yaml` not in the
  project): its config is composed without them (as `preflight.adapters.hydra_partial` does) only when
  none of them is an `experiment`-like option and none belongs to the `hydra` or `trainer` group, which
  could set the run folder or the Trainer's launcher; otherwise preflight stays silent.
* Processes the app spawns itself from Lightning 1.1.6 on (its DDP launcher passes the
  parent's run folder to its children as `hydra.run.dir=...`; PR 5629, in 1.1.6 and 1.2.0).
  Before 1.1.6 it did not: a composed Trainer config with `accelerator: ddp` (`strategy`,
  `distributed_backend`) on several `gpus` under a pinned Lightning 1.0 to 1.1.5 is reported.
"""
    bad_examples = examples("preflight.rules.plan._pf595_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf595_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for comp in [*hydra_main_apps(pctx), *partial_hydra_main_apps(pctx)]:
            script = os.path.basename(str(comp.app.script.source.path))
            if _dropped_may_set(comp, ("hydra", "run", "dir")):
                continue  # a config option the job lacks may set the run folder
            procs = _processes(pctx, script) or _lightning_ddp(pctx, comp)
            if procs is None:
                continue
            args = [*comp.app.overrides, *pctx.project.script_args(comp.app.script)]
            if any(t in ("-m", "--multirun") for t in args):
                continue
            given = [t.split("=", 1)[1] for t in args if t.lstrip("+").startswith("hydra.run.dir=")]
            count, how = procs
            if given:
                if _NOW.search(given[-1]):
                    message = self._message("the launch line's `hydra.run.dir`", given[-1], count, how)
                    if pctx.project.launch_at is not None:
                        path, line = pctx.project.launch_at
                        yield pctx.location_finding(self, path, line, message)
                    else:
                        yield pctx.location_finding(self, comp.app.script.source.display, comp.app.line or 1,
                                                    message)
                continue
            settings = composed_run_dirs(pctx, comp)
            if settings is None:
                continue
            holder, where = settings
            for key_path, value in where:
                if holder is not None and _NOW.search(value):
                    yield pctx.config_finding(self, holder, key_path, self._message(
                        "`hydra.run.dir`", value, count, how))

    @staticmethod
    def _message(where: str, value: str, count: int, how: str) -> str:
        return (f"{where} is `{value}`, and {how} starts {count} processes of this Hydra app: each runs "
                f"@hydra.main itself and resolves `${{now:...}}` when its own Hydra starts, so processes that start "
                f"a second apart get different folders and the run's logs, .hydra configs and checkpoints are split "
                f"over them. Pass one folder to every process from a value fixed before the launch "
                f"(`hydra.run.dir=outputs/$RUN_ID` on the launch line, or `${{oc.env:RUN_ID}}` in the config)")
