"""PF328 checkpoint-dirpath-from-rank-zero-logger: a Lightning ``ModelCheckpoint(dirpath=...)`` built
from the logger's run object (``logger.experiment.dir``, ``wandb.run.dir``), which exists only on rank
0, in a file whose Trainer runs several processes: the ranks get different checkpoint directories."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, kwarg
from preflight.rules.base import Rule, examples
from preflight.rules.code._metric_sync import is_lightning_qual
from preflight.rules.code._pf27x_support import multi_process_trainer


def _rank_zero_run(expr: ast.expr) -> Optional[ast.Attribute]:
    """The ``X.experiment.<attr>`` or ``wandb.run.<attr>`` read inside ``expr``: the run object of a
    logger, created on rank 0 only (other ranks get a dummy experiment, or ``wandb.run is None``)."""
    for node in ast.walk(expr):
        if not isinstance(node, ast.Attribute) or not isinstance(node.value, ast.Attribute):
            continue
        inner = node.value
        if inner.attr == "experiment" or (inner.attr == "run" and isinstance(inner.value, ast.Name)
                                          and inner.value.id == "wandb"):
            return node
    return None


_STRATEGIES = ("DDPStrategy", "FSDPStrategy", "DeepSpeedStrategy")


def _strategy_object(ctx: FileContext) -> Optional[ast.AST]:
    """``Trainer(strategy=DDPStrategy(...))`` (the file's one Lightning Trainer): a strategy object
    that exists to run several processes."""
    trainers = [c for c, q in calls(ctx) if q.rsplit(".", 1)[-1] == "Trainer" and is_lightning_qual(q)]
    strategy = kwarg(trainers[0], "strategy") if len(trainers) == 1 else None
    if isinstance(strategy, ast.Call) and ast.unparse(strategy.func).rsplit(".", 1)[-1] in _STRATEGIES:
        return strategy
    return None


@register
class CheckpointDirpathFromRankZeroLogger(Rule):
    code = "PF328"
    needs_text = ("ModelCheckpoint", "dirpath")
    name = "checkpoint-dirpath-from-rank-zero-logger"
    severity = Severity.WARNING
    category = Category.DISTRIBUTED
    frameworks = ("lightning",)
    summary = ("`ModelCheckpoint(dirpath=...)` is built from the logger's run (`logger.experiment.dir`), which "
               "exists only on rank 0 of a multi-process Trainer: the ranks get different checkpoint paths")
    explanation = """
## What it finds

A Lightning `ModelCheckpoint(dirpath=...)` whose `dirpath` reads an attribute of a logger's
run object - `logger.experiment.dir`, `wandb_logger.experiment.name`, `wandb.run.dir` - in a
file whose one `Trainer` runs several processes (`devices=4`, `strategy="ddp"`,
`num_nodes=2`, `strategy=DDPStrategy(...)`).

## Why it matters

Lightning creates the logger's experiment on global rank 0 only: `WandbLogger.experiment` is
`rank_zero_experiment`, which hands every other rank a `DummyExperiment` whose attributes are
no-ops (and `wandb.run` is `None` there). Each rank builds its callback before the processes
synchronise, so rank 0 gets the run's directory and the others get something else. The
checkpoint callback's state (best path, top-k) and its file-system decisions must agree on
all ranks; with different `dirpath`s the ranks diverge at the first checkpoint and the DDP job
hangs after its first epoch (Lightning issue 5319: "ModelCheckpoint must get a valid dirpath
on all ranks").

## How to fix it

Give every rank the same `dirpath`: a fixed path (`"checkpoints/<run-name>"`), or leave
`dirpath` out and let Lightning derive it from the logger after it has synchronised the
ranks.

## When preflight stays silent

* The Trainer runs one process, or the file has no Trainer / several Trainers.
* `dirpath` is built from the logger's own fields that every rank has (`logger.save_dir`,
  `logger.name`, a config value), not from its `experiment` / `wandb.run`.
"""
    bad_examples = examples("preflight.rules.code._pf328_examples", "PF328_BAD")
    good_examples = examples("preflight.rules.code._pf328_examples", "PF328_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        trainer = multi_process_trainer(ctx)
        why = trainer[1] if trainer is not None else _strategy_object(ctx)
        if why is None:
            return
        for checkpoint, qual in calls(ctx):
            if not (is_lightning_qual(qual) and qual.rsplit(".", 1)[-1] == "ModelCheckpoint"):
                continue
            dirpath = kwarg(checkpoint, "dirpath")
            if dirpath is None:
                continue
            run = _rank_zero_run(dirpath)
            if run is None:
                continue
            yield ctx.finding(
                self, dirpath,
                f"the checkpoint `dirpath` reads `{ast.unparse(run)}`, the logger's run, which exists only on "
                "rank 0 (the other ranks get a dummy experiment): under this multi-process Trainer the ranks "
                "build `ModelCheckpoint` with different paths, and its cross-rank decisions diverge and hang "
                "the job at the first checkpoint. Give every rank the same `dirpath` (a fixed path, or leave "
                "it out and let Lightning derive it from the logger)",
                evidence=[ctx.evidence(why, "the Trainer runs several processes")])
