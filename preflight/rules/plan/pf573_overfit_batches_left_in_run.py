"""PF573 overfit-batches-left-in-run: Lightning's ``overfit_batches`` debugging limit is set in a run that
keeps checkpoints or reports metrics; training and validation read only the first N batches."""

from __future__ import annotations

import ast
import re
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg, qualify
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import hydra_yaml_configs, walk

_ROOTS = ("lightning.", "pytorch_lightning.")
# config files and folders meant for debugging runs (lightning-hydra-template's `debug/overfit.yaml`)
_DEBUG = re.compile(r"debug|overfit|fast_dev|smoke|sanity|test", re.IGNORECASE)


def _nonzero(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float)) and value > 0


def _literal(node: Optional[ast.AST]) -> Any:
    return node.value if isinstance(node, ast.Constant) else None


def _keeps_results(tree: ast.AST, ctx: Any) -> bool:
    """The script keeps what the run produces: a ModelCheckpoint, or validate/test from a checkpoint."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        qual = qualify(ctx, node.func)
        if qual.startswith(_ROOTS) and qual.rsplit(".", 1)[-1] == "ModelCheckpoint":
            return True
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("validate", "test", "save_checkpoint") \
                and (node.func.attr == "save_checkpoint" or kwarg(node, "ckpt_path") is not None):
            return True
    return False


@register
class OverfitBatchesLeftInRun(PlanRule):
    code = "PF573"
    name = "overfit-batches-left-in-run"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("lightning",)
    summary = "Lightning's `overfit_batches` debugging limit is set in a run that keeps checkpoints or reports metrics: it trains and validates on the first N batches only"
    explanation = """
## What it finds

A Lightning `Trainer(overfit_batches=N)` (N > 0, a literal) in a script that fits and keeps
the run's results (a `ModelCheckpoint` callback, `trainer.validate/test(..., ckpt_path=...)`,
`save_checkpoint`), or `overfit_batches: N` in the `trainer` node of a Hydra config of the job
that is not a debugging config (a file or folder named `debug`, `overfit`, `fast_dev`, ...).

## Why it matters

`overfit_batches` is a debugging switch: Lightning sets `limit_train_batches` and
`limit_val_batches` to N and turns shuffling off (`lightning/pytorch/trainer/setup.py`,
`_init_debugging_flags`; `data_connector.py`). Left in a real run, every epoch trains on the same
first N batches, validation reads N batches only, and the checkpoint "best" score and the
reported metrics describe that sliver (Lightning-AI/pytorch-lightning#12668: "I think it may
caused by parameters overfit_batches ... Then the answer is very different").

## How to fix it

Remove `overfit_batches` from the production Trainer (keep it in a debug config or a
command-line override).

## When preflight stays silent

* The value is 0, not a literal, or the script keeps nothing of the run (no checkpoint
  callback, no validate/test from a checkpoint): a debugging script.
* The config is a debugging config (its path mentions `debug`, `overfit`, `fast_dev`,
  `smoke`, `sanity` or `test`).
"""
    bad_examples = examples("preflight.rules.plan._pf573_examples", "PF573_BAD")
    good_examples = examples("preflight.rules.plan._pf573_examples", "PF573_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        keeps = False
        for script in pctx.scripts:
            ctx = pctx.file_context(script)
            script_keeps = _keeps_results(script.tree, ctx)
            keeps = keeps or script_keeps
            for node in ast.walk(script.tree):
                if not isinstance(node, ast.Call):
                    continue
                qual = qualify(ctx, node.func)
                if not (qual.startswith(_ROOTS) and qual.rsplit(".", 1)[-1] == "Trainer"):
                    continue
                value = kwarg(node, "overfit_batches")
                if value is None or not _nonzero(_literal(value)) or not script_keeps:
                    continue
                yield pctx.code_finding(
                    self, script, value,
                    f"`overfit_batches={ast.unparse(value)}` is a debugging limit left in a run that keeps its "
                    f"results: Lightning trains and validates on the first {ast.unparse(value)} batches only, "
                    f"without shuffling, so the checkpoints and metrics describe that sliver of the data. Remove it")
        for config in hydra_yaml_configs(pctx):
            if _DEBUG.search(str(config.path)):
                continue
            for path, cnode in walk(config.data):
                if not _nonzero(cnode.get("overfit_batches")):
                    continue
                words = [str(p).lower() for p in path]
                if not ((words and words[-1] == "trainer") or str(cnode.get("_target_", "")).endswith("Trainer")):
                    continue
                if not (keeps or self._checkpoint_in_configs(pctx)):
                    continue
                yield pctx.config_finding(
                    self, config, (*path, "overfit_batches"),
                    f"`overfit_batches: {cnode['overfit_batches']}` in the trainer config of a run that keeps "
                    f"checkpoints: Lightning trains and validates on the first batches only, without shuffling. "
                    f"Move it to a debug config")

    @staticmethod
    def _checkpoint_in_configs(pctx: PlanContext) -> bool:
        for config in hydra_yaml_configs(pctx):
            for _, node in walk(config.data):
                if str(node.get("_target_", "")).endswith("ModelCheckpoint"):
                    return True
        return False
