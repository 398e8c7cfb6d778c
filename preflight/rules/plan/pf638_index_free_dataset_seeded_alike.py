"""PF638 index-free-dataset-seeded-alike: every process of a multi-process job is seeded with the same
value, and the training dataset's ``__getitem__`` ignores its index and draws the sample from a global
RNG: every rank loads the same samples."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._index_free_datasets import index_free_datasets, instances, picks_from_data
from preflight.rules.base import examples
from preflight.rules.plan._shared_seed import SEEDED_ALIKE, seeded_alike, world_evidence


@register
class IndexFreeDatasetSeededAlike(PlanRule):
    code = "PF638"
    name = "index-free-dataset-seeded-alike"
    severity = Severity.WARNING
    category = Category.DISTRIBUTED
    frameworks = ("pytorch", "accelerate")
    summary = ("The dataset's `__getitem__` ignores its index and picks the sample with a global RNG that "
               "every process seeds alike: all ranks train on the same samples")
    explanation = """
## What it finds

""" + SEEDED_ALIKE + """ builds a dataset of a class of
the same file whose `__getitem__(self, idx)` never reads `idx` and draws what it returns from
a global random stream: `random.choice(self.folders)`, `np.random.randint(...)`,
`torch.randint(...)` without `generator=`. Reported on the draw.

## Why it matters

The distributed sampler (`DistributedSampler`, accelerate's sharded loader) gives each rank
different indices, but the dataset throws the index away. What it returns depends only on the
process's random stream: the main process's `random`/NumPy/torch state when
`num_workers=0`, else the loader workers', which torch seeds from a base seed drawn from the
main process's torch RNG. Seeded alike, every rank draws the same sequence, so all N
processes load the same clip at every step: the global batch is one sample repeated N times
(SVD_Xtend issue 75, "Same dataset iteration on different gpu cards?", confirmed by the
maintainer).

## How to fix it

Select the sample from the index (`self.folders[idx % len(self.folders)]`), or draw from a
generator seeded with the index (`random.Random(idx)`), or seed per process
(`set_seed(seed, device_specific=True)`, `torch.manual_seed(seed + rank)`).

## When preflight stays silent

* One process, or a process count preflight cannot read.
* The file never seeds, or one seeding call involves the rank or `device_specific=True`
  (as in PF326); or the seed is a function parameter or goes through a project helper.
* `__getitem__` reads its index (random augmentation of an indexed sample is per-sample
  variety, not a repeated sample), or draws only from a generator of its own
  (`random.Random(idx)`, `np.random.default_rng(...)`, `generator=g`).
* The dataset class is defined in another module, or never built in the script.
* The dataset is synthetic: `__getitem__` neither subscripts nor passes on data the object
  holds (`torch.randn(3, self.size, self.size)`, a benchmark's random tokens), so identical
  noise on every rank changes nothing a benchmark measures.
"""
    bad_examples = examples("preflight.rules.plan._pf638_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf638_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for world, script, seed in seeded_alike(
                pctx, lambda text: "seed" in text and "__getitem__" in text and "backward" in text):
            found = index_free_datasets(script.tree)
            for name, (cls, draw) in found.items():
                built = instances(script.tree, name)
                if not built or not picks_from_data(cls):
                    continue
                evidence = [pctx.code_evidence(script, seed, "every process is seeded with this value",
                                               same_file=True),
                            pctx.code_evidence(script, built[0], "the training dataset is built here",
                                               same_file=True), *world_evidence(pctx, world)]
                yield pctx.code_finding(
                    self, script, draw,
                    f"`{name}.__getitem__` ignores its index and picks the sample with `{ast.unparse(draw.func)}`, "
                    f"a global random stream that `{ast.unparse(seed)}` (line {seed.lineno}) seeds alike on all "
                    f"{world.value} processes: the sampler's different indices are thrown away and every rank "
                    "loads the same samples at every step, so the global batch repeats one sample per rank. "
                    "Select the sample from the index (or a generator seeded with it), or seed per process "
                    "(`set_seed(seed, device_specific=True)`)",
                    evidence=evidence)
