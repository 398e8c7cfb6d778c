"""PF616 hydra-parallel-runs-share-run-dir: a launch script starts several runs of a Hydra app at
once (background jobs) while ``hydra.run.dir`` is a timestamp to the second with nothing per run."""

from __future__ import annotations

import os
import re
import shlex
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_app_support import lookup
from preflight.rules.plan._hydra_apps import hydra_main_apps
from preflight.rules.plan._pf616_arrays import array_starts, array_tasks
from preflight.rules.plan.pf575_hydra_run_dir_key_not_composed import composed_run_dirs
from preflight.sources import read_text_limited

_INTERP = re.compile(r"\$\{([^{}]*)\}")
_SHELL_SUFFIXES = (".sh", ".slurm", ".sbatch", ".bash")
_SHELL_DIRS = ("", "scripts", "script", "bash", "jobs")
# interpolations that differ between runs started together (an environment value, Hydra's job fields)
_PER_RUN = ("oc.env:", "env:", "hydra:", "hydra.job.", "hydra.runtime.", "uuid")
# ... except the ones every run of one launch reads alike: an environment variable that names a place or
# the user (lightning-hydra-template's ``root_dir: ${oc.env:PROJECT_ROOT}`` under ``paths.log_dir``), and
# Hydra's job name and working directory. An environment name that says id, task, job, rank or run is per run.
_FIXED_ENV = re.compile(r"ROOT|HOME|DIR|PATH|USER|SCRATCH|WORK|DATA|CACHE|PROJECT", re.IGNORECASE)
_RUN_ENV = re.compile(r"ID|TASK|JOB|RANK|RUN|SEED|PID|UUID|RANDOM|STAMP|TIME|EXP|NAME|TAG", re.IGNORECASE)
_FIXED_HYDRA = ("job.name", "runtime.cwd", "runtime.version")


def _fixed_for_every_run(inner: str) -> bool:
    """An interpolation (``oc.env:PROJECT_ROOT``, ``hydra:job.name``) that every run of a launch resolves alike."""
    if inner.startswith(("oc.env:", "env:")):
        name = inner.split(":", 1)[1].split(",", 1)[0].strip()
        return bool(_FIXED_ENV.search(name)) and not _RUN_ENV.search(name)
    if inner.startswith(("hydra:", "hydra.")):
        return inner.split(":", 1)[-1].removeprefix("hydra.").strip() in _FIXED_HYDRA
    return False


class _Launch:
    """Background starts of one script found in one shell file."""

    def __init__(self, path: str, line: int, text: str, overrides: dict[str, str], array: str = "") -> None:
        self.path, self.line, self.text, self.overrides = path, line, text, overrides
        self.array = array  # the `#SBATCH --array` spec when the starts are the tasks of a job array


def _background_starts(text: str, script: str) -> Optional[list[tuple[int, str, list[str], bool]]]:
    """(line, command, tokens after the script, in a multi-pass loop) of every line that starts
    ``script`` in the background (``... train.py ... &``); None when a loop that starts it sleeps
    between starts."""
    out: list[tuple[int, str, list[str], bool]] = []
    loops: list[dict[str, Any]] = []
    joined: list[tuple[int, str]] = []
    pending: Optional[tuple[int, str]] = None
    for number, raw in enumerate(text.splitlines(), 1):  # join `\` continuation lines
        if pending is not None:
            pending = (pending[0], pending[1] + " " + raw.strip())
        else:
            pending = (number, raw.strip())
        if pending[1].endswith("\\"):
            pending = (pending[0], pending[1][:-1].rstrip())
            continue
        joined.append(pending)
        pending = None
    if pending is not None:
        joined.append(pending)
    for number, raw in joined:
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        head = re.match(r"^(for|while|until)\b(.*?)(;\s*do\b|$)(.*)$", line)
        body = line
        if head:
            words = head.group(2)
            many = True
            m = re.match(r"^\s*\w+\s+in\s+(.*?)\s*;?\s*$", words)
            if head.group(1) == "for" and m and "$" not in m.group(1) and "{" not in m.group(1) \
                    and "`" not in m.group(1):
                many = len(m.group(1).split()) > 1
            loops.append({"many": many, "sleep": False})
            body = head.group(4).strip()
        body = re.sub(r"^do\s+", "", body)
        if re.search(r"(^|[;\s])sleep\s", body) and loops:
            loops[-1]["sleep"] = True
        closes = bool(re.search(r"(^|[;\s])done\s*(&\s*)?$", body))
        body = re.sub(r"(^|[;\s])done\s*(&\s*)?$", "", body).strip().rstrip(";").strip()
        if body.endswith("&") and not body.endswith("&&"):
            try:
                tokens = shlex.split(body[:-1])
            except ValueError:
                tokens = body[:-1].split()
            at = next((i for i, t in enumerate(tokens) if os.path.basename(t) == script), None)
            if at is not None and at > 0:
                in_loop = any(lp["many"] for lp in loops)
                out.append((number, body, tokens[at + 1:], in_loop))
        if closes and loops:
            if loops[-1]["sleep"] and any(o[3] for o in out):
                return None
            loops.pop()
    return out


def _overrides(tokens: list[str]) -> dict[str, str]:
    """The ``key=value`` overrides among the tokens after the script (``+``/``~`` prefixes dropped)."""
    out = {}
    for tok in tokens:
        if "=" in tok and not tok.startswith("-"):
            key, _, value = tok.partition("=")
            out[key.lstrip("+~")] = value
    return out


def _resolves_per_run(config: dict[str, Any], value: str, overridden: set[str], depth: int = 0) -> bool:
    """``value`` interpolates something that differs between the runs: an environment value, a Hydra
    job field, or a key the runs override (followed through the config's own interpolations)."""
    for inner in _INTERP.findall(value):
        inner = inner.strip()
        if inner.startswith("now:") or (_fixed_for_every_run(inner) and inner not in overridden):
            continue
        if inner.startswith(_PER_RUN) or inner in overridden:
            return True
        if ":" in inner:  # another resolver: not known to be the same in every run
            return True
        nested = lookup(config, tuple(inner.split(".")))
        if isinstance(nested, str) and depth < 4 and _resolves_per_run(config, nested, overridden, depth + 1):
            return True
        if any(key.startswith(inner + ".") for key in overridden):
            return True
    return False


def _second_resolution(value: str) -> bool:
    """``${now:...}`` formats that give the same text to two runs started in the same second (no ``%f``)."""
    formats = [inner.strip()[4:] for inner in _INTERP.findall(value) if inner.strip().startswith("now:")]
    return bool(formats) and not any("%f" in f for f in formats)


@register
class HydraParallelRunsShareRunDir(PlanRule):
    code = "PF616"
    name = "hydra-parallel-runs-share-run-dir"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A launch script starts several runs of a Hydra app at once while `hydra.run.dir` is a "
               "timestamp to the second with nothing per run: runs started in the same second share one folder")
    explanation = """
## What it finds

A shell script of the project that starts an `@hydra.main` app several times in the
background at once (`python train.py seed=$seed &` in a `for` loop, or several `... &`
lines), while the app's `hydra.run.dir` (in the primary config, in the `hydra` option
it selects, or overridden on those lines) is built from `${now:...}` formats with no
sub-second field and contains nothing that differs between the runs: no key the lines
override, no `${oc.env:...}`, no `${hydra:job.override_dirname}` or other job field.

The tasks of a SLURM job array count the same way: a batch script with
`#SBATCH --array=0-7` (more than one task at a time: `%1` runs them one by one) that
runs the app (`srun python train.py seed=${SLURM_ARRAY_TASK_ID}`) starts one run per
task, and the scheduler starts them together (hydra issue 2925).

## Why it matters

Hydra resolves the run folder when each run starts; the `now` resolver is
`datetime.now().strftime(pattern)` (hydra/core/utils.py `setup_globals`), so with
`%Y-%m-%d/%H-%M-%S` two runs started within the same second get the same folder.
Hydra does not check whether the folder is in use (`run_job` creates it with
`exist_ok=True`): the runs write their `.hydra/config.yaml`, their log and their
checkpoints into one directory and overwrite each other (hydra issue 1254, "within each
slurm job, I want to invoke multiple runs ... in parallel"; ProFam issue "Different runs
with same timestamp interfere with each others checkpoint dirs"). A `ckpt_path="last"`
resume then continues another run's checkpoint.

## How to fix it

Put something per run into the folder: the overridden value (`..._seed${seed}`),
`${hydra:job.override_dirname}`, or an id fixed per run
(`${oc.env:SLURM_ARRAY_TASK_ID}`); or start the runs as one multirun
(`python train.py -m seed=0,1,2,3`), whose jobs get their own sub-folders.

## When preflight stays silent

* The run folder interpolates a key the background lines override, an environment
  value, a Hydra job field, or a resolver preflight does not know; or its `${now:...}`
  has `%f`; or it has no `${now:...}` at all (a fixed folder is a choice).
* The lines override `hydra.run.dir` with something per run, or start a multirun (`-m`).
* The loop sleeps between starts, iterates over one value, or the script is started
  once (in the foreground, or a single background line) by a script that is not an
  array job (or an array whose `%N` lets one task run at a time).
"""
    bad_examples = examples("preflight.rules.plan._pf616_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf616_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for comp in hydra_main_apps(pctx):
            script = os.path.basename(str(comp.app.script.source.path))
            launches = self._launches(pctx, script)
            if not launches:
                continue
            first = launches[0]
            overridden = {k for lc in launches for k in lc.overrides}
            given = [lc.overrides["hydra.run.dir"] for lc in launches if "hydra.run.dir" in lc.overrides]
            times = f"{len(launches)} times" if len(launches) > 1 else "in a loop"
            how = f"{first.path}:{first.line} starts `{script}` {times} in the background (`{first.text[:70]}`)"
            if first.array:
                how = (f"{first.path}:{first.line} runs `{script}` in every task of a SLURM job array "
                       f"(`#SBATCH --array={first.array}`), whose tasks the scheduler starts together")
            if given:
                value = given[0]
                if len(set(given)) == 1 and "$" not in value.replace("${now:", "") and _second_resolution(value) \
                        and not _resolves_per_run(comp.config, value, overridden - {"hydra.run.dir"}):
                    yield pctx.location_finding(self, first.path, first.line, self._message(
                        "the lines' `hydra.run.dir`", value, how))
                continue
            settings = composed_run_dirs(pctx, comp)
            if settings is None:
                continue
            holder, where = settings
            if holder is None:
                continue
            for key_path, value in where:
                if _second_resolution(value) and not _resolves_per_run(comp.config, value, overridden):
                    yield pctx.config_finding(self, holder, key_path, self._message("`hydra.run.dir`", value, how))

    @staticmethod
    def _launches(pctx: PlanContext, script: str) -> list[_Launch]:
        """The background starts of ``script`` in the first shell script of the project that starts it
        more than once at a time (in a loop, or on two lines or more)."""
        root = pctx.project.root
        for sub in _SHELL_DIRS:
            folder = root / sub if sub else root
            try:
                names = sorted(os.listdir(folder))
            except OSError:
                continue
            for name in names:
                path = folder / name
                if not name.endswith(_SHELL_SUFFIXES) or not pctx.project.may_read(path) or not os.path.isfile(path):
                    continue
                try:
                    text = read_text_limited(path, errors="replace")
                except OSError:  # InputRefused is an OSError
                    continue
                if script not in text:
                    continue
                display = os.path.relpath(path, root)
                array = array_tasks(text)
                if array is not None:
                    lines = array_starts(text, script)
                    if lines and not any(t in ("-m", "--multirun") for s in lines for t in s[2]):
                        return [_Launch(display, number, command, _overrides(tokens), array[1])
                                for number, command, tokens in lines]
                if "&" not in text:
                    continue
                starts = _background_starts(text, script)
                if not starts or any(t in ("-m", "--multirun") for s in starts for t in s[2]):
                    continue
                if len(starts) < 2 and not starts[0][3]:
                    continue
                return [_Launch(display, number, command, _overrides(tokens)) for number, command, tokens, _ in starts]
        return []

    @staticmethod
    def _message(where: str, value: str, how: str) -> str:
        return (f"{where} is `{value}`, a timestamp to the second with nothing that differs between runs, and "
                f"{how}: runs started in the same second resolve the same folder and overwrite each other's "
                "checkpoints, log and .hydra config (Hydra does not refuse a folder in use). Put something per run "
                "into the folder (`${hydra:job.override_dirname}`, the overridden key, `${oc.env:SLURM_ARRAY_TASK_ID}`) "
                "or start the runs as one multirun (`-m`)")
