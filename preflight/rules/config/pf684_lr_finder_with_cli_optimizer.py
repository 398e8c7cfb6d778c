"""PF684 lr-finder-with-cli-optimizer: a LightningCLI config adds a ``LearningRateFinder`` callback and
declares the optimizer in its ``optimizer:`` block: the finder's suggestion never reaches that optimizer."""

from __future__ import annotations

from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.loaders import LoadedConfig
from preflight.plan_rules import ConfigRule, PlanContext
from preflight.registry import register
from preflight.rules.base import examples


def _class_name(value: Any) -> Optional[str]:
    if isinstance(value, str):
        return value.rsplit(".", 1)[-1]
    if isinstance(value, dict) and isinstance(value.get("class_path"), str):
        return str(value["class_path"]).rsplit(".", 1)[-1]
    return None


def _finders(config: LoadedConfig) -> list[tuple[tuple[Any, ...], Any]]:
    """(key path, entry) of each ``LearningRateFinder`` callback under ``trainer.callbacks`` that updates
    the module's attribute (``update_attr`` true, its default)."""
    trainer = config.data.get("trainer") if isinstance(config.data, dict) else None
    callbacks = trainer.get("callbacks") if isinstance(trainer, dict) else None
    entries = list(enumerate(callbacks)) if isinstance(callbacks, list) else (
        [(None, callbacks)] if callbacks is not None else [])
    out: list[tuple[tuple[Any, ...], Any]] = []
    for index, entry in entries:
        if _class_name(entry) != "LearningRateFinder":
            continue
        args = entry.get("init_args") if isinstance(entry, dict) else None
        if isinstance(args, dict) and args.get("update_attr") is False:
            continue
        path: tuple[Any, ...] = ("trainer", "callbacks") + ((index,) if index is not None else ())
        out.append((path + (("class_path",) if isinstance(entry, dict) else ()), entry))
    return out


@register
class LrFinderWithCliOptimizer(ConfigRule):
    code = "PF684"
    name = "lr-finder-with-cli-optimizer"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("lightning",)
    summary = ("A LightningCLI config runs a `LearningRateFinder` and declares the optimizer in `optimizer:`: the "
               "suggested learning rate is written to the module, but the CLI-built optimizer never reads it")
    explanation = """
## What it finds

A LightningCLI config file (top-level `trainer:` and `optimizer:` keys) whose
`trainer.callbacks` hold a `LearningRateFinder` (`update_attr` left at its default true), while
the optimizer is declared by the CLI's own `optimizer:` block (`class_path: torch.optim.AdamW`,
`init_args: {lr: ...}`).

## Why it matters

`LearningRateFinder` runs its search before training and writes the suggestion into the
LightningModule's `lr`/`learning_rate` attribute. When the config has an `optimizer:` block,
LightningCLI replaces the module's `configure_optimizers` with one that builds that optimizer
from the config's arguments, so the real fit uses the config's `lr`, never the attribute: the
search runs (and costs its steps), prints a suggestion, and has no effect on training
(Lightning-AI/pytorch-lightning#16787, "LearningRateFinder not working with CLI optimizers").

## How to fix it

Drop the `optimizer:` block and build the optimizer in the module's `configure_optimizers`
from `self.lr` (the attribute the finder updates); or drop the finder and set `lr` by hand.

## When preflight stays silent

* No `optimizer:` block in the file (the module builds its optimizer).
* The finder is given `update_attr: false` (it only reports a suggestion).
* No `LearningRateFinder` among the file's `trainer.callbacks`.
"""
    url = "https://github.com/Lightning-AI/pytorch-lightning/issues/16787"
    bad_examples = examples("preflight.rules.config._pf684_examples", "BAD")
    good_examples = examples("preflight.rules.config._pf684_examples", "GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for config in pctx.configs:
            data = config.data
            if config.kind != "yaml" or not isinstance(data, dict) or "trainer" not in data:
                continue
            optimizer = data.get("optimizer")
            if not optimizer or _class_name(optimizer) is None:
                continue
            for path, _entry in _finders(config):
                opt_line = config.line_of(("optimizer",), nearest=True) or 1
                yield pctx.config_finding(
                    self, config, path,
                    f"LearningRateFinder writes its suggested learning rate into the LightningModule's lr attribute, "
                    f"but this config declares the optimizer itself (`optimizer: {_class_name(optimizer)}`, line "
                    f"{opt_line}): LightningCLI builds it from the config's arguments, not from that attribute, so "
                    "training runs at the config's lr and the search has no effect. Build the optimizer in "
                    "configure_optimizers from self.lr, or drop the finder",
                    evidence=[pctx.config_evidence(config, ("optimizer",), "the CLI-built optimizer")])
