"""PF572 optuna-settings-outside-sweeper: a config that selects the Optuna sweeper but writes
its settings (``direction``, ``n_trials``, ``search_space``...) at the top level, not under
``hydra.sweeper``."""

from __future__ import annotations

import re
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_app_support import config_files
from preflight.rules.plan._hydra_sweeps import selects_optuna

# hydra_plugins/hydra_optuna_sweeper/config.py OptunaSweeperConf fields
_SWEEPER_KEYS = ("direction", "n_trials", "search_space", "study_name", "n_jobs", "storage", "params",
                 "custom_search_space")
_DECISIVE = ("direction", "n_trials", "search_space")


@register
class OptunaSettingsOutsideSweeper(PlanRule):
    code = "PF572"
    name = "optuna-settings-outside-sweeper"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = "The Optuna sweeper's settings are written at the top level of the config, not under hydra.sweeper"
    explanation = """
## What it finds

A Hydra config whose defaults list selects the Optuna sweeper (`override hydra/sweeper:
optuna`) and which writes the sweeper's own settings (`direction`, `n_trials`,
`search_space`, `study_name`, `n_jobs`, `storage`, `params`) at its top level, where they
are ordinary application keys, while `hydra.sweeper` does not set them.

## Why it matters

The sweeper reads only `hydra.sweeper` (hydra_plugins/hydra_optuna_sweeper/config.py
`OptunaSweeperConf`). The top-level copies change nothing: the study keeps its defaults,
`direction: minimize` and 20 trials of an empty search space, so a search for the best
accuracy minimises it. Reported in facebookresearch/hydra#2047 ("Optuna sweeper direction
is always minimize").

## How to fix it

Move the keys under `hydra: sweeper:` (`hydra.sweeper.direction: maximize`,
`hydra.sweeper.params` for the search space).

## When preflight stays silent

* The keys are under `hydra.sweeper`, or `hydra.sweeper` sets the same keys.
* Fewer than two sweeper keys at the top level, or none of `direction`, `n_trials`,
  `search_space` (one `direction` key can be the app's own).
* An audited script reads `cfg.direction` / `cfg.n_trials` itself.
"""
    bad_examples = examples("preflight.rules.plan._pf572_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf572_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        configs = config_files(pctx)
        for cfg in configs.values():
            data = cfg.data
            if not isinstance(data, dict) or not selects_optuna(data.get("defaults")):
                continue
            top = [k for k in _SWEEPER_KEYS if k in data]
            if len(top) < 2 or not any(k in top for k in _DECISIVE):
                continue
            hydra = data.get("hydra")
            sweeper = hydra.get("sweeper") if isinstance(hydra, dict) else None
            if isinstance(sweeper, dict) and any(k in sweeper for k in top):
                continue
            if any(re.search(rf"\.{k}\b|\[['\"]{k}['\"]\]", s.source.text) for s in pctx.scripts for k in top):
                continue
            first = "direction" if "direction" in top else top[0]
            shown = ", ".join(f"`{k}`" for k in top)
            message = (f"this config selects the Optuna sweeper but writes its settings ({shown}) at the top "
                       "level, where they are plain application keys: the sweeper reads only `hydra.sweeper`, "
                       "so the study runs with its defaults (direction minimize, its default trials and search "
                       "space). Move them under `hydra: sweeper:`")
            yield pctx.config_finding(self, cfg, (first,), message)
