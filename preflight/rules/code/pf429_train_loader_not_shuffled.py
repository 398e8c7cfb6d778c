"""PF429 train-loader-not-shuffled: a DataLoader built with ``shuffle=False`` feeds the training loop."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.analysis.distributed import SHARDED, loader_analysis
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_ORDERS = frozenset({"shuffle", "permutation", "randperm", "sample", "sort", "sorted", "sort_by", "sortish"})


def _shuffle_false(loader: ast.Call) -> ast.keyword | None:
    for kw in loader.keywords:
        if kw.arg == "shuffle" and isinstance(kw.value, ast.Constant) and kw.value.value is False:
            return kw
    return None


@register
class TrainLoaderNotShuffled(Rule):
    code = "PF429"
    needs_text = ("shuffle",)
    name = "train-loader-not-shuffled"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = "The DataLoader of the training loop is built with `shuffle=False` and no sampler"
    explanation = """
## What it finds

A `DataLoader(dataset, shuffle=False)` with no `sampler`/`batch_sampler`, iterated
by a training loop (a loop that calls `backward()`/`step()`) that an epoch loop
repeats.

## Why it matters

Every epoch then presents the samples in the same order - for datasets stored by
class (ImageFolder, most label-sorted files) whole batches hold one class, and SGD
drifts toward the last classes of each epoch. Accuracy stalls well below what the
same model reaches with shuffling (XNOR-Net-PyTorch issue 38: `trainloader` was
built with `shuffle=False`).

## How to fix it

`shuffle=True` for the training loader (`DistributedSampler(shuffle=True)` and
`set_epoch` under DDP); keep `shuffle=False` for validation and test loaders.

## When preflight stays silent

* Loaders only iterated without backward/step (evaluation), or not repeated by an
  epoch loop; loaders with a `sampler` or `batch_sampler`.
* Iterable or sharded datasets (they cannot be shuffled by the loader).
* The function that builds the loader shuffles, permutes or sorts its data itself
  (`ds.shuffle(seed)`, `np.random.permutation`, a length-sorted curriculum).
"""
    bad_examples = examples("preflight.rules.code._pf429_examples", "PF429_BAD")
    good_examples = examples("preflight.rules.code._pf429_examples", "PF429_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        la = loader_analysis(ctx)
        done: set[int] = set()
        for use in la.uses:
            if not use.loop.training or la.epoch_loop(use) is None:
                continue
            for leaf in use.loaders:
                loader = leaf.node
                if not isinstance(loader, ast.Call) or id(loader) in done:
                    continue
                kw = _shuffle_false(loader)
                if kw is None or la.kwarg(loader, "sampler") is not None \
                        or la.kwarg(loader, "batch_sampler") is not None:
                    continue
                if any(s.kind == SHARDED for s in la.dataset_style(loader, leaf.fn)):
                    continue
                scope = ctx.enclosing_function(loader) or ctx.tree
                if any(isinstance(n, ast.Call) and (getattr(n.func, "attr", None) or getattr(n.func, "id", ""))
                       in _ORDERS for n in ast.walk(scope)):
                    continue
                done.add(id(loader))
                yield ctx.finding(
                    self, kw,
                    "this DataLoader feeds the training loop but is built with `shuffle=False` and no sampler: "
                    "every epoch sees the samples in the same order (class-sorted data gives one-class batches), "
                    "and training converges worse. Use `shuffle=True` for the training loader",
                    evidence=[ctx.evidence(use.loop.node, "the training loop iterates it")])
