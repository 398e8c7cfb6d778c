"""PF319 iterable-dataset-not-split-by-rank: a project IterableDataset streamed through a plain DataLoader
in a multi-process job, with nothing in the class or its construction that reads the rank."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._loader_datasets import ProjectClasses, dataset_call, loaders, text_of
from preflight.rules.plan._schedule_support import processes

# words that say a stream is split per process (the rank read, a shard taken, a library split)
_SPLIT_WORDS = ("rank", "world", "shard", "node", "replica", "split_dataset", "process_index", "num_processes")
# a framework that shards or dispatches the loader itself (accelerate's IterableDatasetShard, the HF
# Trainer, Lightning, Fabric), or a DeepSpeed engine that builds the loader
_OWNED = ("prepare(", "Trainer(", "setup_dataloaders", "training_data")


def _identifiers(node: ast.AST) -> str:
    """The names a piece of code uses (variables, attributes, parameters, keywords), lower-cased; not its
    strings or docstrings (a docstring that speaks of "shard files" splits nothing)."""
    out: list[str] = []
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            out.append(n.id)
        elif isinstance(n, ast.Attribute):
            out.append(n.attr)
        elif isinstance(n, (ast.arg, ast.keyword)) and n.arg:
            out.append(n.arg)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.append(n.name)
    return " ".join(out).lower()


def _iterable_class(cls: ast.ClassDef) -> bool:
    return any((b.attr if isinstance(b, ast.Attribute) else b.id if isinstance(b, ast.Name) else "")
               == "IterableDataset" for b in cls.bases)


def _reads_data(cls: ast.ClassDef) -> bool:
    """``__iter__`` streams stored data (opens files, iterates an attribute), not samples it makes up."""
    it = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__iter__"), None)
    if it is None:
        return False
    for node in ast.walk(it):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open":
            return True
        if isinstance(node, (ast.For, ast.comprehension)) and "self." in ast.unparse(node.iter):
            return True
    return False


def _training_loop(tree: ast.Module, loader: ast.Call) -> Optional[ast.AST]:
    """The loop over the loader (by the name it is assigned to, or the call itself) that runs backward."""
    names = {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) and n.value is loader
             for t in n.targets if isinstance(t, ast.Name)}
    for node in ast.walk(tree):
        if not isinstance(node, (ast.For, ast.AsyncFor)):
            continue
        reads = node.iter is loader or any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node.iter))
        if reads and any(isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "backward"
                         for s in node.body for c in ast.walk(s)):
            return node
    return None


@register
class IterableDatasetNotSplitByRank(PlanRule):
    code = "PF319"
    name = "iterable-dataset-not-split-by-rank"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "deepspeed")
    summary = ("A project IterableDataset is streamed through a plain DataLoader on several processes, and "
               "nothing splits the stream by rank (every rank trains on the same data)")
    explanation = """
## What it finds

A `DataLoader` over an `IterableDataset` subclass of the job's files, iterated by the
training loop (a `backward` in its body), in a job launched on several processes
(`deepspeed --num_gpus 8`, `torchrun --nproc_per_node 4`), where neither the class nor the
arguments it is built with mention the rank, the world size or a shard, and the file hands
the loader to no framework that splits it (`accelerator.prepare`, the HF or Lightning
`Trainer`, `fabric.setup_dataloaders`, `deepspeed.initialize(training_data=...)`).

## Why it matters

A `DistributedSampler` cannot be used with an `IterableDataset`; the stream has to drop
the other ranks' items itself. As written every rank reads the same lines in the same
order, so all data-parallel replicas train on identical batches: N times the compute for
one GPU's data, and the effective batch is N times smaller than planned (DeepSpeed issue
1018, "How to properly use IterableDataset, with DeepSpeed?").

## How to fix it

Split the stream in `__iter__` by rank (and by DataLoader worker):

```python
def __iter__(self):
    for n, line in enumerate(self.lines()):
        if n % self.world_size == self.rank:
            yield self.encode(line)
```

or use `datasets.distributed.split_dataset_by_node`.

## When preflight stays silent

* One process, or a process count preflight cannot read.
* The class or its construction mentions the rank, world size, a shard, a node or a replica.
* `__iter__` makes its samples up (no file opened, no attribute iterated).
* The loader is not iterated by a loop that runs backward in the same file, or the file
  hands loaders to a framework that splits them.
"""
    bad_examples = examples("preflight.rules.plan._pf319_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf319_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        world = processes(pctx)
        if world is None:
            return
        classes = ProjectClasses(pctx.project.scripts)
        for script in pctx.project.scripts:
            text = text_of(script)
            if "DataLoader" not in text or "backward" not in text or any(w in text for w in _OWNED):
                continue
            for loader in loaders(script.tree):
                built = dataset_call(loader, script.tree)
                if built is None or not isinstance(built.func, ast.Name) \
                        or any(w in _identifiers(built) for w in _SPLIT_WORDS):
                    continue
                found = classes.unique(built.func.id)
                if found is None:
                    continue
                owner, cls = found
                if not _iterable_class(cls) or any(w in _identifiers(cls) for w in _SPLIT_WORDS) \
                        or not _reads_data(cls):
                    continue
                loop = _training_loop(script.tree, loader)
                if loop is None:
                    continue
                path = owner.source.display
                yield pctx.code_finding(
                    self, script, loader,
                    f"`{cls.name}` is an IterableDataset (no DistributedSampler possible) and nothing in it or its "
                    f"construction reads the rank: each of the {world.value} processes streams the same items in the "
                    "same order, so every data-parallel replica trains on identical batches "
                    f"({world.value}x the compute for one process's data). Split the stream by rank (and worker) "
                    "inside `__iter__`, or use `split_dataset_by_node`",
                    evidence=[Evidence(line=cls.lineno, path=path, message="the stream, with no rank split"),
                              pctx.code_evidence(script, loop, "the training loop over it")]
                    + [e for e in (pctx.fact_evidence(world, f"{world.value} processes"),) if e is not None])
