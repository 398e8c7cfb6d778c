"""PF551 schedule-sized-by-unsharded-loader: a Lightning schedule counted on a fresh ``train_dataloader()``."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._schedule_support import fresh_loader_len, is_schedule

if TYPE_CHECKING:
    from preflight.sources import ParsedPython

_PER_RANK = ("world_size", "num_devices", "num_processes", "num_gpus", "n_gpu", "num_nodes", "devices", "gpus")


def _per_rank(expr: ast.AST) -> bool:
    text = ast.unparse(expr)
    return any(w in text for w in _PER_RANK)


@register
class ScheduleSizedByUnshardedLoader(PlanRule):
    code = "PF551"
    name = "schedule-sized-by-unsharded-loader"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("`configure_optimizers` sizes an LR schedule by `len(...train_dataloader())` on a multi-GPU "
               "Trainer: that loader is unsharded, each rank steps only 1/world_size of it")
    explanation = """
## What it finds

In a LightningModule's `configure_optimizers`, an LR scheduler whose step count comes from
`len(self.trainer.datamodule.train_dataloader())` or `len(self.train_dataloader())` (directly
or through a variable), with no division by the world size, in a job whose Trainer runs on
more than one process (`devices=4, strategy="ddp"`).

## Why it matters

Calling `train_dataloader()` yourself builds a fresh loader without the
`DistributedSampler` Lightning injects into the loaders it requests, so its length counts the
batches of the whole dataset. Under DDP each rank steps once per batch of its own shard,
1/world_size of those. A OneCycleLR (or a warmup-then-decay schedule) sized that way has
covered only a quarter of its length after `max_epochs` on 4 GPUs: the learning rate never
anneals (Lightning issue 2149: "dividing the dataloader size by the number of GPUs is the
correct way").

## How to fix it

`total_steps=self.trainer.estimated_stepping_batches` (Lightning counts the per-rank steps,
accumulation and `max_steps` included), or divide the count by `self.trainer.world_size`.

## When preflight stays silent

* The count is divided by a world size / number of devices, or the method reads
  `self.trainer.estimated_stepping_batches` / `num_training_batches` (a `len(train_dataloader())`
  fallback for Lightning releases without them included).
* The job runs on one process, or a script of the job shards the loader itself
  (`DistributedSampler` in a `train_dataloader`).
"""
    bad_examples = examples("preflight.rules.plan._pf551_examples", "PF551_BAD")
    good_examples = examples("preflight.rules.plan._pf551_examples", "PF551_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        sizes = [f for f in pctx.plan.facts("dist.world_size") if isinstance(f.value, int) and f.value > 1]
        if not sizes:
            return
        world = sizes[0].value
        scripts = pctx.scripts
        for script in scripts:
            text = script.text if script.text is not None else script.source.text
            if "def train_dataloader" in (text or "") and "DistributedSampler" in (text or ""):
                return
        for script in scripts:
            text = script.text if script.text is not None else script.source.text
            if "configure_optimizers" not in (text or "") or "train_dataloader()" not in (text or ""):
                continue
            tree = pctx.file_context(script).tree
            for fn in ast.walk(tree):
                if not (isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.name == "configure_optimizers"):
                    continue
                body = ast.unparse(fn)
                if "estimated_stepping_batches" in body or "num_training_batches" in body:
                    continue  # Lightning's own per-rank count is used (a fallback for old releases aside)
                yield from self._in_method(pctx, script, fn, world)

    def _in_method(self, pctx: PlanContext, script: ParsedPython, fn: ast.AST,
                   world: int) -> Iterable[Finding]:
        counted: dict[str, ast.Call] = {}
        nodes = sorted((n for n in ast.walk(fn) if isinstance(n, (ast.Assign, ast.Call))),
                       key=lambda n: (n.lineno, n.col_offset))
        for node in nodes:
            if isinstance(node, ast.Assign):
                if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    found = fresh_loader_len(node.value)
                    if found is None:
                        found = next((counted[n.id] for n in ast.walk(node.value)
                                      if isinstance(n, ast.Name) and n.id in counted), None)
                    if found is not None and not _per_rank(node.value):
                        counted[node.targets[0].id] = found
                    else:
                        counted.pop(node.targets[0].id, None)
                continue
            if not is_schedule(node):
                continue
            for arg in [*node.args[1:], *(kw.value for kw in node.keywords)]:
                if _per_rank(arg):
                    continue
                found = fresh_loader_len(arg) or next(
                    (counted[n.id] for n in ast.walk(arg) if isinstance(n, ast.Name) and n.id in counted), None)
                if found is None:
                    continue
                yield pctx.code_finding(
                    self, script, arg,
                    f"the schedule is sized by `{ast.unparse(found)}`, a loader built outside the Trainer, "
                    f"without the DistributedSampler it adds: it counts the whole dataset's batches, but each of "
                    f"the {world} ranks steps only its shard, 1/{world} of them, so the schedule covers 1/{world} "
                    "of its length by the end of training. Use `self.trainer.estimated_stepping_batches`")
                break
