"""PF191 hydra-env-set-interpolates-task-config: a ``hydra.job.env_set`` value interpolating a key of
the task config, which released hydra-core (1.3.5 and earlier) cannot resolve when it sets the job's
environment."""

from __future__ import annotations

import re
from typing import Any, Iterable, Iterator

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_tree import config_lookup
from preflight.rules.plan._yaml_job_files import yaml_files

_ENV_SET = re.compile(r"^\s*env_set\s*:", re.MULTILINE)
# a plain `${key.path}` interpolation: no resolver (`oc.env:`, `now:`, `hydra:`), not relative (`${.x}`)
_NODE_INTERPOLATION = re.compile(r"\$\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+|\[[^\]]*\])*)\s*\}")


def _task_interpolations(env_set: Any) -> Iterator[tuple[str, str]]:
    """(variable, interpolated key path) of each env_set value that interpolates a key outside `hydra`."""
    if not isinstance(env_set, dict):
        return
    for var, value in env_set.items():
        if not isinstance(value, str):
            continue
        for found in _NODE_INTERPOLATION.finditer(value):
            key = found.group(1)
            if key.split(".")[0].split("[")[0] != "hydra":
                yield str(var), key
                break


@register
class HydraEnvSetInterpolatesTaskConfig(PlanRule):
    code = "PF191"
    name = "hydra-env-set-interpolates-task-config"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A `hydra.job.env_set` value interpolates a task-config key, which released hydra-core cannot "
               "resolve when it sets the job's environment")
    explanation = """
## What it finds

A YAML config setting `hydra.job.env_set.VAR: ${some.task.key}`: an environment variable of
the job whose value interpolates a key of the task config (anything outside `hydra.`), in a
project that does not state hydra-core 1.4 or later.

## Why it matters

`run_job` deep-copies the Hydra config (`hydra_cfg = copy.deepcopy(HydraConfig.instance().cfg)`,
hydra/core/utils.py:139 at v1.3.2 and at v1.3.5, the latest release) and then sets the job's
environment from the copy's `hydra.job.env_set` (utils.py:183, `env_override` :297-310; the
same order in v1.0.7 and v1.1.0). `HydraConfig.set_config` keeps `OmegaConf.masked_copy(cfg,
"hydra")` (hydra/core/hydra_config.py:24 at v1.2.0), and the deep copy of it holds only the
`hydra` node, so `${project}` has nothing to resolve against and the job
fails with an interpolation error at launch instead of exporting the variable (Hydra issue
2800, "Interpolation doesn't work within hydra.job.env_set"). The fix, PR 3256 (commit
b717af21, resolve env_set while the masked config still has its parent), is on Hydra's main
branch only: no 1.3.x tag contains it.

## How to fix it

Set the variable in the launch command or script, write its value literally, or pass the
task value in the app (`wandb.init(project=cfg.project)`).

## When preflight stays silent

* The value is literal, or interpolates Hydra's own keys (`${hydra.job.name}`,
  `${hydra:runtime.output_dir}`), a resolver (`${oc.env:HOME}`, `${now:...}`), or a relative
  key (`${.other}`).
* The project states hydra-core 1.4 or later.
"""
    bad_examples = examples("preflight.rules.plan._pf191_examples", "BAD")
    good_examples = examples("preflight.rules.plan._pf191_examples", "GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            found = pctx.version("hydra-core", script)
            if found is not None and found.at_least(1, 4):
                return
        for _text, cfg in yaml_files(pctx, _ENV_SET):
            env_set = config_lookup(cfg.data, ("hydra", "job", "env_set"))
            for var, key in _task_interpolations(env_set):
                yield pctx.config_finding(self, cfg, ("hydra", "job", "env_set", var), (
                    f"`hydra.job.env_set.{var}` interpolates the task key `{key}`: released hydra-core (1.3.5 "
                    "and earlier) resolves env_set on a copy of the Hydra config that has lost the task "
                    "config, so the interpolation fails when the job's environment is set (Hydra issue 2800, "
                    f"fixed only on main by PR 3256). Set {var} in the launch command, or pass "
                    f"`cfg.{key}` to the code that reads it"))
