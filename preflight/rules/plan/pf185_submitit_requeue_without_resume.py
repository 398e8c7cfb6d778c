"""PF185 submitit-requeue-without-resume: Hydra's submitit launcher requeues a job that hits its time limit
(``max_num_timeout`` > 0), and the task function never reloads a checkpoint: every requeue trains from scratch."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_apps import (
    hydra_main_apps,
    partial_hydra_main_apps,
    read_hydra_config,
)
from preflight.sources import read_text_limited

# any sign that the job reads back a saved state (or leaves resuming to a framework that does)
_RESUME = re.compile(r"torch\.load|load_state_dict|load_from_checkpoint|ckpt_path|resume|restore|Checkpointable|"
                     r"def checkpoint|load_checkpoint|load_state\b|from_pretrained|os\.path\.(?:exists|isfile)|"
                     r"\.exists\(\)|\.is_file\(\)|glob\(|listdir\(|LightningModule|Trainer\(|accelerate|"
                     r"deepspeed|submitit\.helpers")
_TRAINS = re.compile(r"\.backward\(|\.step\(\)")
_LAUNCHER = re.compile(r"^(?:override\s+)?/?hydra/launcher$")


def _launcher_choice(data: Any, tokens: list[str]) -> Optional[str]:
    """The ``hydra/launcher`` option the primary config's defaults list (or the launch line) selects."""
    choice = None
    defaults = data.get("defaults") if isinstance(data, dict) else None
    for entry in defaults if isinstance(defaults, list) else []:
        for key, value in (entry.items() if isinstance(entry, dict) else []):
            if isinstance(key, str) and _LAUNCHER.match(key.strip()) and isinstance(value, str):
                choice = value
    for token in tokens:
        key, eq, value = token.lstrip("+").partition("=")
        if eq and key.strip("/") == "hydra/launcher":
            choice = value
    return choice


def _int(value: Any) -> Optional[int]:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _requeues(comp: Any, tokens: list[str]) -> Optional[tuple[str, int, int, Optional[int]]]:
    """(file, line, max_num_timeout, timeout_min) when the app's submitit launcher requeues on timeout."""
    config_dir = comp.config_dir or comp.app.config_dir
    primary = next((loaded for item, loaded in comp.item_configs if item.package == ""), None)
    if primary is None or config_dir is None or not isinstance(primary.data, dict):
        return None
    choice = _launcher_choice(primary.data, tokens)
    if not choice:
        return None
    found: Optional[tuple[str, int, int]] = None
    timeout: Optional[int] = None
    if "submitit" not in choice:
        path = Path(config_dir) / "hydra" / "launcher" / f"{choice}.yaml"
        if not os.path.isfile(path):
            return None
        launcher = read_hydra_config(path)
        data = getattr(launcher, "body", None) if launcher is not None else None
        defaults = getattr(launcher, "defaults", None)
        names = [str(v) for d in (defaults or []) for v in (d.values() if isinstance(d, dict) else [d])]
        if not isinstance(data, dict) or not any("submitit" in n for n in names):
            return None
        timeout = _int(data.get("timeout_min"))
        count = _int(data.get("max_num_timeout"))
        if count is not None:
            try:
                text = read_text_limited(path, errors="replace")
            except OSError:
                return None
            line = next((k for k, t in enumerate(text.splitlines(), 1) if re.match(r"\s*max_num_timeout\s*:", t)), 1)
            found = (str(path), line, count)
    hydra = primary.data.get("hydra")
    launcher_node = hydra.get("launcher") if isinstance(hydra, dict) else None
    if isinstance(launcher_node, dict):
        timeout = _int(launcher_node.get("timeout_min")) or timeout
        count = _int(launcher_node.get("max_num_timeout"))
        if count is not None:
            found = (primary.path, primary.line_of(("hydra", "launcher", "max_num_timeout")) or 1, count)
    for token in tokens:
        key, eq, value = token.lstrip("+").partition("=")
        if eq and key == "hydra.launcher.max_num_timeout" and value.isdigit():
            found = ("", 0, int(value))
        elif eq and key == "hydra.launcher.timeout_min" and value.isdigit():
            timeout = int(value)
    if found is None or found[2] <= 0:
        return None
    return found[0], found[1], found[2], timeout


@register
class SubmititRequeueWithoutResume(PlanRule):
    code = "PF185"
    name = "submitit-requeue-without-resume"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("hydra",)
    summary = ("Hydra's submitit launcher requeues a job that reaches its time limit (`max_num_timeout` > 0), "
               "but the task function never reloads a checkpoint: each requeue trains from scratch")
    explanation = """
## What it finds

A `@hydra.main` app whose selected launcher is Hydra's submitit launcher (`override
hydra/launcher: submitit_slurm`, or a `hydra/launcher/<name>.yaml` of the job whose
defaults list is `submitit_slurm`/`submitit_local`) with `max_num_timeout` above 0 (in that
file, under `hydra.launcher` of the primary config, or on the launch line), while no file of
the job (its scripts and the project modules they import) reads a saved state back:
no `torch.load`, `load_state_dict`, `load_from_checkpoint`, `ckpt_path`, `resume`/`restore`,
file-existence check, submitit `checkpoint()`, and no framework that resumes by itself
(Lightning, Accelerate, DeepSpeed, `from_pretrained`).

## Why it matters

With `max_num_timeout: N` the launcher requeues a job that reaches `timeout_min` up to N
times, and the requeued job calls the task function again. Without a checkpoint to come
back to it starts at epoch 0: the GPU hours before each timeout are lost, and a run that
needs longer than the time limit never finishes, however many requeues it gets (Hydra PR 651,
where the maintainers ask to enable requeueing "only after you confirmed your code can handle
re-submission by properly resuming from the latest stored checkpoint").

## How to fix it

Save the training state regularly in the job's output folder (`HydraConfig.get().runtime.output_dir`)
and load it at the start of the task function when it exists; or raise `timeout_min` and set
`max_num_timeout: 0`.

## When preflight stays silent

* `max_num_timeout` is 0 or not set (the launcher's default is 0), or the launcher is not submitit.
* Any file of the job shows a way back to a saved state (the words above), or uses a framework
  that restores its own state on requeue.
* No file of the job runs an optimizer step (`.backward(`, `.step()`): not a training job.
"""
    bad_examples = examples("preflight.rules.plan._pf185_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf185_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        comps = [*hydra_main_apps(pctx), *partial_hydra_main_apps(pctx)]
        if not comps:
            return
        from preflight.rules.plan._job_files import job_files

        texts = [ast.unparse(tree) for _display, tree in job_files(pctx)]
        if any(_RESUME.search(t) for t in texts) or not any(_TRAINS.search(t) for t in texts):
            return
        for comp in comps:
            tokens = [*comp.app.overrides, *pctx.project.script_args(comp.app.script)]
            got = _requeues(comp, tokens)
            if got is None:
                continue
            file, line, count, timeout = got
            limit = f"`timeout_min: {timeout}`" if timeout is not None else "its time limit"
            message = (f"`max_num_timeout: {count}`: the submitit launcher requeues a job that reaches {limit} up "
                       f"to {count} times, but no file of the job reloads a checkpoint (no torch.load, "
                       "load_state_dict, resume or existence check of a saved state): each requeue calls the task "
                       "function again from epoch 0, so the work before each timeout is lost and a run longer than "
                       "the limit never finishes. Save the training state in the job's output folder and load it "
                       "at start when it exists, or raise timeout_min and set max_num_timeout: 0")
            if file and os.path.isabs(file):
                file = os.path.relpath(file, pctx.project.root)
            if file:
                yield pctx.location_finding(self, file, line, message)
            elif pctx.project.launch_at is not None:
                path, at = pctx.project.launch_at
                yield pctx.location_finding(self, path, at, message)
            elif comp.app.line is not None:
                yield pctx.location_finding(self, comp.app.script.source.display, comp.app.line, message)
