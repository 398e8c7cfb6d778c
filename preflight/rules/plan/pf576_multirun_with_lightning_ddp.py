"""PF576 multirun-with-lightning-ddp: a Hydra ``--multirun`` sweep whose Lightning Trainer starts its other
ranks by re-running the command line (``strategy: ddp``)."""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_apps import hydra_main_apps

# strategies whose launcher re-runs `sys.argv` for ranks 1..n-1 (_SubprocessScriptLauncher)
_SCRIPT_STRATEGIES = frozenset({"ddp", "ddp_find_unused_parameters_true", "ddp_find_unused_parameters_false",
                                "fsdp", "fsdp_cpu_offload", "deepspeed", "deepspeed_stage_1", "deepspeed_stage_2",
                                "deepspeed_stage_2_offload", "deepspeed_stage_3", "deepspeed_stage_3_offload",
                                "deepspeed_stage_3_offload_nvme", "ddp_sharded"})
_STRATEGY_CLASSES = ("DDPStrategy", "FSDPStrategy", "DeepSpeedStrategy")
_TRAINERS = ("pytorch_lightning.Trainer", "lightning.Trainer", "lightning.pytorch.Trainer", "pl.Trainer", "L.Trainer",
             "pytorch_lightning.trainer.Trainer", "lightning.pytorch.trainer.Trainer")


def _trainer_nodes(config: Any, path: tuple = ()) -> Iterator[tuple[tuple, dict]]:
    if not isinstance(config, dict):
        return
    target = config.get("_target_")
    if (isinstance(target, str) and target in _TRAINERS) or (path == ("trainer",) and target is None):
        yield path, config
        return
    for key, value in config.items():
        if isinstance(value, dict) and len(path) < 4:
            yield from _trainer_nodes(value, (*path, str(key)))


def _processes(node: dict) -> Optional[int]:
    """Local processes the Trainer starts: >1 from `devices`/`gpus` (int, list, "0,1", -1 as 2+)."""
    best = None
    for key in ("devices", "gpus"):
        value = node.get(key)
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            count = 2 if value == -1 else value
        elif isinstance(value, list):
            count = len(value)
        elif isinstance(value, str) and value.strip() not in ("", "auto"):
            text = value.strip()
            if text.lstrip("-").isdigit():
                count = 2 if int(text) == -1 else int(text)
            else:
                count = len([p for p in text.split(",") if p.strip()])
        else:
            continue
        best = count if best is None else max(best, count)
    return best


def _script_strategy(node: dict) -> Optional[tuple[str, str]]:
    """(key, shown name) of a strategy that launches by re-running the script, else None."""
    for key in ("strategy", "accelerator", "distributed_backend"):
        value = node.get(key)
        if isinstance(value, str) and value.strip().lower() in _SCRIPT_STRATEGIES:
            if key != "strategy" and value.strip().lower() != "ddp":
                continue  # Lightning < 1.5 named ddp under accelerator/distributed_backend
            return key, value.strip()
        if key == "strategy" and isinstance(value, dict):
            target = value.get("_target_")
            method = value.get("start_method")
            if isinstance(target, str) and target.rsplit(".", 1)[-1] in _STRATEGY_CLASSES \
                    and method in (None, "popen"):
                return key, target.rsplit(".", 1)[-1]
    return None


def _selects_launcher(data: Any) -> bool:
    """Whether a config's defaults list picks a Hydra launcher (``override hydra/launcher: submitit_slurm``)."""
    defaults = data.get("defaults") if isinstance(data, dict) else None
    return isinstance(defaults, list) and any(
        isinstance(entry, dict) and any("hydra/launcher" in str(k) for k in entry) for entry in defaults)


@register
class MultirunWithLightningDdp(PlanRule):
    code = "PF576"
    name = "multirun-with-lightning-ddp"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("hydra", "lightning")
    summary = ("A Hydra `--multirun` sweep trains with a Lightning strategy that starts the other ranks by "
               "re-running the command line (`strategy: ddp`)")
    explanation = """
## What it finds

A launch with `-m`/`--multirun` of an `@hydra.main` app whose composed config
holds a Lightning Trainer (`_target_: lightning.Trainer`, or the `trainer:` node)
with more than one local device (`devices`/`gpus`) and a strategy that Lightning
starts with its subprocess script launcher: `ddp` (and its
`find_unused_parameters` variants), `fsdp`, `deepspeed*`, a `DDPStrategy`
object without `start_method`, or `accelerator: ddp` (Lightning before 1.5).

## Why it matters

These strategies create ranks 1..n-1 by running the script again with the
process's own command line (`command += sys.argv[1:]` in
`lightning/fabric/strategies/launchers/subprocess_script.py`, plus
`hydra.run.dir=...`). Under `--multirun` that command line is the whole sweep:
each new rank starts a sweep of its own instead of joining the current job; the
ranks wait for peers that never come or collide, and the run hangs or is killed
(Lightning issue 11300: "Killed" when the second task starts with
`python run.py -m datamodule.batch_size=32,64 trainer=ddp`). Lightning 1.8 briefly
shipped a multirun integration and removed it again "as it caused issues with
processes hanging" (PR 15689/15737); current releases re-run `sys.argv` as above.

## How to fix it

Use `strategy: ddp_spawn` (ranks are spawned from the running job, not from
the command line) for sweeps, run the sweep's jobs one by one without `-m`, or
launch every job with `torchrun`/SLURM so that Lightning starts no processes.

## When preflight stays silent

* A single run (no `-m`), one device, or a strategy that does not re-run the
  script (`ddp_spawn`, `ddp_fork`, `ddp_notebook`, `start_method: spawn`).
* The launch starts the processes itself (`torchrun`, `srun`, `mpirun`), or the
  sweep runs through another Hydra launcher (`hydra/launcher=...`: submitit,
  joblib, ray), whose jobs do not inherit the sweep's command line the same way.
"""
    bad_examples = examples("preflight.rules.plan._pf576_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf576_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        argv = list(pctx.project.argv)
        if not any(t in ("-m", "--multirun") for t in argv):
            return
        if any(t.rsplit("/", 1)[-1] in ("torchrun", "srun", "mpirun", "deepspeed", "accelerate") for t in argv) \
                or any("hydra/launcher" in t for t in argv) or "distributed.launch" in " ".join(argv):
            return
        for comp in hydra_main_apps(pctx):
            if any(_selects_launcher(loaded.data) for _, loaded in comp.item_configs):
                continue
            for path, node in _trainer_nodes(comp.config):
                found = _script_strategy(node)
                count = _processes(node)
                if found is None or count is None or count < 2:
                    continue
                key, shown = found
                origin = comp.origins.get((*path, key))
                message = (f"`{key}: {shown}` with {count if count > 1 else 'several'} devices in a --multirun sweep: "
                           "Lightning starts the other ranks by running the process's command line again, which "
                           "under --multirun is the whole sweep, so each rank launches a sweep of its own instead of "
                           "joining this job and the run hangs or is killed (Lightning issue 11300). Use "
                           "`strategy: ddp_spawn` for sweeps, or launch each job with torchrun/SLURM")
                if origin is not None and origin[1] is not None:
                    yield pctx.location_finding(self, origin[0], origin[1], message)
                elif comp.app.line is not None:
                    yield pctx.location_finding(self, comp.app.script.source.display, comp.app.line, message)
                return
