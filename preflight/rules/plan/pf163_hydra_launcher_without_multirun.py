"""PF163 hydra-launcher-without-multirun: a ``@hydra.main`` app whose config selects a submitit launcher
(``override hydra/launcher: submitit_slurm``) launched without ``--multirun``: Hydra only uses a launcher in
multirun mode, so the task runs in the calling process (the login node) instead of a SLURM job."""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_apps import hydra_main_apps, read_hydra_config
from preflight.rules.plan._hydra_launch_support import launch_finding, multirun
from preflight.sources import read_text_limited

_SHELL_SUFFIXES = (".sh", ".slurm", ".sbatch", ".bash")


def _is_launcher_key(key: str) -> bool:
    """``hydra/launcher``, ``override hydra/launcher``, ``override /hydra/launcher`` (a ``_global_`` group config)."""
    words = key.split()
    if len(words) == 2 and words[0] != "override":
        return False
    return len(words) in (1, 2) and words[-1].lstrip("/") == "hydra/launcher"


def _unguarded_job_environment(tree: ast.AST) -> bool:
    """A ``submitit.JobEnvironment()`` call outside a ``try`` with handlers (``except RuntimeError: local``
    is how code that runs both ways reads it)."""
    def visit(node: ast.AST, guarded: bool) -> bool:
        if isinstance(node, ast.Call) and not guarded:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name == "JobEnvironment":
                return True
        if isinstance(node, ast.Try) and node.handlers:
            return any(visit(child, True) for child in node.body) or \
                any(visit(child, guarded) for part in (node.handlers, node.orelse, node.finalbody) for child in part)
        return any(visit(child, guarded) for child in ast.iter_child_nodes(node))
    return visit(tree, False)


def _launcher_entry(entry: Any) -> Optional[str]:
    """The launcher a defaults-list entry selects (``override hydra/launcher: submitit_slurm``)."""
    if isinstance(entry, dict) and len(entry) == 1:
        key, value = next(iter(entry.items()))
        if isinstance(key, str) and _is_launcher_key(key) and isinstance(value, str):
            return value
    return None


def _selected_launcher(comp: Any, args: list[str]) -> Optional[tuple[str, str, Optional[int]]]:
    """(launcher, file, line) of the submitit launcher the app runs with: a ``hydra/launcher=`` override of the
    command line wins over the defaults lists of the composed configs; None for any other launcher."""
    for tok in args:
        head, eq, value = tok.partition("=")
        if eq and _is_launcher_key(head.lstrip("+")):
            return (value, "", None) if value.startswith("submitit") else None
    for item, loaded in comp.item_configs:
        path = getattr(item, "file", None)
        if path is None:
            continue
        read = read_hydra_config(Path(path))
        for entry in getattr(read, "defaults", None) or []:
            launcher = _launcher_entry(entry)
            if launcher is None:
                continue
            if not launcher.startswith("submitit"):
                return None
            return launcher, loaded.path, _line_of(Path(path), "hydra/launcher:")
    return None


def _line_of(path: Path, needle: str) -> Optional[int]:
    try:
        text = read_text_limited(path, errors="replace")
    except OSError:
        return None
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return number
    return None


def _multirun_mode(comp: Any) -> bool:
    """A composed config sets ``hydra.mode: MULTIRUN`` (Hydra 1.2): the app sweeps without ``-m``."""
    for item, _ in comp.item_configs:
        path = getattr(item, "file", None)
        if path is None:
            continue
        try:
            if "MULTIRUN" in read_text_limited(Path(path), errors="replace"):
                return True
        except OSError:
            continue
    return False


def _under_slurm(pctx: PlanContext, script_name: str) -> bool:
    """The job already runs inside a SLURM allocation: ``srun`` starts it, or its batch script (the launch
    script, else a shell script at the project's top naming the app) has ``#SBATCH`` directives or ``srun``."""
    project = pctx.project
    if project.argv and os.path.basename(project.argv[0]) in ("srun", "sbatch", "salloc"):
        return True
    paths: list[Path] = []
    if project.launch_at is not None:
        at = Path(project.launch_at[0])
        paths.append(at if at.is_absolute() else project.root / at)
    else:
        try:
            entries = sorted(os.listdir(project.root))
        except OSError:
            entries = []
        paths.extend(project.root / e for e in entries if e.endswith(_SHELL_SUFFIXES))
    for path in paths:
        if not (os.path.isfile(path) and project.may_read(path)):
            continue
        try:
            text = read_text_limited(path, errors="replace")
        except OSError:
            continue
        if project.launch_at is None and script_name not in text:
            continue
        if "#SBATCH" in text or any(line.split()[:1] == ["srun"] for line in text.splitlines()):
            return True
    return False


@register
class HydraLauncherWithoutMultirun(PlanRule):
    code = "PF163"
    name = "hydra-launcher-without-multirun"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A @hydra.main app configured with a submitit launcher is started without `--multirun`: Hydra "
               "ignores the launcher, and the task runs in the calling process instead of a SLURM job")
    explanation = """
## What it finds

A `@hydra.main` app whose composed defaults select a submitit launcher
(`override hydra/launcher: submitit_slurm` / `submitit_local`, or `hydra/launcher=submitit_slurm`
on the command line), launched without `--multirun`/`-m` (and no config sets
`hydra.mode: MULTIRUN`), where the job shows it expects the launcher to run: the launch line
sets `hydra.launcher.*` values (partition, nodes, GPUs), or the app reads
`submitit.JobEnvironment()`.

## Why it matters

Hydra instantiates the launcher from the sweeper, and the sweeper only runs in multirun
mode: a normal run calls the task function directly in the calling process (hydra issue 851,
"in regular runs the launcher is not used and the job is executed directly"). The
`hydra.launcher` resources (partition, GPUs, nodes, time limit) are ignored, the training
starts on the login node, and `submitit.JobEnvironment()` raises because the process is not
a submitit job (hydra issue 849).

## How to fix it

Start the app with `-m` (`python train.py -m trainer.epochs=100`): a multirun of one job
submits it through the launcher; or set `hydra.mode: MULTIRUN` in the config (Hydra 1.2).

## When preflight stays silent

* The launch has `--multirun`/`-m` or `hydra.mode=MULTIRUN`, or a composed config sets
  `mode: MULTIRUN`.
* The launcher is not submitit (`basic`, `joblib`, `ray`: they run on the same machine
  anyway), or the command line selects another one.
* The job already runs inside a SLURM allocation (`srun`, a batch script with `#SBATCH`
  directives), where submitit's job environment is available.
* Nothing shows the launcher is expected to run (no `hydra.launcher.*` override, no
  `JobEnvironment`): the launcher config may serve other, multirun launches.
* The script reads `sys.argv` itself.
"""
    bad_examples = examples("preflight.rules.plan._pf163_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf163_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        project = pctx.project
        if not project.argv:
            return
        for comp in hydra_main_apps(pctx):
            script = comp.app.script
            text = script.source.text
            if "sys.argv" in text:
                continue
            args = project.script_args(script)
            if multirun(args):
                continue
            selected = _selected_launcher(comp, args)
            if selected is None or _multirun_mode(comp):
                continue
            overrides = [tok for tok in args if tok.lstrip("+").startswith("hydra.launcher.")]
            reads_env = "JobEnvironment" in text and _unguarded_job_environment(script.tree)
            if not overrides and not reads_env:
                continue
            if _under_slurm(pctx, os.path.basename(str(script.source.path))):
                continue
            launcher, path, line = selected
            shown = f"`{overrides[0]}`" if overrides else "`submitit.JobEnvironment()` in the app"
            message = (f"the app's config selects the `{launcher}` launcher and the job expects it to run "
                       f"({shown}), but the launch has no `--multirun`: Hydra only uses a launcher in multirun "
                       "mode, so the task runs directly in the calling process (hydra issue 851): the "
                       "`hydra.launcher` resources are ignored, the training starts on this machine instead of a "
                       "submitted job, and `submitit.JobEnvironment()` fails there (hydra issue 849). Start it with "
                       "`-m` (a multirun of one job is submitted through the launcher)")
            extra = [Evidence(line=line, path=path, message=f"hydra/launcher: {launcher}")] if line else []
            yield launch_finding(self, pctx, comp, message, extra)
