"""PF174 hydra-run-dir-env-var-never-set: ``hydra.run.dir`` reads ``${oc.env:VAR}`` (no default) and the
job's launch script, which exports the other variables the configs read, never sets VAR; or (det127) the
run dir reaches VAR through other keys, another ``@hydra.main`` entry file of the project sets VAR in code
(``os.environ[...] =``, ``pyrootutils``/``rootutils.setup_root``) and the launched entry does not."""

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


# Python that sets a variable: os.environ["A"] = ..., os.environ.setdefault("A", ...), os.putenv("A", ...)
_PY_SETS = re.compile(r"""os\.environ\s*\[\s*['"]([A-Za-z_][A-Za-z0-9_]*)['"]\s*\]\s*=[^=]|"""
                      r"""os\.environ\.setdefault\(\s*['"]([A-Za-z_][A-Za-z0-9_]*)['"]|"""
                      r"""os\.putenv\(\s*['"]([A-Za-z_][A-Za-z0-9_]*)['"]""")
# (py)rootutils.setup_root(...) / set_root(...) / autosetup() set PROJECT_ROOT unless told not to (project_root_env_var defaults to True)
_SETUP_ROOT = re.compile(r"\b(?:setup_root|set_root|autosetup)\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)")
_PY_SKIP_DIRS = frozenset({"node_modules", "venv", "env", "site-packages", "__pycache__", "outputs", "wandb", "logs",
                           "tests", "test"})
_MAX_PY_FILES = 400


def _py_sets(text: str) -> set[str]:
    names = {name for groups in _PY_SETS.findall(text) for name in groups if name}
    for args in _SETUP_ROOT.findall(text):
        if not re.search(r"project_root_env_var\s*=\s*False", args):
            names.add("PROJECT_ROOT")
    return names


def _chain_env_vars(config: Any, value: str, depth: int = 0, seen: Optional[set[str]] = None) -> list[tuple[str, str]]:
    """(variable, config key holding it, "" for the value itself) of the default-less ``${oc.env:VAR}``
    the value reads, directly or through the absolute keys it interpolates (at most 8 hops)."""
    from preflight.rules.plan._hydra_run_dirs import ABSENT, lookup, references

    seen = set() if seen is None else seen
    out = [(var, "") for var in _NO_DEFAULT.findall(value)]
    if depth >= 8:
        return out
    for ref in references(value):
        if ref in seen:
            continue
        seen.add(ref)
        target = lookup(config, ref.split("."))
        if target is ABSENT or not isinstance(target, str):
            continue
        for var, key in _chain_env_vars(config, target, depth + 1, seen):
            out.append((var, key or ref))
    return out


def _setting_line(text: str, var: str) -> tuple[int, str]:
    """(line, how) where Python text sets var."""
    for number, line in enumerate(text.splitlines(), 1):
        if any(var in groups for groups in _PY_SETS.findall(line)):
            return number, f"`os.environ[\"{var}\"] = ...`"
    for match in _SETUP_ROOT.finditer(text):
        if var == "PROJECT_ROOT" and "PROJECT_ROOT" in _py_sets(match.group(0)):
            return text.count("\n", 0, match.start()) + 1, "`setup_root(...)`, which exports PROJECT_ROOT"
    return 1, ""


def _imported_names(tree: Any) -> set[str]:
    """Every dotted component the module imports (``from src.train import x`` gives src, train, x): an
    entry that imports another entry file runs that file's top-level code, which may set the variable."""
    import ast

    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                names.update(alias.name.split("."))
        elif isinstance(node, ast.ImportFrom):
            names.update((node.module or "").split("."))
            names.update(alias.name for alias in node.names)
    return names


def _other_entries_setting(pctx: PlanContext, own: set[str], wanted: set[str],
                           imported: set[str]) -> dict[str, tuple[str, int, str]]:
    """{variable: (display path, line, how)} of the project's other ``@hydra.main`` entry files that set a
    wanted variable in code (the first 400 .py files, five folders deep); none for a variable that a file the
    entry imports sets, nor when the files run past the budget."""
    import os

    from preflight.sources import read_text_limited
    from preflight.workspace import display_path

    root = pctx.project.root
    found: dict[str, tuple[str, int, str]] = {}
    blocked: set[str] = set()
    budget = _MAX_PY_FILES
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _PY_SKIP_DIRS)
        if os.path.relpath(folder, root).count(os.sep) >= 5:
            dirs[:] = []
        for name in sorted(names):
            if not name.endswith(".py"):
                continue
            budget -= 1
            if budget < 0:
                return {}
            path = os.path.abspath(os.path.join(folder, name))
            if path in own:
                continue
            try:
                text = read_text_limited(Path(path), errors="replace")
            except OSError:
                continue
            sets = _py_sets(text) & wanted
            module = os.path.basename(folder) if name == "__init__.py" else name[:-3]
            if module in imported:  # the entry imports this file (or package): its top-level code sets the variable
                blocked |= sets
                continue
            if "hydra.main" not in text:
                continue
            for var in sorted(sets):
                line, how = _setting_line(text, var)
                found.setdefault(var, (display_path(Path(path), root), line, how or "in code"))
    return {var: where for var, where in found.items() if var not in blocked}


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
               "the configs' other variables (or, for an entry file, the code another entry file runs) never "
               "sets VAR: Hydra stops before the run")
    explanation = """
## What it finds

A Hydra config whose `hydra.run.dir` (or `hydra.sweep.dir`, for a `-m` launch) holds
`${oc.env:VAR}` with no default, in a job whose launch script exports at least one other
variable that the job's configs read through `oc.env` (the script is where the job's
environment is prepared) but never sets VAR: no `export VAR=...`, no `VAR=...` prefix on the
command, no other file sourced (`source`, `.`, `set -a`, a module or conda environment).

Also (det127): an `@hydra.main` entry file whose run directory reaches `${oc.env:VAR}`
(no default) directly or through the keys it interpolates (`hydra.run.dir:
${paths.log_dir}/...`, `paths.log_dir: ${paths.root_dir}/logs/`, `paths.root_dir:
${oc.env:PROJECT_ROOT}`), when another `@hydra.main` entry file of the project sets VAR in code
before Hydra starts (`os.environ["VAR"] = ...`, `os.environ.setdefault`, or
`pyrootutils`/`rootutils` `setup_root(...)`, which exports PROJECT_ROOT) and this entry file,
the modules of the job and its launch do not. The finding is on the key that holds the
interpolation.

## Why it matters

Hydra resolves the run directory before it calls the task function. `oc.env` without a
default raises when the variable is unset, so the job stops with "Environment variable
'VAR' not found" before any training (DiffCSP issue 3: `hydra.run.dir:
${oc.env:HYDRA_JOBS}/singlerun/...` with HYDRA_JOBS expected from a `.env` file the user had
not created, while the launch exported only PROJECT_ROOT).

A second entry file added to a lightning-hydra-template project (issue 418: `src/my_main.py`
with the template's configs) stops with "Environment variable 'PROJECT_ROOT' not found, full_key:
hydra.run.dir": the template's `train.py` exports PROJECT_ROOT with `pyrootutils.setup_root`, the
new file does not.

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
* Entry-file form: no other entry file sets VAR (nothing shows the project sets it in code);
  the entry file, a module of the job that is not another entry file, or a file the entry
  imports (the other entry included) sets VAR or uses rootutils (for PROJECT_ROOT); the other
  entry passes `project_root_env_var=False`; the launch line runs another entry file or sets
  VAR or `hydra.run.dir`; the project has a `.env` file or the job loads dotenv; more than 400
  Python files would have to be read.
"""
    bad_examples = examples("preflight.rules.plan._pf174_examples", "BAD")
    good_examples = examples("preflight.rules.plan._pf174_examples", "GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        yield from self._launch_script(pctx)
        yield from self._other_entry(pctx)

    def _other_entry(self, pctx: PlanContext) -> Iterable[Finding]:
        """An entry file composes a run dir that needs VAR; another entry file of the project sets VAR in code
        before Hydra starts, this one (and the job's helper modules and launch) does not."""
        import os

        from preflight.rules.plan._hydra_app_support import hydra_main_apps
        from preflight.rules.plan._hydra_run_dirs import run_dir_settings

        apps = list(hydra_main_apps(pctx.project))
        if not apps:
            return
        root = pctx.project.root
        if (Path(root) / ".env").exists():
            return
        shells = job_shell_scripts(pctx)
        if any(_IMPORTS_ENV.search(text) for _path, text in shells):
            return
        texts = {os.path.abspath(os.path.join(root, str(s.source.path))):
                 (s.text if s.text is not None else s.source.text) for s in pctx.scripts}
        if any("dotenv" in text for text in texts.values()):
            return
        argv = " ".join(pctx.project.argv or ())
        shell_sets = {name for _path, text in shells for name in _set_in(text)}
        multirun = _multirun(argv) or any(_multirun(text) for _path, text in shells)
        mode = "sweep" if multirun else "run"
        launched = [os.path.normpath(t) for t in pctx.project.argv or () if t.endswith(".py")]
        for comp, script, _fn in apps:
            entry = os.path.abspath(os.path.join(root, str(script.source.path)))
            if launched and not any(entry.endswith(os.sep + t.lstrip("./")) or entry == os.path.abspath(t)
                                    for t in launched):
                continue  # the launch line runs another entry file
            # the entry and every module of the job that is not another Hydra entry file may set the variable
            python = "\n".join(text for path, text in texts.items() if path == entry or "hydra.main" not in text)
            config = comp.config
            config_dir = comp.config_dir or comp.app.config_dir
            args = [*comp.app.overrides, *pctx.project.script_args(script)]
            if config_dir is None or any(t.lstrip("+").startswith(("hydra.run", "hydra.sweep", "hydra=")) for t in args):
                continue
            primary = next((loaded for item, loaded in comp.item_configs if item.package == ""), None)
            settings = run_dir_settings(pctx, primary, config_dir, mode == "sweep") if primary is not None else None
            if settings is None or settings[0] is None or not settings[1]:
                continue
            holder, ((dir_key, value), *_rest) = settings[0], settings[1]
            needs = [(var, key) for var, key in _chain_env_vars(config, value)
                     if var not in shell_sets and f"{var}=" not in argv and var not in _py_sets(python)
                     and var not in python and not (var == "PROJECT_ROOT" and "rootutils" in python)
                     and var not in _ALWAYS_SET and not var.startswith(_SCHEDULER_PREFIXES)]
            if not needs:
                continue
            others = _other_entries_setting(pctx, {entry}, {var for var, _key in needs}, _imported_names(script.tree))
            for var, key in needs:
                if var not in others:
                    continue
                where, set_line, how = others[var]
                origin = comp.origins.get(tuple(key.split("."))) if key else None
                if origin is not None and origin[1]:
                    path, line = origin[0], int(origin[1])
                else:
                    path, line = holder.path, holder.line_of(tuple(dir_key), nearest=True) or 1
                via = f"`{key}` is `${{oc.env:{var}}}` with no default and `hydra.{mode}.dir` (`{value}`) reads it" \
                    if key else f"`hydra.{mode}.dir` is `{value}`: `${{oc.env:{var}}}` has no default"
                yield pctx.location_finding(
                    self, path, line,
                    f"{via}; {where}, another Hydra entry file of the project, sets {var} ({how}) "
                    f"before Hydra starts, but {script.source.path} does not and nothing in its launch sets it: "
                    f"Hydra resolves the {mode} directory before the task starts and stops with \"Environment "
                    f"variable '{var}' not found\" (lightning-hydra-template issue 418). Set {var} in "
                    f"{script.source.path} the way {where} does, or give the interpolation a default",
                    evidence=[Evidence(set_line, f"{where} sets {var}", path=where)])
                break

    def _launch_script(self, pctx: PlanContext) -> Iterable[Finding]:
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
