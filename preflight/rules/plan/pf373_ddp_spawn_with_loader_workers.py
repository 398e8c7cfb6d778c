"""PF373 ddp-spawn-with-loader-workers: a Lightning ``Trainer`` launched with the ``ddp_spawn`` strategy
while the job's DataLoaders start worker processes (``num_workers`` > 0) that are not persistent."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import calls, has_unpacking, kwarg, literal
from preflight.rules._pf414_support import const_str
from preflight.rules.base import examples
from preflight.rules.code._metric_sync import is_lightning_qual
from preflight.sources import ParsedPython

# the Trainer arguments that named the spawn launcher over Lightning's versions
_STRATEGY_KEYS = ("strategy", "accelerator", "distributed_backend")


def _spawn_arg(trainer: ast.Call) -> Optional[ast.expr]:
    """The ``strategy="ddp_spawn"`` (``accelerator=`` before 1.5, ``distributed_backend=`` before 1.0) argument."""
    for key in _STRATEGY_KEYS:
        expr = kwarg(trainer, key)
        text = const_str(expr)
        if expr is not None and text is not None and text.lower().startswith("ddp_spawn"):
            return expr
    return None


def _is_dataloader(qual: str) -> bool:
    return qual.startswith("torch.utils.data") and qual.rsplit(".", 1)[-1] == "DataLoader"


@register
class DdpSpawnWithLoaderWorkers(PlanRule):
    code = "PF373"
    name = "ddp-spawn-with-loader-workers"
    severity = Severity.WARNING
    category = Category.PERFORMANCE
    frameworks = ("lightning",)
    summary = ("A Lightning Trainer runs `ddp_spawn` while the DataLoaders start non-persistent worker processes "
               "(`num_workers` > 0): Lightning warns this bottlenecks data loading")
    explanation = """
## What it finds

A Lightning `Trainer(strategy="ddp_spawn")` (`accelerator="ddp_spawn"` before
Lightning 1.5, `distributed_backend="ddp_spawn"` before 1.0) in the job, and a
`torch.utils.data.DataLoader` of the job built with a literal `num_workers` above 0
and without `persistent_workers=True`.

## Why it matters

This is a Lightning 1.x defect: preflight reports it when the launcher is named with
`accelerator=`/`distributed_backend=` (1.x spellings) or the project pins
`pytorch-lightning`/`lightning` below 2.0. From 2.0 `_worker_check` warns only when the
loader's own start method is `spawn`, and the GPU docs no longer list worker counts among
`ddp_spawn`'s limits (only "generally slower than DDP"), so a 2.x job is not reported.

`ddp_spawn` starts the training processes with `torch.multiprocessing.spawn`, and
each of them re-creates its loader workers for every epoch and every validation
run. Lightning's own data connector warns about exactly this combination
(`_worker_check`): on 1.3 "Dataloader(num_workers>0) and ddp_spawn do not mix well!
Your performance might suffer dramatically. Please consider setting accelerator=ddp
to use num_workers > 0 (this is a bottleneck of Python .spawn() and PyTorch"; from
1.5 "num_workers>0, persistent_workers=False, and strategy=ddp_spawn may result in
data loading bottlenecks. Consider setting persistent_workers=True". The Lightning
GPU-training docs say of `ddp_spawn`: "We STRONGLY discourage this use because it has
limitations ... Dataloader(num_workers=N), where N is large, bottlenecks training with
DDP... ie: it will be VERY slow or won't work at all". assem-vc issue 13 ("Possible
bottleneck?") is this warning on a real job; the maintainer's fix was `ddp`.

## How to fix it

Launch with `strategy="ddp"` (Lightning starts the processes as scripts), or keep
`ddp_spawn` and build the DataLoaders with `persistent_workers=True`.

## When preflight stays silent

* The strategy is `ddp` (or any non-spawn launcher), or is not a literal; `strategy="ddp_spawn"`
  without a pinned Lightning below 2.0 (the 2.x case above).
* The DataLoaders use `num_workers=0`, a value not known statically, `**kwargs`, or
  `persistent_workers=True` (or a non-literal `persistent_workers`).
* The job builds several Trainers, some without `ddp_spawn`.
"""
    bad_examples = examples("preflight.rules.plan._pf373_examples", "PF373_BAD")
    good_examples = examples("preflight.rules.plan._pf373_examples", "PF373_GOOD")

    @staticmethod
    def _lightning_1x(pctx: PlanContext, script: ParsedPython, spawn: ast.expr) -> bool:
        """Lightning 1.x: the launcher named with ``accelerator=``/``distributed_backend=`` (keywords that stopped
        taking a strategy in 2.0), or a pinned or bounded version of ``pytorch-lightning``/``lightning`` below 2.0."""
        parent = pctx.file_context(script).parent(spawn)
        if isinstance(parent, ast.keyword) and parent.arg in ("accelerator", "distributed_backend"):
            return True
        for package in ("pytorch-lightning", "lightning"):
            version = pctx.version(package, script)
            if version is not None and version.how == "pinned" and not version.at_least(2, 0):
                return True
        return False

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        trainers: list[tuple[ParsedPython, ast.Call]] = []
        loaders: list[tuple[ParsedPython, ast.Call, int]] = []
        for script in pctx.scripts:
            fctx = pctx.file_context(script)
            if not (fctx.mentions("Trainer") or fctx.mentions("num_workers")):
                continue
            for call, qual in calls(fctx):
                last = qual.rsplit(".", 1)[-1]
                if last == "Trainer" and is_lightning_qual(qual):
                    trainers.append((script, call))
                elif _is_dataloader(qual) and not has_unpacking(call):
                    workers = literal(fctx, kwarg(call, "num_workers"))
                    if not isinstance(workers, int) or isinstance(workers, bool) or workers <= 0:
                        continue
                    persistent = kwarg(call, "persistent_workers")
                    if persistent is not None and literal(fctx, persistent) is not False:
                        continue
                    loaders.append((script, call, workers))
        if not trainers or not loaders:
            return
        spawns = [(script, t, _spawn_arg(t)) for script, t in trainers]
        if any(arg is None for _, _, arg in spawns):
            return
        t_script, _, spawn = spawns[0]
        assert spawn is not None
        if not self._lightning_1x(pctx, t_script, spawn):
            return
        for script, call, workers in loaders:
            yield pctx.code_finding(
                self, script, call,
                f"this DataLoader starts num_workers={workers} non-persistent worker processes while the Trainer "
                f"runs `{ast.unparse(spawn)}`: Lightning warns that num_workers>0 and ddp_spawn \"do not mix well\" "
                "(every spawned process re-creates its workers each epoch and validation run; \"performance might "
                "suffer dramatically\"). Launch with strategy=\"ddp\", or set persistent_workers=True",
                evidence=[pctx.code_evidence(t_script, spawn, "the spawn launcher")])
