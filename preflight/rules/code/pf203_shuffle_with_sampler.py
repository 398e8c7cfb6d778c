"""PF203 shuffle-with-sampler: DataLoader(shuffle=True) together with a sampler raises ValueError."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.analysis.distributed import loader_analysis
from preflight.analysis.value_resolver import text
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples


@register
class ShuffleWithSampler(Rule):
    code = "PF203"
    name = "shuffle-with-sampler"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    summary = "DataLoader gets shuffle=True together with a sampler, which raises ValueError"
    frameworks = ("pytorch",)
    explanation = """
## What it finds

`DataLoader(..., shuffle=True, sampler=s)` or `DataLoader(..., shuffle=True,
batch_sampler=b)` where the sampler is not `None` on at least one path (a
`DistributedSampler` built only when distributed counts).

## Why it matters

`torch.utils.data.DataLoader` checks this in its constructor and raises
`ValueError: sampler option is mutually exclusive with shuffle` (or
`batch_sampler option is mutually exclusive with batch_size, shuffle, sampler,
and drop_last`). The job dies at startup, often only in the multi-GPU run, after
it waited in the queue.

## How to fix it

Drop `shuffle=True`: the sampler decides the order (`DistributedSampler` shuffles
by default). The common idiom is `shuffle=(sampler is None), sampler=sampler`.

## When preflight stays silent

* `shuffle` is not the literal `True` (`shuffle=(sampler is None)`,
  `shuffle=args.shuffle`).
* The sampler is `None` on every path preflight can see (a parameter whose
  callers all leave it at `None`), or comes from somewhere it cannot follow.
"""
    bad_examples = examples("preflight.rules.code._pf201_examples", "PF203_BAD")
    good_examples = examples("preflight.rules.code._pf201_examples", "PF203_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        la = loader_analysis(ctx)
        for call in la.loader_calls:
            shuffle = la.kwarg(call, "shuffle")
            if shuffle is None and len(call.args) > 2:
                shuffle = call.args[2]
            if not (isinstance(shuffle, ast.Constant) and shuffle.value is True):
                continue
            for name in ("sampler", "batch_sampler"):
                value = la.kwarg(call, name)
                if value is None or (isinstance(value, ast.Constant) and value.value is None):
                    continue
                fn = la.scopes.function_of(call)
                leaves = la.values.sources(value, fn)
                if not leaves:
                    continue
                real = [leaf for leaf in leaves if not (
                    isinstance(leaf.node, ast.Constant) and leaf.node.value is None)]
                if not real or not all(isinstance(leaf.node, (ast.Call, ast.Name, ast.Attribute))
                                       for leaf in real):
                    continue
                sometimes = len(real) < len(leaves)
                error = ("sampler option is mutually exclusive with shuffle" if name == "sampler"
                         else "batch_sampler option is mutually exclusive with batch_size, "
                              "shuffle, sampler, and drop_last")
                message = (f"`DataLoader` gets `shuffle=True` and `{name}={text(value)}`"
                           + (" (not None on at least one path)" if sometimes else "")
                           + f": torch raises `ValueError: {error}` when it is built. Remove "
                           "`shuffle=True` (the sampler decides the order), or use "
                           f"`shuffle=({text(value)} is None)`")
                evidence = [ctx.evidence(shuffle, "`shuffle=True`")]
                evidence += [ctx.evidence(leaf.node, f"the {name} is built here") for leaf in real[:2]
                             if leaf.node is not value]
                evidence.append(ctx.evidence(value, f"`{name}=` is passed too"))
                yield ctx.finding(self, call, message, evidence=evidence)
                break
