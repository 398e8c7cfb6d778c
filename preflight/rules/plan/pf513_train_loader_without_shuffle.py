"""PF513 train-loader-without-shuffle: a training loader config that turns shuffling off."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import hydra_yaml_configs, walk

_LOADER_KEYS = ("batch_size", "num_workers", "drop_last", "pin_memory")


def _unpacked_into_loader(pctx: PlanContext) -> dict[str, str]:
    """Config keys unpacked into a DataLoader call: ``DataLoader(ds, **cfg.data.train_loader_params)``
    -> {"train_loader_params": "train.py:11"}."""
    out: dict[str, str] = {}
    for script in pctx.scripts:
        for node in ast.walk(script.tree):
            if not (isinstance(node, ast.Call) and (getattr(node.func, "attr", None)
                                                    or getattr(node.func, "id", "")) == "DataLoader"):
                continue
            if any(kw.arg in ("shuffle", "sampler", "batch_sampler") for kw in node.keywords):
                continue
            for kw in node.keywords:
                if kw.arg is None and isinstance(kw.value, ast.Attribute):
                    out.setdefault(kw.value.attr, f"{script.source.display}:{node.lineno}")
    return out


@register
class TrainLoaderWithoutShuffle(PlanRule):
    code = "PF513"
    name = "train-loader-without-shuffle"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("hydra",)
    summary = "A training DataLoader config sets `shuffle: false`"
    explanation = """
## What it finds

A YAML node whose key path names the training split (`train_loader`,
`train_dataloader_opts`, `data.train`) and that configures a loader
(`batch_size`, `num_workers`, a `DataLoader` target) with `shuffle: false` and
no `sampler`, or without any `shuffle` key when a script unpacks it into a
`DataLoader(ds, **cfg.<...>.<node>)` (the DataLoader default is `shuffle=False`).

## Why it matters

The training set is then read in the same order every epoch: batches are not
i.i.d. (sorted or grouped data gives whole batches of one class or length) and
every epoch repeats the same sequence of updates, which hurts convergence and
generalisation (EasyTemporalPointProcess issue 54: "you not only disable
shuffling for the validation set but also for the training set").

## How to fix it

`shuffle: true` for the training loader (a `DistributedSampler(shuffle=True)`
under DDP); keep `false` for validation and test.

## When preflight stays silent

* Nodes of validation/test loaders; a node that sets a `sampler`.
* A node without `shuffle` is reported only when a script unpacks it into a
  `DataLoader(..., **cfg....<node>)` call that passes no `shuffle`/`sampler` itself
  (then the DataLoader default `shuffle=False` applies).
"""
    bad_examples = examples("preflight.rules.plan._pf513_examples", "PF513_BAD")
    good_examples = examples("preflight.rules.plan._pf513_examples", "PF513_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        unpacked = _unpacked_into_loader(pctx)
        for config in hydra_yaml_configs(pctx):
            for path, node in walk(config.data):
                if "sampler" in node or "batch_sampler" in node:
                    continue
                omitted = "shuffle" not in node and bool(path) and str(path[-1]) in unpacked
                if node.get("shuffle") is not False and not omitted:
                    continue
                words = [str(p).lower() for p in path]
                if not any("train" in w for w in words) or any(w in ("val", "valid", "validation", "test", "eval")
                                                                or w.startswith(("val_", "valid", "test", "eval"))
                                                                for w in words):
                    continue
                target = str(node.get("_target_", ""))
                if not (any(k in node for k in _LOADER_KEYS) or target.endswith("DataLoader")):
                    continue
                if omitted:
                    yield pctx.config_finding(
                        self, config, path,
                        f"the training loader's settings `{path[-1]}` have no `shuffle`, and they are unpacked "
                        f"into `DataLoader(..., **...{path[-1]})` ({unpacked[str(path[-1])]}), whose default is "
                        "`shuffle=False`: every epoch reads the data in the same order. Add `shuffle: true`")
                    continue
                yield pctx.config_finding(
                    self, config, (*path, "shuffle"),
                    "the training loader is configured with `shuffle: false`: every epoch reads the data in the "
                    "same order, so batches are not i.i.d. and each epoch repeats the same updates. Set "
                    "`shuffle: true` for training (keep it off for validation)")
