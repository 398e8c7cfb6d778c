"""PF157 rank-sharded-iterable-dataset-dispatched: an ``IterableDataset`` that already picks its own shard
by the process rank, given as ``train_dataset`` to a transformers ``Trainer`` (4.31 or later) launched on
several processes without ``dispatch_batches=False``: Accelerate reads it on process 0 only and splits that
process's batches among the ranks."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last, const_str, last_name
from preflight.rules.base import examples
from preflight.rules.plan._schedule_support import processes

_TRAINERS = ("Trainer", "Seq2SeqTrainer", "SFTTrainer")
_RANK_VARS = ("RANK", "LOCAL_RANK")
_FROM = (4, 31)


def _reads_rank(node: ast.AST) -> bool:
    """``os.environ["RANK"]``, ``os.environ.get("RANK")``, ``os.getenv("RANK")``, ``dist.get_rank()``."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Subscript) and last_name(sub.value) == "environ" \
                and const_str(sub.slice) in _RANK_VARS:
            return True
        if isinstance(sub, ast.Call):
            last = call_last(sub)
            if last in ("get", "getenv") and sub.args and const_str(sub.args[0]) in _RANK_VARS:
                return True
            if last == "get_rank":
                return True
    return False


def _key(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return "self." + node.attr
    return None


def _shards_by_rank(cls: ast.ClassDef) -> bool:
    """The class binds the rank (to a local or ``self.`` attribute) and shards with it: a slice starting at it
    (``files[rank::world]``), a modulo comparison with it (``i % world == rank``) or a ``shard(..., index=rank)``
    / ``split_dataset_by_node(..., rank=rank)`` call."""
    ranks: set[str] = set()
    for node in ast.walk(cls):
        if isinstance(node, ast.Assign) and _reads_rank(node.value):
            ranks.update(k for k in (_key(t) for t in node.targets) if k)
    if not ranks:
        return False
    for node in ast.walk(cls):
        if isinstance(node, ast.Slice) and node.lower is not None and _key(node.lower) in ranks:
            return True
        if isinstance(node, ast.Compare) and any(
                isinstance(s, ast.BinOp) and isinstance(s.op, ast.Mod) for s in (node.left, *node.comparators)) \
                and any(_key(s) in ranks for s in (node.left, *node.comparators)):
            return True
        if isinstance(node, ast.Call) and call_last(node) in ("shard", "split_dataset_by_node") \
                and any(_key(k.value) in ranks for k in node.keywords if k.arg in ("index", "rank")):
            return True
    return False


def _sharded_classes(tree: ast.AST) -> dict[str, ast.ClassDef]:
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(last_name(b) == "IterableDataset" for b in node.bases) \
                and _shards_by_rank(node):
            out[node.name] = node
    return out


def _trainer_datasets(tree: ast.AST, classes: dict[str, ast.ClassDef]) -> Iterator[tuple[ast.Call, ast.ClassDef]]:
    """Each Trainer call whose ``train_dataset`` is an instance of one of ``classes`` (built in the call or bound
    to a name once)."""
    built: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, ast.Call) and call_last(node.value) in classes:
            built[node.targets[0].id] = call_last(node.value)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or call_last(node) not in _TRAINERS:
            continue
        value = kwarg(node, "train_dataset")
        name = call_last(value) if isinstance(value, ast.Call) else \
            built.get(value.id) if isinstance(value, ast.Name) else None
        if name in classes:
            yield node, classes[name]


@register
class RankShardedIterableDatasetDispatched(PlanRule):
    code = "PF157"
    name = "rank-sharded-iterable-dataset-dispatched"
    severity = Severity.WARNING
    category = Category.DISTRIBUTED
    frameworks = ("transformers",)
    summary = ("A rank-sharded `IterableDataset` given to a multi-process `Trainer` (transformers >= 4.31) without "
               "`dispatch_batches=False`: only process 0's shard is read and split among the ranks")
    explanation = """
## What it finds

A class deriving from `IterableDataset` that reads the process rank (`os.environ["RANK"]`,
`os.environ.get("LOCAL_RANK")`, `dist.get_rank()`) and shards with it (`files[rank::world]`,
`i % world == rank`, `.shard(..., index=rank)`), given as `train_dataset` to a transformers
`Trainer` (or `Seq2SeqTrainer`, `SFTTrainer`) in a job launched on several processes, in a
project that states transformers 4.31 or later, with no `dispatch_batches` anywhere in the
script.

## Why it matters

From 4.31 the Trainer prepares its dataloaders with Accelerate, and Accelerate defaults to
`dispatch_batches=True` for an iterable dataset (`prepare_data_loader`: `dispatch_batches =
isinstance(dataloader.dataset, IterableDataset)`): process 0 alone iterates the dataset, builds a
batch of `per_device_train_batch_size * num_processes` and sends each rank its slice. A dataset
that already yields rank 0's shard on process 0 is the only one ever read: the other shards are
never seen (transformers issue 24999, "dataloading bug after upgrading to 4.31.0"; sgugger:
"Accelerate will by default use dispatch_batches=True for iterable datasets").

## How to fix it

Pass `dispatch_batches=False` to `TrainingArguments` (`accelerator_config={"dispatch_batches":
False}` on later releases) so every process reads its own shard, or stop sharding by rank and
let Accelerate dispatch.

## When preflight stays silent

* The script names `dispatch_batches` (any value or place), or the launch runs one process.
* The dataset reads the rank only for a seed or a log, not to pick its shard; it shards by
  DataLoader worker (`get_worker_info()`), which dispatching keeps.
* The project states no transformers release, or one before 4.31.
"""
    bad_examples = examples("preflight.rules.plan._pf157_examples", "BAD")
    good_examples = examples("preflight.rules.plan._pf157_examples", "GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            text = script.source.text
            if "IterableDataset" not in text or "train_dataset" not in text or "dispatch_batches" in text:
                continue
            classes = _sharded_classes(script.tree)
            if not classes:
                continue
            version = pctx.version("transformers", script)
            if version is None or not version.at_least(*_FROM):
                continue
            world = processes(pctx)
            if world is None:
                continue
            for call, cls in _trainer_datasets(script.tree, classes):
                yield pctx.code_finding(self, script, cls, (
                    f"`{cls.name}` picks its shard by the process rank and is the `train_dataset` of "
                    f"`{call_last(call)}` on {world.value} processes: with {version.describe()} the Trainer "
                    "prepares iterable datasets with Accelerate's default `dispatch_batches=True`, so only process "
                    "0 iterates (its own shard) and splits each batch among the ranks; the other shards are never "
                    "read (transformers issue 24999). Pass `dispatch_batches=False` (or `accelerator_config="
                    "{\"dispatch_batches\": False}`), or stop sharding by rank"))
                break
