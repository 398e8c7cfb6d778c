"""PF498 trainer-loader-override-sharded-twice: a Trainer subclass's ``get_*_dataloader`` prepares a loader
that a ``DistributedSampler`` already shards."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples
from preflight.rules.code._samplers import bound_call, distributed_sampler

_BASES = frozenset({"Trainer", "Seq2SeqTrainer", "SFTTrainer", "DPOTrainer", "RewardTrainer"})
_HOOKS = frozenset({"get_train_dataloader", "get_eval_dataloader", "get_test_dataloader"})


@register
class TrainerLoaderOverrideShardedTwice(Rule):
    code = "PF498"
    name = "trainer-loader-override-sharded-twice"
    severity = Severity.WARNING
    category = Category.DISTRIBUTED
    frameworks = ("transformers",)
    needs_text = ("DistributedSampler",)
    summary = "a Trainer subclass's get_*_dataloader prepares a DistributedSampler loader: Accelerate shards it again"
    explanation = """
## What it finds

A subclass of transformers' `Trainer` whose `get_train_dataloader` (or
`get_eval_dataloader`/`get_test_dataloader`) builds a `DataLoader(..., sampler=DistributedSampler(...))`
and passes it to `self.accelerator.prepare(...)` (inline or by name).

## Why it matters

The `DistributedSampler` already gives each rank 1/N of the dataset. `accelerator.prepare`
then shards the loader a second time (accelerate `data_loader.py` `prepare_data_loader`:
the batch sampler is wrapped in `BatchSamplerShard`, each process keeping every N-th
batch of its own iterator), so each GPU trains on 1/N of its share, 1/N² of the data per
epoch, and the step count shrinks accordingly (transformers#34365). The Trainer's own
`get_train_dataloader` prepares a loader without a distributed sampler for this reason.

## How to fix it

Build the loader with a plain (random) sampler and let `prepare` shard it, or return the
`DistributedSampler` loader without preparing it.

## When preflight stays silent

* The sampler is not a `DistributedSampler` built in the method, or the loader is returned
  without `prepare` (the Trainer then uses it as it is).
* The class does not derive from a transformers/trl trainer; a plain script's
  `accelerator.prepare(loader)` of a named loader is PF447's.
"""
    bad_examples = examples("preflight.rules.code._pf498_examples", "PF498_BAD")
    good_examples = examples("preflight.rules.code._pf498_examples", "PF498_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for cls in ctx.nodes(ast.ClassDef):
            if not any(ast.unparse(b).rsplit(".", 1)[-1] in _BASES for b in cls.bases):
                continue
            for fn in cls.body:
                if not isinstance(fn, ast.FunctionDef) or fn.name not in _HOOKS:
                    continue
                for prep in ast.walk(fn):
                    if not (isinstance(prep, ast.Call) and isinstance(prep.func, ast.Attribute)
                            and prep.func.attr == "prepare" and "accelerator" in ast.unparse(prep.func.value)):
                        continue
                    for arg in prep.args:
                        loader = arg if isinstance(arg, ast.Call) and call_last(arg) == "DataLoader" else (
                            bound_call(fn, arg.id, "DataLoader") if isinstance(arg, ast.Name) else None)
                        if loader is None:
                            continue
                        sampler = distributed_sampler(fn, loader)
                        if sampler is None:
                            continue
                        yield ctx.finding(
                            self, loader,
                            f"`{cls.name}.{fn.name}` shards this loader with a `DistributedSampler` and then passes "
                            "it to `self.accelerator.prepare`, which shards it again: each process sees 1/num_processes "
                            "of its own shard. Use a plain sampler and let `prepare` shard it, or do not prepare it",
                            evidence=[ctx.evidence(sampler, "the DistributedSampler is built here"),
                                      ctx.evidence(prep, "the loader is prepared here")])
