"""PF526 hydra-override-of-missing-key: a launch override of a key the composed Hydra config lacks,
written without ``+``/``++``."""

from __future__ import annotations

import re
from typing import Iterable, Optional

from preflight.diagnostics import Category, Evidence, FileError, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_dict_override import NodeMerge, listed, node_merge
from preflight.rules.plan._hydra_override_keys import closest, unknown_hydra_key

# Hydra's own message (and the composer's, which repeats it)
_COULD_NOT = re.compile(r"Could not override '([^']+)'\.\s*To append to your config use \+(\S+)")


@register
class HydraOverrideOfMissingKey(PlanRule):
    code = "PF526"
    name = "hydra-override-of-missing-key"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = "The launch overrides a key that the composed Hydra config does not have, without `+`/`++`"
    explanation = """
## What it finds

A command-line override `a.b=value` of a `@hydra.main` app whose composed config
(primary config, defaults list, the launch's other overrides; under `--multirun`
the default option of each swept group) has no key `a.b`.

## Why it matters

Hydra's configs are in struct mode: an override may only change a key that
exists. The run stops before the app starts with `ConfigCompositionException:
Could not override 'a.b'. To append to your config use +a.b=value` (SkyRL PR 974:
`trainer.rope_scaling.rope_type=yarn` on an empty `rope_scaling: {}`). Under
`--multirun` the primary config is composed with the default option of a swept
group before any job starts, so an override that every swept option accepts still
fails when the default option lacks the key (hydra issue 2888).

The same holds for Hydra's own settings: `hydra.ouput_subdir=null` (a misspelling of
`output_subdir`) names a key that Hydra's config (`HydraConf`, hydra/conf/__init__.py)
does not have. hydra-core 1.1 and later stop with "Could not override
'hydra.ouput_subdir' ... Key 'ouput_subdir' not in 'HydraConf'" (checked with 1.3.8);
1.0 accepted it silently and the setting did nothing (hydra issue 1457). Only the
nodes whose keys Hydra fixes are checked (`hydra.run`, `hydra.sweep`, `hydra.job`,
...); plugin nodes (`hydra.launcher`, `hydra.sweeper`, logging, callbacks) take any key.

A mapping given to a node that exists (`optimizer={_target_:torch.optim.SGD,lr:0.1,momentum:0.9}`
on an `optimizer` node that holds AdamW's settings) is refused the same way for each of its keys the
node lacks (`momentum`): Hydra merges a mapping into the node (`OmegaConf.update(..., merge=True)`)
instead of replacing it. The finding says so, and that `++` would keep the node's other keys
(facebookresearch/optimizers PR 257).

## How to fix it

Write `+a.b=value` (add a key) or `++a.b=value` (add or override), or give the
config the key (`dropout: 0.0`, or `???` in the default option). To replace a whole node with a
mapping, delete then add it: `'~optimizer' '+optimizer={...}'`.

## When preflight stays silent

* The key exists in the composed config (or in Hydra's own config), or the override
  has `+`/`++` (a misspelled appended key is PF258's).
* The config could not be composed for another reason (that is reported as an
  input error).
"""
    bad_examples = examples("preflight.rules.plan._pf526_examples", "PF526_BAD")
    good_examples = examples("preflight.rules.plan._pf526_examples", "PF526_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        try:
            from preflight.adapters.hydra import compositions
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        yield from self._hydra_keys(pctx)
        from preflight.adapters.hydra_added_keys import plan_compositions

        for index, comp in enumerate(compositions(pctx.project)):
            if not isinstance(comp, FileError) or comp.line is None:
                continue
            found = _COULD_NOT.search(comp.message)
            if found is None:
                continue
            key, text = found.group(1), found.group(2)
            merged = _node_merge(plan_compositions(pctx.project), index, text)
            if merged is not None and merged.lacking:
                where = f" ({merged.where[0]}:{merged.where[1]})" if merged.where and merged.where[1] else ""
                stale = (f"; and `++` would not help: the merged node would keep {listed(merged.stale)} of the "
                         "config beside the new values" if merged.stale else "")
                message = (f"the launch gives `{key}` a mapping, but the config already has the node `{key}`{where}: "
                           f"Hydra merges a mapping into the existing node key by key instead of replacing it, and "
                           f"struct mode refuses {listed(merged.lacking)}, which the node does not have, so Hydra "
                           f"stops with \"Could not override '{key}'\" before the app runs{stale}. To replace the "
                           f"node, delete it then add it: {merged.replacement}")
            else:
                message = (f"the launch overrides `{key}`, which the composed Hydra config of this app does not "
                           f"have: Hydra stops with \"Could not override '{key}'\" before the app runs. Write "
                           f"`+{text}` (add the key) or `++{text}` (add or override), or give the config the key")
            yield pctx.location_finding(self, comp.path, comp.line, message)

    def _hydra_keys(self, pctx: PlanContext) -> Iterable[Finding]:
        """Plain ``hydra.a.b=value`` overrides of a key Hydra's own config does not have (the
        composer leaves Hydra's settings out of the job's config, so they are checked here)."""
        from preflight.rules.plan._hydra_apps import hydra_main_apps

        project = pctx.project
        if not project.argv:
            return
        seen: set = set()
        for comp in hydra_main_apps(pctx):
            script = comp.app.script
            for tok in project.script_args(script):
                head, eq, _ = tok.partition("=")
                if not eq or not head.startswith("hydra.") or "$" in tok or head in seen:
                    continue
                unknown = unknown_hydra_key(head)
                if unknown is None:
                    continue
                seen.add(head)
                part, allowed = unknown
                near = closest(part, allowed)
                meant = f" (`{near}` was probably meant)" if near else ""
                message = (f"the launch overrides `{head}`, but Hydra's own config has no `{part}` there{meant}: "
                           f"hydra-core 1.1 and later stop with \"Could not override '{head}'\" before the app runs "
                           f"(1.0 accepted it and the setting did nothing). Spell the key as Hydra's config has it")
                evidence = [Evidence(line=comp.app.line or 1, path=script.source.display,
                                     message="@hydra.main composes Hydra's config with this override")]
                if project.launch_at is not None:
                    path, line = project.launch_at
                    yield pctx.location_finding(self, path, line, message, evidence=evidence)
                else:
                    yield pctx.location_finding(self, script.source.display, comp.app.line or 1, message,
                                                evidence=evidence)


def _node_merge(plans: list, index: int, text: str) -> Optional[NodeMerge]:
    """The merge of ``text`` into an existing node, read on the app's composition for the plan (the
    refused keys composed as ``++``), else None."""
    from preflight.adapters.hydra import Composed

    if index >= len(plans) or not isinstance(plans[index], Composed):
        return None
    return node_merge(plans[index], text)
