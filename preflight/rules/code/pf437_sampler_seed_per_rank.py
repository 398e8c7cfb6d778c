"""PF437 sampler-seed-per-rank: a ``DistributedSampler`` whose shuffle seed differs between ranks."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import last_name
from preflight.rules.base import Rule, examples

_SAMPLERS = frozenset({"torch.utils.data.DistributedSampler", "torch.utils.data.distributed.DistributedSampler"})
_CLOCKS = frozenset({"time.time", "time.time_ns", "time.perf_counter", "time.monotonic", "datetime.datetime.now"})


def _per_rank(ctx: FileContext, expr: ast.AST) -> Optional[ast.AST]:
    """The part of ``expr`` that differs between ranks: a rank (``global_rank``, ``args.local_rank``,
    ``dist.get_rank()``, ``accelerator.process_index``) or a clock read (``time.time()``)."""
    imports = scope_index(ctx).imports
    for node in ast.walk(expr):
        if isinstance(node, ast.Call):
            qual = imports.qualify(node.func) or ""
            if qual in _CLOCKS:
                return node
            if qual in ("torch.distributed.get_rank",) or last_name(node.func) in ("get_rank", "get_local_rank"):
                return node
        elif isinstance(node, (ast.Name, ast.Attribute)):
            name = last_name(node).lower()
            if name in ("rank", "local_rank", "global_rank", "process_index", "local_process_index",
                        "node_rank") or name.endswith("_rank"):
                return node
    return None


def _seed_value(ctx: FileContext, call: ast.Call, seed: ast.expr) -> ast.expr:
    """``seed`` itself, or the one value a plain name was assigned in the sampler's function."""
    if not isinstance(seed, ast.Name):
        return seed
    fn = ctx.enclosing_function(call)
    values = [n.value for n in ctx.nodes(ast.Assign) if ctx.enclosing_function(n) is fn and any(
        isinstance(t, ast.Name) and t.id == seed.id for t in n.targets)]
    return values[0] if len(values) == 1 else seed


@register
class SamplerSeedPerRank(Rule):
    code = "PF437"
    needs_text = ("DistributedSampler",)
    name = "sampler-seed-per-rank"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = "A `DistributedSampler`'s shuffle seed differs between ranks"
    explanation = """
## What it finds

`DistributedSampler(dataset, seed=...)` where the seed involves the rank
(`seed + rank`, `seed * global_rank`, `dist.get_rank()`) or the clock
(`int(time.time())`), directly or through one assignment in the same function.

## Why it matters

Every rank shuffles the whole dataset with `seed + epoch` and takes every
world-size-th index of that permutation. The shards are disjoint only when every
rank draws the same permutation: with a seed per rank each rank cuts its shard
from a different permutation, so ranks train on overlapping samples and some
samples are never seen in the epoch (LongLive issue 71). Seeding the model's
randomness per rank is fine; the sampler's seed must be shared.

## How to fix it

Pass the same seed on every rank (`seed=config.seed`), and call
`sampler.set_epoch(epoch)` to reshuffle each epoch.

## When preflight stays silent

* The seed is a constant or a value that does not involve the rank or a clock
  (`args.seed`, `config.seed`).
* Another sampler class (a project's own sampler may shard differently).
"""
    bad_examples = examples("preflight.rules.code._pf437_examples", "PF437_BAD")
    good_examples = examples("preflight.rules.code._pf437_examples", "PF437_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        imports = scope_index(ctx).imports
        for call in ctx.nodes(ast.Call):
            if (imports.qualify(call.func) or "") not in _SAMPLERS:
                continue
            seed = next((k.value for k in call.keywords if k.arg == "seed"), None)
            if seed is None and len(call.args) >= 5:
                seed = call.args[4]  # DistributedSampler(dataset, num_replicas, rank, shuffle, seed)
            if seed is None:
                continue
            part = _per_rank(ctx, _seed_value(ctx, call, seed))
            if part is None:
                continue
            evidence = [ctx.evidence(part, f"`{ast.unparse(part)}` differs between processes")]
            yield ctx.finding(
                self, seed,
                f"The sampler's seed `{ast.unparse(seed)}` differs between ranks (through "
                f"`{ast.unparse(part)}`): each rank cuts its shard from a different permutation, so ranks "
                "train on overlapping samples and skip others every epoch. Pass the same seed on every rank",
                evidence=evidence)
