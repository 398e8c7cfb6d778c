"""PF571 wandb-sweep-command-without-args: a W&B sweep over a Hydra app whose ``command``
never passes the sampled parameters (no ``${args_no_hyphens}``)."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_app_support import hydra_main_function
from preflight.rules.plan._launch_support import launched_script


@register
class WandbSweepCommandWithoutArgs(PlanRule):
    code = "PF571"
    name = "wandb-sweep-command-without-args"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra", "wandb")
    summary = "A W&B sweep's `command` never passes the sampled parameters to the Hydra app it runs"
    explanation = """
## What it finds

A W&B sweep configuration (`program`, `parameters` and a `command` list) whose `command`
has none of the argument macros (`${args}`, `${args_no_hyphens}`, `${args_json}`, ...)
while its `program` is an `@hydra.main` app among the audited files.

## Why it matters

The agent builds each run's command line from `command` alone: without an argument macro
it starts `python train.py` with no overrides. A Hydra app takes its configuration only
from its config files and its command line, never from `wandb.config`, so every run
composes the defaults and the sweep repeats one configuration while the W&B UI shows the
sampled values it never passed on. Reported in wandb/wandb#4686; W&B's Hydra guide uses
`command: [${env}, python, ${program}, ${args_no_hyphens}]`.

## How to fix it

Add `- ${args_no_hyphens}` to `command` (Hydra's `key=value` overrides; `${args}` would
pass `--key=value`, which Hydra rejects).

## When preflight stays silent

* `command` is absent or has an argument macro.
* The program is not an `@hydra.main` app among the audited files (a plain W&B script may
  read the sampled values from `wandb.config`).
"""
    bad_examples = examples("preflight.rules.plan._pf571_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf571_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for cfg in pctx.configs:
            data = cfg.data
            if not isinstance(data, dict):
                continue
            program, parameters, command = data.get("program"), data.get("parameters"), data.get("command")
            if not (isinstance(program, str) and program.endswith(".py") and isinstance(parameters, dict)
                    and parameters and isinstance(command, list) and command):
                continue
            if any(isinstance(part, str) and "${args" in part for part in command):
                continue
            script = launched_script(pctx, program)
            if script is None:
                continue
            fn = hydra_main_function(script, None)
            if fn is None:
                continue
            names = ", ".join(str(k) for k in list(parameters)[:4])
            message = (f"this sweep's command ({' '.join(str(p) for p in command)}) has no argument macro: the W&B "
                       f"agent starts `{program}` without the sampled values ({names}), and the Hydra app reads "
                       "its configuration only from its config files and command line, so every run trains the "
                       "defaults. Add `- ${args_no_hyphens}` to `command`")
            evidence = [Evidence(line=fn.lineno, path=script.source.display, message="the @hydra.main app the sweep runs")]
            yield pctx.config_finding(self, cfg, ("command",), message, evidence=evidence)
