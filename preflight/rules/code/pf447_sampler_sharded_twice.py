"""PF447 sampler-sharded-twice: a DataLoader already sharded by a ``DistributedSampler`` handed to ``accelerator.prepare``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._node_split import split_by_node
from preflight.rules._pf4_support import accelerators
from preflight.rules.base import Rule, examples
from preflight.rules.code._samplers import bound_call, distributed_sampler

_RANK_WORDS = ("process_index", "local_process_index", "get_rank", "global_rank", "local_rank")


def _rank_names(fn: ast.AST) -> set[str]:
    """Names the function computes from the process's rank (``start = n * accelerator.process_index``),
    followed through later assignments."""
    names: set[str] = set()
    assigns = [n for n in ast.walk(fn) if isinstance(n, ast.Assign) and len(n.targets) == 1
               and isinstance(n.targets[0], ast.Name)]
    changed = True
    while changed:
        changed = False
        for node in assigns:
            target = node.targets[0].id  # type: ignore[attr-defined]
            if target in names:
                continue
            text = ast.unparse(node.value)
            if any(w in text for w in _RANK_WORDS) or any(
                    isinstance(n, ast.Name) and n.id in names for n in ast.walk(node.value)):
                names.add(target)
                changed = True
    return names


def _rank_slice(fn: ast.AST, loader: ast.Call) -> Optional[ast.Subscript]:
    """The loader's dataset is ``data[start:end]`` (inline or bound to a name) with a bound computed from the
    process's rank: the data is already cut per process."""
    if not loader.args:
        return None
    data = loader.args[0]
    if isinstance(data, ast.Name):
        found = [n.value for n in ast.walk(fn) if isinstance(n, ast.Assign) and len(n.targets) == 1
                 and isinstance(n.targets[0], ast.Name) and n.targets[0].id == data.id]
        if len(found) != 1:
            return None
        data = found[0]
    if not (isinstance(data, ast.Subscript) and isinstance(data.slice, ast.Slice)):
        return None
    ranked = _rank_names(fn)
    bounds = [b for b in (data.slice.lower, data.slice.upper, data.slice.step) if b is not None]
    if any(any(w in ast.unparse(b) for w in _RANK_WORDS)
           or any(isinstance(n, ast.Name) and n.id in ranked for n in ast.walk(b)) for b in bounds):
        return data
    return None


@register
class SamplerShardedTwice(Rule):
    code = "PF447"
    needs_text = ("DistributedSampler", "process_index", "get_rank", "global_rank", "local_rank",
                  "split_dataset_by_node")
    name = "sampler-sharded-twice"
    severity = Severity.WARNING
    category = Category.DISTRIBUTED
    frameworks = ("accelerate",)
    summary = ("A DataLoader already sharded per rank (a `DistributedSampler`, `split_dataset_by_node`, or data "
               "sliced by the process index) is sharded again by `accelerator.prepare`")
    explanation = """
## What it finds

In one function: `DataLoader(dataset, sampler=DistributedSampler(...))` (the sampler inline
or bound to a name), or `DataLoader(data[start:end])` whose slice bounds are computed from
the process's rank (`accelerator.process_index`, `dist.get_rank()`, directly or through the
names assigned from it), or `DataLoader(stream)` over a dataset that
`datasets.distributed.split_dataset_by_node(...)` split per process (inline, or through
the names assigned from it: `stream = split_dataset_by_node(stream, ...)`, `stream =
stream.map(tokenize)`), whose loader is then passed to `accelerator.prepare(...)`.

## Why it matters

`accelerator.prepare` shards a map-style loader by wrapping its batch sampler in
`BatchSamplerShard`, whatever sampler it holds. A loader that a `DistributedSampler`
already cut into `num_processes` parts is cut again: each process iterates
1/`num_processes` of its own shard, so with 4 processes the run sees a quarter of the
data per epoch while the loss curve looks normal (accelerate PR 4201: "If the user
already partitioned by rank, that second cut is silent data loss"). Data sliced by hand per
process is the same cut: accelerate issue 3336 (evaluation data sliced by `process_index`,
then prepared: uneven lengths, one process never finishes `generate`). A streaming
dataset split with `split_dataset_by_node` is cut again by `IterableDatasetShard` (or
read on the main process alone and dispatched, the default for iterable datasets):
accelerate issue 3547, "Not prepare the dataloader is a temporary solution".

## How to fix it

Build the DataLoader with `shuffle=True` and no sampler, and let `prepare` shard it; or
keep the sampler and do not pass the loader to `prepare`.

## When preflight stays silent

* The loader is not passed to `prepare` in the function, or the sampler is not a
  `DistributedSampler` built there, or the slice's bounds do not depend on the rank.
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
                loader = bound_call(fn, arg.id, "DataLoader")
                if loader is None:
                    continue
                sampler = distributed_sampler(fn, loader)
                split = split_by_node(fn, loader) if sampler is None else None
                if split is not None:
                    yield ctx.finding(
                        self, split,
                        f"the dataset of `{arg.id}` is split per process by `split_dataset_by_node`, and the "
                        "loader is then passed to `accelerator.prepare`, which shards the stream again (or reads "
                        "it on the main process and dispatches its batches): each process trains on a fraction of "
                        "its own split and most of the corpus is never seen, with no error. Split in one place "
                        "only: let `prepare` shard the whole stream, or do not prepare this loader",
                        evidence=[ctx.evidence(loader, "the DataLoader over the split dataset"),
                                  ctx.evidence(prep, "the loader is prepared here")])
                    continue
                if sampler is None:
                    sliced = _rank_slice(fn, loader)
                    if sliced is not None:
                        yield ctx.finding(
                            self, loader,
                            f"`{arg.id}` iterates `{ast.unparse(sliced)[:60]}`, a slice cut per process from the "
                            "rank, and is then passed to `accelerator.prepare`, which shards it again: each process "
                            "sees 1/num_processes of its own slice, and uneven slices give the processes different "
                            "batch counts (a collective or `generate` then waits forever). Build the loader on the "
                            "whole data and let `prepare` shard it, or do not prepare it",
                            evidence=[ctx.evidence(sliced, "the data is cut per process here"),
                                      ctx.evidence(prep, "the loader is prepared here")])
                    continue
                yield ctx.finding(
                    self, loader,
                    f"`{arg.id}` is already sharded per rank by a `DistributedSampler` and is then passed to "
                    "`accelerator.prepare`, which shards it again: each process iterates 1/num_processes of its "
                    "own shard and most of the data is never seen. Drop the sampler (shuffle=True) and let "
                    "`prepare` shard the loader, or do not prepare it",
                    evidence=[ctx.evidence(sampler, "the DistributedSampler is built here"),
                              ctx.evidence(prep, "the loader is prepared here")])
