"""PF516 trainer-without-distributed-sampler: a DDP Lightning Trainer config that turns the sampler off."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import hydra_yaml_configs, walk
from preflight.sources import InputRefused, read_text_limited

_SHARDING_LIBRARIES = ("nemo", "megatron", "lhotse")


def _scripts_shard(pctx: PlanContext) -> bool:
    """Something other than Lightning may shard the loaders: a script builds a distributed
    sampler, imports a library whose loaders shard by rank themselves (NeMo/Megatron data
    samplers, Lhotse), or there is no script at all (a config alone cannot say who builds
    the loaders)."""
    if not pctx.scripts:
        return True
    if any(_shards_by_rank(text) for text in _imported_project_texts(pctx)):
        return True
    for script in pctx.scripts:
        for node in ast.walk(script.tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                if any(m.split(".")[0] in _SHARDING_LIBRARIES for m in modules):
                    return True
            name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
            if name in ("DistributedSampler", "DistributedBatchSampler") or ("Distributed" in name and "Sampler" in name):
                return True
    return False


# the project's own data code splitting by rank: ``data.chunk(world_size)[rank]``,
# ``items[rank::world_size]``, or a distributed sampler it builds
_RANK_SHARD = re.compile(
    r"chunk\(\s*(?:self\.)?(?:world_size|num_replicas)\b|\[\s*(?:self\.)?rank\s*::\s*(?:self\.)?"
    r"(?:world_size|num_replicas)\b|Distributed\w*Sampler\b")
_MAX_MODULES = 64
_MAX_BYTES = 1 << 20


def _shards_by_rank(text: str) -> bool:
    return _RANK_SHARD.search(text) is not None


def _module_files(base: Path, dotted: str) -> list[Path]:
    """``src.dataloaders`` -> ``base/src/dataloaders.py``, or the package's ``__init__.py`` and
    the modules beside it (a package import runs the modules its ``__init__`` imports)."""
    target = base.joinpath(*dotted.split("."))
    single = target.with_suffix(".py")
    if single.is_file():
        return [single]
    init = target / "__init__.py"
    if init.is_file():
        return [init, *sorted(f for f in target.glob("*.py") if f.name != "__init__.py")]
    return []


def _imported_project_texts(pctx: PlanContext) -> Iterable[str]:
    """The text of the project modules the scripts import (``from src.dataloaders import X``,
    ``import src.data``): one level, read-only, at most a few dozen files."""
    seen: set[Path] = set()
    for script in pctx.scripts:
        bases = []
        for base in (script.source.path.parent, pctx.project.root):
            try:
                bases.append(base.resolve())
            except OSError:
                continue
        for node in ast.walk(script.tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            else:
                continue
            for name in names:
                for base in bases:
                    for path in _module_files(base, name):
                        if path in seen or len(seen) >= _MAX_MODULES or not pctx.project.may_read(path):
                            continue
                        seen.add(path)
                        try:
                            text = read_text_limited(path, _MAX_BYTES, errors="replace")
                        except (OSError, InputRefused):
                            continue
                        yield text


def _config_shards(data: object) -> bool:
    """The config hands the loaders a sampler of its own, or switches on Lhotse."""
    for _path, node in walk(data):
        if node.get("use_lhotse") is True or any(
                isinstance(k, str) and k.endswith("sampler") and isinstance(v, dict) for k, v in node.items()):
            return True
    return False


@register
class TrainerWithoutDistributedSampler(PlanRule):
    code = "PF516"
    name = "trainer-without-distributed-sampler"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("lightning", "hydra")
    summary = "A multi-GPU Lightning Trainer config sets `use_distributed_sampler: false` and nothing shards the data"
    explanation = """
## What it finds

A Lightning `Trainer` node in a config (`_target_: lightning.Trainer`, or a
`trainer:` section) with `use_distributed_sampler: false` (or the older
`replace_sampler_ddp: false`), a DDP-like strategy or more than one device, in a
job whose scripts never build a `DistributedSampler`.

## Why it matters

Lightning only shards a plain `DataLoader` across ranks by inserting a
`DistributedSampler`; with that switched off, every GPU iterates the whole
dataset: an N-GPU run does the work of one GPU N times (Lightning issue 7813).

## How to fix it

Remove `use_distributed_sampler: false`, or give the loaders a
`DistributedSampler` yourself.

## When preflight stays silent

* Some script builds a distributed sampler; one device; a non-DDP strategy.
* A project module a script imports (one level: `from src.dataloaders import X` reads
  `src/dataloaders.py`, or the package's `__init__.py` and the modules beside it) splits
  the data by rank itself (`data.chunk(world_size)[rank]`, `items[rank::world_size]`) or
  builds a distributed sampler: state-spaces/s4's Transformer-XL iterator, which its
  `trainer/lm.yaml` switches Lightning's sampler off for.
* A script imports NeMo, Megatron or Lhotse (their samplers shard by rank themselves),
  the config gives the loaders a sampler node of its own or sets `use_lhotse: true`,
  or the job has no script (a config alone cannot say who builds the loaders).
"""
    bad_examples = examples("preflight.rules.plan._pf516_examples", "PF516_BAD")
    good_examples = examples("preflight.rules.plan._pf516_examples", "PF516_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        sharded = None
        for config in hydra_yaml_configs(pctx):
            for path, node in walk(config.data):
                key = next((k for k in ("use_distributed_sampler", "replace_sampler_ddp") if node.get(k) is False), None)
                if key is None:
                    continue
                strategy = str(node.get("strategy", ""))
                devices = node.get("devices", node.get("gpus", 1))
                multi = "ddp" in strategy or "fsdp" in strategy or "deepspeed" in strategy or (
                    isinstance(devices, int) and not isinstance(devices, bool) and devices > 1) or devices in (-1, "auto")
                if not multi:
                    continue
                if sharded is None:
                    sharded = _scripts_shard(pctx)
                if sharded or _config_shards(config.data):
                    return
                yield pctx.config_finding(
                    self, config, (*path, key),
                    f"`{key}: false` on a multi-GPU Trainer and no script builds a DistributedSampler: Lightning "
                    "no longer shards the loaders, so every rank trains on the whole dataset. Remove the switch or "
                    "shard the loaders yourself")
