"""PF548 optuna-jobs-on-basic-launcher: the Optuna sweeper's ``n_jobs`` > 1 with Hydra's default basic
launcher, which runs every batch of trials one after another."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_sweeps import group_choices, yaml_configs


@register
class OptunaJobsOnBasicLauncher(PlanRule):
    code = "PF548"
    name = "optuna-jobs-on-basic-launcher"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = "The Optuna sweeper's `n_jobs` > 1 with Hydra's basic launcher: the trials still run one at a time"
    explanation = """
## What it finds

A Hydra config that selects the Optuna sweeper (`override hydra/sweeper: optuna`) and
sets `hydra.sweeper.n_jobs` above 1, while no config of the project and no override
on the launch line chooses a launcher (`hydra/launcher`): the sweep runs on Hydra's
default basic launcher.

## Why it matters

The sweeper's `n_jobs` is how many trials it asks for at a time; the launcher decides
how they run. The basic launcher runs every job of a batch sequentially in the same
process ("Launching 4 jobs locally", then one after another), so a sweep written for
4 GPUs in parallel takes 4 times as long and leaves 3 GPUs idle (hydra issue 1974,
the maintainer's answer: "Are you using the basic launcher? It runs jobs serially").

## How to fix it

Choose a parallel launcher: `override hydra/launcher: joblib` (with
`hydra.launcher.n_jobs`) or a cluster launcher (`submitit_slurm`, `ray`), or set
`n_jobs: 1` to say what actually happens.

## When preflight stays silent

* A defaults list of the project or the launch line (`hydra/launcher=...`) chooses a
  launcher, or `n_jobs` is 1, absent or not a number.
* The sweeper is not Optuna.
"""
    bad_examples = examples("preflight.rules.plan._pf548_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf548_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        if any("hydra/launcher" in tok or tok.startswith("hydra.launcher") for tok in pctx.project.argv):
            return
        configs = list(yaml_configs(pctx))
        if any(group_choices(cfg.data.get("defaults"), "hydra/launcher") for cfg in configs
               if isinstance(cfg.data, dict)):
            return
        for cfg in configs:
            data = cfg.data
            if not isinstance(data, dict) or "optuna" not in group_choices(data.get("defaults"), "hydra/sweeper"):
                continue
            hydra = data.get("hydra")
            sweeper = hydra.get("sweeper") if isinstance(hydra, dict) else None
            jobs = sweeper.get("n_jobs") if isinstance(sweeper, dict) else None
            if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs <= 1:
                continue
            yield pctx.config_finding(
                self, cfg, ("hydra", "sweeper", "n_jobs"),
                f"`hydra.sweeper.n_jobs: {jobs}` asks the Optuna sweeper for {jobs} trials at a time, but no "
                "launcher is chosen, so Hydra's basic launcher runs each batch one trial after another in one "
                f"process: the sweep takes about {jobs} times as long as planned (hydra issue 1974). Add "
                "`override hydra/launcher: joblib` (and `hydra.launcher.n_jobs`) or another parallel launcher")
