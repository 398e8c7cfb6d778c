"""PF262 hydra-dict-override-keeps-stale-keys: a launch override gives an existing config node a new
``_target_`` as a mapping; Hydra merges it, so the old node's other keys reach the new target."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_dict_override import listed, node_merge
from preflight.rules.plan._hydra_experiment_targets import experiment_merges


@register
class HydraDictOverrideKeepsStaleKeys(PlanRule):
    code = "PF262"
    name = "hydra-dict-override-keeps-stale-keys"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A launch override gives a config node a new `_target_` as a mapping: Hydra merges it into the "
               "node, so the old node's other keys reach the new target")
    explanation = """
## What it finds

A launch-line override `key={_target_: ..., ...}` (or `++key={...}`) of a `@hydra.main`
app whose composed config already has a mapping at `key` with another `_target_`, and
keys the override does not give (`grafting_config={_target_:...SGDGraftingConfig,...}`
over an Adam grafting node with `beta2` and `epsilon`).

An experiment config (a `# @package _global_` file of a config group, `conf/experiment/x.yaml`)
that writes a mapping with another `_target_` at a node the app's defaults list already
composes with other keys (`model.loss: {_target_: NewLoss, beta: 0.3}` over a
`MyCustomLoss` node with `from_logits` and `alpha`) is reported the same way, at the
experiment's `_target_` line (hydra issue 1896).

## Why it matters

Hydra does not replace a node with a mapping from the command line: it merges the
mapping into the node key by key (`OmegaConf.update(cfg, key, value, merge=True)` in
`hydra/_internal/config_loader_impl.py`). The new `_target_` keeps the old node's
other keys, and `instantiate` passes them to the new class: "unexpected keyword
argument 'beta2'" when the job starts, or a silently different configuration where
the class takes `**kwargs` (facebookresearch/optimizers PR 257, "with OmegaConf's
default merge semantics, this merges the new mapping into the inherited
grafting_config").

## How to fix it

Delete the node, then add the new one: `'~key' '+key={_target_: ..., ...}'`; or select
a config group option that holds the whole node (for an experiment config: put the node
in a group and write `- override /group: option` in the experiment's defaults list;
Jasha10 in hydra issue 1896: "dictionaries are merged (as opposed to overwriting), and
there is currently no way to change the strategy").

## When preflight stays silent

* The override gives the same `_target_` as the node (a partial update is what a merge is for),
  or gives every key the node has, or the node has no `_target_`.
* The node is deleted first (`~key`) and added (`+key=...`), or set to a plain value first
  (`key=null` then `++key={...}`, egomimic's launch scripts).
* A key of the mapping is missing from the node: Hydra refuses the line, PF526.
* An experiment whose own defaults list overrides the group that holds the node
  (`- override /model/loss: new`: the option replaces it), or that is a group option
  itself rather than a `_global_` file merged over the node.
"""
    bad_examples = examples("preflight.rules.plan._pf262_examples", "PF262_BAD")
    good_examples = examples("preflight.rules.plan._pf262_examples", "PF262_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for exp in experiment_merges(pctx.project):
            message = (f"this experiment config gives `{exp.key}` a new `_target_` ({exp.new}), but Hydra merges a "
                       f"config file into the composed node instead of replacing it: {listed(exp.stale)} of the "
                       f"{exp.old} node stay and are passed to {exp.new} by `instantiate` (\"unexpected keyword "
                       f"argument\", or settings meant for {exp.old}). Put the node in a config group and select it "
                       f"(`- override /{exp.key.replace('.', '/')}: <option>` in the experiment's defaults list)")
            evidence = []
            if exp.where is not None and exp.where[1] is not None:
                evidence.append(Evidence(line=exp.where[1], path=exp.where[0],
                                         message=f"the node with {exp.old}'s keys"))
            if exp.line is not None:
                yield pctx.location_finding(self, exp.path, exp.line, message, evidence=evidence)
        if not pctx.project.argv:
            return
        try:
            from preflight.adapters.hydra import Composed, compositions
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        for comp in compositions(pctx.project):
            if not isinstance(comp, Composed) or comp.app.script is None:
                continue
            overrides = comp.composition.overrides
            deleted = {ov.key for ov in overrides if ov.prefix == "~"}
            for index, override in enumerate(overrides):
                if override.sweep or override.prefix not in ("", "++") or override.key in deleted:
                    continue
                if any(ov.key == override.key and not isinstance(ov.value, dict) for ov in overrides[:index]):
                    continue  # `key=null` then `++key={...}`: the node was replaced before the mapping came
                merged = node_merge(comp, override.text)
                if merged is None or merged.lacking or not merged.stale:
                    continue
                old, new = merged.node.get("_target_"), merged.value.get("_target_")
                if not (isinstance(old, str) and isinstance(new, str)) or old == new:
                    continue
                message = (f"`{override.text}` gives the node `{merged.key}` a new `_target_` ({new}), but Hydra "
                           f"merges a command-line mapping into the existing node instead of replacing it: "
                           f"{listed(merged.stale)} of the config's {old} node stay and are passed to {new} by "
                           f"`instantiate` (\"unexpected keyword argument\", or settings meant for {old}). Delete "
                           f"then add the node: {merged.replacement}")
                evidence = []
                if merged.where is not None and merged.where[1] is not None:
                    evidence.append(Evidence(line=merged.where[1], path=merged.where[0],
                                             message=f"the node with {old}'s keys"))
                if pctx.project.launch_at is not None:
                    path, line = pctx.project.launch_at
                    yield pctx.location_finding(self, path, line, message, evidence=evidence)
                elif comp.app.line is not None:
                    yield pctx.location_finding(self, comp.app.script.source.display, comp.app.line, message,
                                                evidence=evidence)
