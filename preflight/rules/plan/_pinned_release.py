"""What the pinned-release rules share (PF360 accelerate, PF361 transformers, PF307 Lightning, PF363 TRL):
the version of a library a project pins, the scripts to read against it, and a release range."""

from __future__ import annotations

from typing import Any, Callable, Iterator, Optional

from preflight.plan_rules import PlanContext
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
