"""PF279 iterable-dataset-replicated-per-worker: an ``IterableDataset`` whose ``__iter__`` walks
its whole source without ``get_worker_info()``, loaded with ``num_workers`` above one."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.analysis.value_resolver import value_resolver
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, kwarg, literal, qualify
from preflight.rules.base import Rule, examples

_ITERABLE = frozenset({"torch.utils.data.IterableDataset", "torch.utils.data.dataset.IterableDataset"})
_LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
# words that show the class splits its work (by worker, by rank, by shard) somewhere
_SPLIT_WORDS = ("worker", "shard", "rank", "split_dataset_by_node", "islice")


def _iterable_classes(ctx: FileContext) -> dict[str, ast.ClassDef]:
    found: dict[str, ast.ClassDef] = {}
    classes = list(ctx.nodes(ast.ClassDef))
    changed = True
    while changed:
        changed = False
        for cls in classes:
            if cls.name not in found and any(
                    qualify(ctx, b) in _ITERABLE or (isinstance(b, ast.Name) and b.id in found) for b in cls.bases):
                found[cls.name] = cls
                changed = True
    return found


def _splits(node: ast.AST) -> bool:
    for sub in ast.walk(node):
        word = sub.id if isinstance(sub, ast.Name) else sub.attr if isinstance(sub, ast.Attribute) else (
            sub.value if isinstance(sub, ast.Constant) and isinstance(sub.value, str) else "")
        if any(w in word.lower() for w in _SPLIT_WORDS):
            return True
    return False


def _whole_source_loop(cls: ast.ClassDef) -> Optional[ast.AST]:
    """The loop of ``__iter__`` that walks something the dataset holds (``for path in self.files``,
    ``yield from self.rows``); None when ``__iter__`` only generates (``while True: yield randn``)."""
    it = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__iter__"), None)
    if it is None:
        return None
    for node in ast.walk(it):
        source: Optional[ast.AST] = None
        if isinstance(node, (ast.For, ast.comprehension)):
            source = node.iter
        elif isinstance(node, ast.YieldFrom):
            source = node.value
        elif isinstance(node, ast.Return) and isinstance(node.value, ast.Call) and isinstance(
                node.value.func, ast.Name) and node.value.func.id == "iter":
            source = node.value  # ``return iter(self.rows)``, ``return iter(range(self.start, self.end))``
        if source is not None and any(isinstance(s, ast.Name) and s.id == "self" for s in ast.walk(source)):
            return node.iter if isinstance(node, ast.comprehension) else node
    return None


def _dataset_class(ctx: FileContext, loader: ast.Call, classes: dict[str, ast.ClassDef]) -> Optional[ast.ClassDef]:
    arg = loader.args[0] if loader.args else kwarg(loader, "dataset")
    if arg is None:
        return None
    leaves: list[ast.AST]
    if isinstance(arg, ast.Call):
        leaves = [arg]
    else:
        found = value_resolver(ctx).sources(arg, scope_index(ctx).function_of(loader))
        if not found:
            return None
        leaves = [leaf.node for leaf in found]
    named = {leaf.func.id for leaf in leaves if isinstance(leaf, ast.Call) and isinstance(leaf.func, ast.Name)}
    if len(named) != 1 or len(leaves) != 1:
        return None
    return classes.get(named.pop())


@register
class IterableDatasetReplicatedPerWorker(Rule):
    code = "PF279"
    name = "iterable-dataset-replicated-per-worker"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("An `IterableDataset` walks its whole source in every DataLoader worker (no "
               "`get_worker_info()`), with `num_workers` above one: every example is seen once per worker")
    frameworks = ("pytorch",)
    needs_text = ("IterableDataset", "num_workers")
    explanation = """
## What it finds

A class of the file derived from `torch.utils.data.IterableDataset` whose `__iter__` loops
over something the dataset holds (`for path in self.files`, `yield from self.rows`,
`return iter(range(self.start, self.end))`), with no
sign anywhere in the class of splitting that work (`get_worker_info`, a worker id, a shard, a
rank, `islice`), loaded by a `DataLoader` in the file with `num_workers` of two or more (a
literal, or an argparse default).

## Why it matters

With `num_workers > 0` the DataLoader copies the dataset object into every worker process and
iterates each copy in full. Unlike a map-style dataset, whose indices the sampler splits among
the workers, an `IterableDataset` must split itself: the PyTorch docs say "the same dataset
object is replicated on each worker process, and thus the replicas must be configured
differently to avoid duplicated data", with `torch.utils.data.get_worker_info()` for that. If
it does not, every epoch yields each example `num_workers` times, the epoch is that many times
longer and the data is not shuffled across the duplicates (vahidk/tfrecord issue 78: "with
num_workers=4 the data is repeated 4 times").

## How to fix it

```python
def __iter__(self):
    info = torch.utils.data.get_worker_info()
    files = self.files if info is None else self.files[info.id::info.num_workers]
    for path in files:
        yield from read_records(path)
```

or use `num_workers=0`/`1`, or a library that shards for you (WebDataset, `datasets`
streaming with `split_dataset_by_node`).

## When preflight stays silent

* `__iter__` only generates (`while True: yield torch.randn(...)`): each worker's RNG is seeded
  differently, so the copies differ.
* The class mentions a worker, a shard, a rank or `islice` anywhere, or the DataLoader has a
  `worker_init_fn` (which can configure each copy).
* `num_workers` is 0 or 1, or not known; the loader's dataset is not one class of the file.
"""
    bad_examples = examples("preflight.rules.code._pf279_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf279_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        classes = {name: cls for name, cls in _iterable_classes(ctx).items() if not _splits(cls)}
        if not classes:
            return
        reported: set[str] = set()
        for loader, qual in calls(ctx):
            if qual not in _LOADERS or kwarg(loader, "worker_init_fn") is not None:
                continue
            workers_expr = kwarg(loader, "num_workers")
            workers = literal(ctx, workers_expr)
            if not (isinstance(workers, int) and not isinstance(workers, bool) and workers >= 2):
                continue
            cls = _dataset_class(ctx, loader, classes)
            if cls is None or cls.name in reported:
                continue
            loop = _whole_source_loop(cls)
            if loop is None:
                continue
            reported.add(cls.name)
            yield ctx.finding(
                self, loop,
                f"`{cls.name}.__iter__` walks the whole dataset without `torch.utils.data.get_worker_info()`, "
                f"and the DataLoader on line {loader.lineno} runs it with `num_workers={workers}`: each worker "
                f"process iterates its own full copy, so every epoch yields every example {workers} times. Split "
                "the files (or records) by `get_worker_info().id` / `.num_workers`",
                evidence=[ctx.evidence(loader, f"the loader runs {workers} worker processes")])
