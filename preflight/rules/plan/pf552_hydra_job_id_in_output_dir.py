"""PF552 hydra-job-id-in-output-dir: ``hydra.run.dir``/``hydra.sweep.dir`` built from ``hydra.job.id``/``num``."""

from __future__ import annotations

import re
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import hydra_yaml_configs

_JOB_KEY = re.compile(r"\$\{\s*hydra[.:]\s*job\.(id|num)\s*\}")


def _multirun(pctx: PlanContext) -> bool:
    return any(tok in ("-m", "--multirun") for tok in pctx.project.argv)


@register
class HydraJobIdInOutputDir(PlanRule):
    code = "PF552"
    name = "hydra-job-id-in-output-dir"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("`hydra.run.dir` or `hydra.sweep.dir` interpolates `hydra.job.id`/`hydra.job.num`, which only "
               "exist per job of a multirun (`sweep.subdir`)")
    explanation = """
## What it finds

A Hydra config whose `hydra.run.dir` or `hydra.sweep.dir` contains `${hydra.job.id}` or
`${hydra.job.num}` (or `${hydra:job.id}`).

## Why it matters

`hydra.job.id` and `hydra.job.num` are `???` until a launcher starts the jobs of a
multirun, and are set per job. A single run never sets them: Hydra 1.0 resolved
`hydra.run.dir` to `out/???` without a word, so every run wrote its logs, `.hydra` config
and checkpoints into that one folder (hydra issue 1302: "there are no error raised, but
`${hydra.job.id}` from `hydra.run.dir` is `???`"); current Hydra stops at start-up with
`InterpolationToMissingValueError`. `hydra.sweep.dir` is resolved once for the whole sweep,
before any job exists: `MissingMandatoryValue: hydra.job.id`.

## How to fix it

Use them only in `hydra.sweep.subdir` (the per-job folder: `subdir: ${hydra.job.num}`), and
build `hydra.run.dir` from `${now:...}`, `${hydra.job.name}` or an override.

## When preflight stays silent

* `hydra.sweep.subdir` (where they belong).
* `hydra.run.dir` in a job the launch line starts as a multirun (`-m`): the run dir is unused.
* The config (or an override) sets `hydra.job.id` itself (`job: {id: ${now:%Y.%m.%d}-${now:%H-%M}}`).
"""
    bad_examples = examples("preflight.rules.plan._pf552_examples", "PF552_BAD")
    good_examples = examples("preflight.rules.plan._pf552_examples", "PF552_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        multirun = _multirun(pctx)
        configs = hydra_yaml_configs(pctx)
        given = {key for key in ("id", "num") if any(tok.lstrip("+").startswith(f"hydra.job.{key}=")
                                                     for tok in pctx.project.argv)}
        for cfg in configs:
            hydra = cfg.data.get("hydra") if isinstance(cfg.data, dict) else None
            job = hydra.get("job") if isinstance(hydra, dict) else None
            if isinstance(job, dict):
                given |= {key for key in ("id", "num") if job.get(key) not in (None, "???")}
        for cfg in configs:
            data = cfg.data
            hydra = data.get("hydra") if isinstance(data, dict) else None
            if not isinstance(hydra, dict):
                continue
            for part in ("run", "sweep"):
                if part == "run" and multirun:
                    continue
                node = hydra.get(part)
                value = node.get("dir") if isinstance(node, dict) else None
                match = _JOB_KEY.search(value) if isinstance(value, str) else None
                if match is None or match.group(1) in given:
                    continue
                key = f"hydra.job.{match.group(1)}"
                when = ("a single run never sets it: Hydra 1.0 resolves the folder to `???` (every run writes into "
                        "the same one), current Hydra stops at start-up with InterpolationToMissingValueError"
                        if part == "run" else
                        "the sweep folder is resolved once, before any job exists: the multirun stops with "
                        f"MissingMandatoryValue: {key}")
                yield pctx.config_finding(
                    self, cfg, ("hydra", part, "dir"),
                    f"`hydra.{part}.dir` uses `${{{key}}}`, which Hydra sets only per job of a multirun; {when}. "
                    f"Use it in `hydra.sweep.subdir` and build `hydra.{part}.dir` from `${{now:...}}` or an override")
