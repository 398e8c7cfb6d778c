"""PF174 hydra-run-dir-env-var-never-set: ``hydra.run.dir`` reads ``${oc.env:VAR}`` (no default) and the
job's launch script, which exports the other variables the configs read, never sets VAR."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._job_batch_scripts import job_shell_scripts
from preflight.rules.plan._yaml_job_files import yaml_files

_ANY_ENV = re.compile(r"\$\{\s*(?:oc\.)?env\s*:\s*([A-Za-z_][A-Za-z0-9_]*)")
_NO_DEFAULT = re.compile(r"\$\{\s*oc\.env\s*:\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}")
# a shell line that sets a variable: `export A=1`, `A=1`, `export A`, `A=1 python ...`, `declare -x A=...`
_SETS = re.compile(r"(?:^|[\s;&|(])(?:export\s+|declare\s+-x\s+|readonly\s+)?([A-Za-z_][A-Za-z0-9_]*)=", re.M)
_EXPORTS = re.compile(r"^\s*export\s+([A-Za-z_][A-Za-z0-9_ \t]*)$", re.M)
# the script takes variables from elsewhere: another file sourced, every assignment exported, an env file
_IMPORTS_ENV = re.compile(r"(?:^|[\s;&|])(?:source|\.)\s+\S|set\s+-a|set\s+-o\s+allexport|env-file|dotenv|"
                          r"\bconda\s+activate|module\s+load|\beval\b", re.M)


# set by the system or the scheduler for every job
_ALWAYS_SET = ("HOME", "USER", "PWD", "PATH", "SHELL", "LOGNAME", "HOSTNAME", "TMPDIR", "LANG")
_SCHEDULER_PREFIXES = ("SLURM_", "PBS_", "LSB_", "SGE_", "OMPI_", "PMI_", "CUDA_", "LOCAL_RANK", "RANK", "WORLD_")


def _set_in(text: str) -> set[str]:
    names = set(_SETS.findall(text))
    for line in _EXPORTS.findall(text):
        names |= set(line.split())
    return names


def _dir_value(data: Any, mode: str) -> Optional[str]:
    node = data.get("hydra") if isinstance(data, dict) else None
    node = node.get(mode) if isinstance(node, dict) else None
    value = node.get("dir") if isinstance(node, dict) else None
    return value if isinstance(value, str) else None


def _multirun(text: str) -> bool:
    return bool(re.search(r"(?:^|\s)(?:-m|--multirun)(?:\s|$)|hydra\.mode=MULTIRUN", text))


@register
class HydraRunDirEnvVarNeverSet(PlanRule):
    code = "PF174"
    name = "hydra-run-dir-env-var-never-set"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("`hydra.run.dir` reads `${oc.env:VAR}` without a default, and the launch script that exports "
               "the configs' other variables never sets VAR: Hydra stops before the run")
    explanation = """
## What it finds

A Hydra config whose `hydra.run.dir` (or `hydra.sweep.dir`, for a `-m` launch) holds
`${oc.env:VAR}` with no default, in a job whose launch script exports at least one other
variable that the job's configs read through `oc.env` (the script is where the job's
environment is prepared) but never sets VAR: no `export VAR=...`, no `VAR=...` prefix on the
command, no other file sourced (`source`, `.`, `set -a`, a module or conda environment).

## Why it matters

Hydra resolves the run directory before it calls the task function. `oc.env` without a
default raises when the variable is unset, so the job stops with "Environment variable
'VAR' not found" before any training (DiffCSP issue 3: `hydra.run.dir:
${oc.env:HYDRA_JOBS}/singlerun/...` with HYDRA_JOBS expected from a `.env` file the user had
not created, while the launch exported only PROJECT_ROOT).

## How to fix it

Export VAR in the launch script beside the other variables, or give the interpolation a
default (`${oc.env:HYDRA_JOBS,outputs}`).

## When preflight stays silent

* The interpolation has a default, or the variable is set by the script (or on its command
  line) under any form.
* The script sources another file, exports everything (`set -a`), loads a module or conda
  environment, or `eval`s; the project has a `.env` file; or a Python script of the job names
  the variable or loads a dotenv file (it may set it before Hydra starts).
* The variable is one the system or a scheduler sets (`HOME`, `USER`, `SLURM_*`, ...).
* The script exports none of the configs' `oc.env` variables (the environment is then
  expected from the caller).
"""
    bad_examples = examples("preflight.rules.plan._pf174_examples", "BAD")
    good_examples = examples("preflight.rules.plan._pf174_examples", "GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        configs = yaml_files(pctx, _ANY_ENV)
        runs = [cfg for _text, cfg in configs if _dir_value(cfg.data, "run") or _dir_value(cfg.data, "sweep")]
        if not runs:
            return
        shells = job_shell_scripts(pctx)
        if not shells or any(_IMPORTS_ENV.search(text) for _path, text in shells):
            return
        root = pctx.project.root
        if (Path(root) / ".env").exists():
            return
        read_by_configs = {name for text, _cfg in configs for name in _ANY_ENV.findall(text)}
        python = "\n".join(s.text if s.text is not None else s.source.text for s in pctx.scripts)
        if "dotenv" in python:
            return
        argv = " ".join(pctx.project.argv or ())
        for path, text in shells:
            set_here = _set_in(text)
            prepared = sorted(set_here & read_by_configs)
            if not prepared:
                continue
            mode = "sweep" if _multirun(text) or _multirun(argv) else "run"
            for cfg in runs:
                value = _dir_value(cfg.data, mode)
                if value is None:
                    continue
                for var in dict.fromkeys(_NO_DEFAULT.findall(value)):
                    if var in set_here or f"{var}=" in argv or var in python or var in _ALWAYS_SET \
                            or var.startswith(_SCHEDULER_PREFIXES):
                        continue
                    line = next((i for i, ln in enumerate(text.splitlines(), 1)
                                 if any(re.search(rf"\b{p}=", ln) or re.search(rf"export\s.*\b{p}\b", ln)
                                        for p in prepared)), 1)
                    yield pctx.config_finding(
                        self, cfg, ("hydra", mode, "dir"),
                        f"`hydra.{mode}.dir` is `{value}`: `${{oc.env:{var}}}` has no default, and {path}, which "
                        f"exports {', '.join(prepared)} for the configs, never sets {var}: Hydra resolves the "
                        f"{mode} directory before the task starts and stops with \"Environment variable '{var}' "
                        f"not found\" (DiffCSP issue 3). Export {var} in {path} or give the interpolation a "
                        f"default (`${{oc.env:{var},outputs}}`)",
                        evidence=[Evidence(line, f"{path} prepares the environment without {var}", path=path)])
                    break
            return
