"""PF447 sampler-sharded-twice: a DataLoader already sharded by a ``DistributedSampler`` handed to ``accelerator.prepare``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import accelerators
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples


def _bound_call(fn: ast.AST, name: str, last: str) -> Optional[ast.Call]:
    """The one ``name = <...>.last(...)`` of the function."""
    found = [n.value for n in ast.walk(fn) if isinstance(n, ast.Assign) and len(n.targets) == 1
             and isinstance(n.targets[0], ast.Name) and n.targets[0].id == name
             and isinstance(n.value, ast.Call) and call_last(n.value) == last]
    return found[0] if len(found) == 1 else None


def _distributed_sampler(fn: ast.AST, loader: ast.Call) -> Optional[ast.Call]:
    kw = next((k.value for k in loader.keywords if k.arg == "sampler"), None)
    if isinstance(kw, ast.Call) and call_last(kw) == "DistributedSampler":
        return kw
    if isinstance(kw, ast.Name):
        return _bound_call(fn, kw.id, "DistributedSampler")
    return None


@register
class SamplerShardedTwice(Rule):
    code = "PF447"
    needs_text = ("DistributedSampler",)
    name = "sampler-sharded-twice"
    severity = Severity.WARNING
    category = Category.DISTRIBUTED
    frameworks = ("accelerate",)
    summary = "A DataLoader already sharded per rank by a `DistributedSampler` is sharded again by `accelerator.prepare`"
    explanation = """
## What it finds

In one function: `DataLoader(dataset, sampler=DistributedSampler(...))` (the sampler inline
or bound to a name) whose loader is then passed to `accelerator.prepare(...)`.

## Why it matters

`accelerator.prepare` shards a map-style loader by wrapping its batch sampler in
`BatchSamplerShard`, whatever sampler it holds. A loader that a `DistributedSampler`
already cut into `num_processes` parts is cut again: each process iterates
1/`num_processes` of its own shard, so with 4 processes the run sees a quarter of the
data per epoch while the loss curve looks normal (accelerate PR 4201: "If the user
already partitioned by rank, that second cut is silent data loss").

## How to fix it

Build the DataLoader with `shuffle=True` and no sampler, and let `prepare` shard it; or
keep the sampler and do not pass the loader to `prepare`.

## When preflight stays silent

* The loader is not passed to `prepare` in the function, or the sampler is not a
  `DistributedSampler` built there.
* The `Accelerator` is built with `dataloader_config=`/`dispatch_batches=` or `**kwargs`.
"""
    bad_examples = examples("preflight.rules.code._pf447_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf447_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if any(k.arg in (None, "dataloader_config", "dispatch_batches") for c in accelerators(ctx) for k in c.keywords):
            return
        for prep in ctx.nodes(ast.Call):
            if not (isinstance(prep.func, ast.Attribute) and prep.func.attr == "prepare"):
                continue
            fn = ctx.enclosing_function(prep) or ctx.tree
            for arg in prep.args:
                if not isinstance(arg, ast.Name):
                    continue
                loader = _bound_call(fn, arg.id, "DataLoader")
                if loader is None:
                    continue
                sampler = _distributed_sampler(fn, loader)
                if sampler is None:
                    continue
                yield ctx.finding(
                    self, loader,
                    f"`{arg.id}` is already sharded per rank by a `DistributedSampler` and is then passed to "
                    "`accelerator.prepare`, which shards it again: each process iterates 1/num_processes of its "
                    "own shard and most of the data is never seen. Drop the sampler (shuffle=True) and let "
                    "`prepare` shard the loader, or do not prepare it",
                    evidence=[ctx.evidence(sampler, "the DistributedSampler is built here"),
                              ctx.evidence(prep, "the loader is prepared here")])
