"""What the pinned-release rules share (PF360 accelerate, PF361 transformers, PF307 Lightning, PF363 TRL):
the version of a library a project pins, the scripts to read against it, and a release range."""

from __future__ import annotations

import ast
from typing import Any, Callable, Iterator, Optional

from preflight.plan_rules import PlanContext
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.sources import ParsedPython


def pinned_version(pctx: PlanContext, package: str, script: ParsedPython) -> Optional[Any]:
    """The version of ``package`` nearest to ``script`` when the project pins it (``how == "pinned"``: one
    release, not a lower bound or the user's statement), else None."""
    found = pctx.version(package, script)
    return found if found is not None and found.how == "pinned" else None


LIGHTNING_PACKAGES = ("pytorch-lightning", "pytorch_lightning", "lightning")


def pinned_lightning(pctx: PlanContext, script: ParsedPython) -> Optional[Any]:
    """Lightning's pinned version for ``script``: the first of its package names the project states decides
    (None when that statement is not a pin)."""
    for package in LIGHTNING_PACKAGES:
        found = pctx.version(package, script)
        if found is not None:
            return found if found.how == "pinned" else None
    return None


def pinned_scripts(pctx: PlanContext, package: str,
                   mentions: Callable[[str], bool]) -> Iterator[tuple[ParsedPython, str, Any]]:
    """(script, its text, pinned version of ``package``) of every script of the job whose text passes
    ``mentions`` (read first: the version is looked up only for those) and whose project pins ``package``."""
    for script in pctx.scripts:
        text = script.text if script.text is not None else script.source.text
        if not mentions(text):
            continue
        version = pinned_version(pctx, package, script)
        if version is not None:
            yield script, text, version


def released_between(version: Any, low: tuple[int, ...], high: tuple[int, ...]) -> bool:
    """``low <= version < high``: a release of the range a defect shipped in (``high`` the fix)."""
    return bool(version.at_least(*low) and not version.at_least(*high))


# what Lightning jobs share (PF307, PF384): the LR schedulers of ``configure_optimizers``, hooks a project
# defines, a DeepSpeed strategy given to the Trainer
_SCHEDULER_WORDS = ("LR", "lr_scheduler", "Scheduler", "schedule")


def lightning_schedulers(pctx: PlanContext) -> list[tuple[ParsedPython, ast.FunctionDef, bool]]:
    """Every ``configure_optimizers`` that builds an LR scheduler: (script, function, stepped per epoch),
    per epoch unless it says ``"interval": "step"`` or the scheduler is ReduceLROnPlateau (which is
    meant to follow validation)."""
    out = []
    for script in pctx.scripts:
        for fn in ast.walk(script.tree):
            if not isinstance(fn, ast.FunctionDef) or fn.name != "configure_optimizers":
                continue
            names = [call_last(c) for c in ast.walk(fn) if isinstance(c, ast.Call)]
            if not any(any(w in n for w in _SCHEDULER_WORDS) for n in names):
                continue
            per_step = any(isinstance(c, ast.Constant) and c.value == "step" for c in ast.walk(fn))
            plateau = "ReduceLROnPlateau" in names
            out.append((script, fn, not per_step and not plateau))
    return out


def defines(pctx: PlanContext, name: str) -> bool:
    """Some script of the job defines a function (or method) ``name``."""
    return any(isinstance(fn, ast.FunctionDef) and fn.name == name
               for script in pctx.scripts for fn in ast.walk(script.tree))


def deepspeed_strategy(call: ast.Call) -> bool:
    """A Lightning Trainer call that names a DeepSpeed strategy or plugin."""
    for key in ("strategy", "plugins", "accelerator"):
        value = kwarg(call, key)
        if value is None:
            continue
        for node in ast.walk(value):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("deepspeed"):
                return True
            if isinstance(node, ast.Call) and call_last(node) in ("DeepSpeedPlugin", "DeepSpeedStrategy"):
                return True
    return False
