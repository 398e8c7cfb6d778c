"""What PF384 and PF385 share: the pinned release an entry of ``_release_defects`` is read against, and
the message that names the release, the fix and the source."""

from __future__ import annotations

from typing import Any, Optional

from preflight.diagnostics import Severity
from preflight.plan_rules import PlanContext
from preflight.rules.plan._pinned_release import pinned_lightning, pinned_version, released_between
from preflight.rules.plan._release_defects import DEFECTS, Defect
from preflight.sources import ParsedPython

SEVERITIES = {"error": Severity.ERROR, "warning": Severity.WARNING, "note": Severity.NOTE}


def pinned_for(pctx: PlanContext, defect: Defect, script: Optional[ParsedPython]) -> Optional[Any]:
    """The release of ``defect.package`` the project pins nearest to ``script`` (the first script that
    has one, for a config), else None."""
    scripts = [script] if script is not None else list(pctx.scripts)
    for candidate in scripts:
        found = pinned_lightning(pctx, candidate) if defect.package == "lightning" \
            else pinned_version(pctx, defect.package, candidate)
        if found is not None:
            return found
    if script is None and not scripts:
        found = pctx.version(defect.package)
        return found if found is not None and found.how == "pinned" else None
    return None


def affected(defect: Defect, version: Any) -> bool:
    return any(released_between(version, low, high) for low, high in defect.ranges)


class _Blank(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


def message(defect: Defect, version: Any, values: dict[str, Any]) -> str:
    effect = defect.effect.format_map(_Blank(values))
    return (f"the project pins {version.describe()}: {effect} (release defect `{defect.key}`, fixed in "
            f"{defect.package} {defect.fixed}; {defect.source}). Upgrade to {defect.fixed} or later, or "
            f"{defect.remedy}")


def entries(kind: str, with_severity: bool) -> str:
    """The table's entries of one kind ("code": PF384, "config": PF385) as a Markdown list for the rule's docs."""
    rows = []
    for d in DEFECTS:
        if d.kind == kind:
            ranges = ", ".join(f"{'.'.join(map(str, lo))} <= v < {'.'.join(map(str, hi))}" for lo, hi in d.ranges)
            extra = f"; {d.severity}" if with_severity else ""
            rows.append(f"* `{d.key}` ({d.package} {ranges}{extra}): {d.source}")
    return "\n".join(rows)
