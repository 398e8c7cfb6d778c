"""PF324 trainer-sampler-override-not-sharded: a Trainer subclass whose ``_get_train_sampler`` returns a sampler
that ignores the rank, on a transformers release (< 4.30) whose Trainer uses that sampler as is."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._schedule_support import processes

_SPLIT_WORDS = ("rank", "world", "replica", "shard", "Distributed", "process_index", "num_processes",
                "super()", "local_process")


def _overrides(tree: ast.AST) -> Iterable[tuple[ast.ClassDef, ast.FunctionDef]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(ast.unparse(b).endswith("Trainer") for b in node.bases):
            for stmt in node.body:
                if isinstance(stmt, ast.FunctionDef) and stmt.name == "_get_train_sampler":
                    yield node, stmt


def _project_classes(pctx: PlanContext) -> dict[str, ast.ClassDef]:
    out: dict[str, ast.ClassDef] = {}
    for script in pctx.project.scripts:
        for node in ast.walk(script.tree):
            if isinstance(node, ast.ClassDef):
                out.setdefault(node.name, node)
    return out


def _splits(fn: ast.FunctionDef, classes: dict[str, ast.ClassDef]) -> bool:
    """The override (or a project sampler class it builds) reads the rank or the world size."""
    text = ast.unparse(fn)
    if any(w in text for w in _SPLIT_WORDS):
        return True
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "_get_train_sampler":
            return True  # delegates to a parent's sampler (`Trainer._get_train_sampler(self)`)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in classes \
                and any(w in ast.unparse(classes[node.func.id]) for w in _SPLIT_WORDS):
            return True
    return False


def _returned(fn: ast.FunctionDef) -> Optional[ast.AST]:
    return next((n for n in ast.walk(fn) if isinstance(n, ast.Return)), None)


@register
class TrainerSamplerOverrideNotSharded(PlanRule):
    code = "PF324"
    name = "trainer-sampler-override-not-sharded"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("A Trainer subclass's `_get_train_sampler` returns a sampler that ignores the rank, on a "
               "transformers release (< 4.30) that does not shard it: every process trains on the same samples")
    explanation = """
## What it finds

A project that pins `transformers` below 4.30, a job launched on several processes, and a
`Trainer` subclass that overrides `_get_train_sampler` with a sampler that never reads the
rank or the world size (neither the override nor the project's sampler class it builds
mentions a rank, a world size, replicas, shards or `Distributed...`, nor calls
`super()._get_train_sampler()`), or that returns `None`.

## Why it matters

Before 4.30 the Trainer built its training DataLoader directly from `_get_train_sampler()`
and only its own default (`DistributedSampler` / `DistributedLengthGroupedSampler`) split
the data by rank; the data loader was not passed through Accelerate. An override that
returns the full index list makes every process train on the same samples: N x the compute
for one process's data (Open-Assistant PR 1869, "Distributed Sampler": the per-dataset
mixture sampler yielded the whole mixture on every DeepSpeed rank).

## How to fix it

Split the sampled indices by rank inside the sampler (`rank=dist.get_rank()`,
`world_size=dist.get_world_size()`), as `DistributedSampler` does, or upgrade to a
release whose Trainer prepares the DataLoader with Accelerate.

## When preflight stays silent

* transformers is not pinned, or is pinned at 4.30 or later; the job runs on one process.
* The override, or the project sampler class it builds, mentions the rank or world size,
  or delegates to a parent's `_get_train_sampler` (`super()...`, `Trainer._get_train_sampler(self)`).
"""
    bad_examples = examples("preflight.rules.plan._pf324_examples", "PF324_BAD")
    good_examples = examples("preflight.rules.plan._pf324_examples", "PF324_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        world = processes(pctx)
        if world is None:
            return
        classes: Optional[dict[str, ast.ClassDef]] = None
        for script in pctx.scripts:
            found = list(_overrides(script.tree))
            if not found:
                continue
            version = pctx.version("transformers", script)
            if version is None or version.how != "pinned" or version.at_least(4, 30):
                continue
            if classes is None:
                classes = _project_classes(pctx)
            for cls, fn in found:
                if _splits(fn, classes):
                    continue
                ret = _returned(fn) or fn
                yield pctx.code_finding(self, script, ret, (
                    f"`{cls.name}._get_train_sampler` returns a sampler that never reads the rank or the world size, "
                    f"and on {version.describe()} the Trainer builds its training DataLoader from it as is (only its "
                    f"default DistributedSampler splits the data; the loader is not prepared by Accelerate before "
                    f"4.30): each of the {world.value} processes trains on the same samples. Split the indices by "
                    "rank in the sampler (rank=dist.get_rank(), world_size=dist.get_world_size())"),
                    evidence=[e for e in (pctx.fact_evidence(world, f"{world.value} processes"),) if e is not None])
