"""Shared by the det67 Hydra launch-line rules (PF336-PF338): where a finding about the launch
line goes, and whether the launch is a multirun."""

from __future__ import annotations

from typing import Any, Iterable, Optional

from preflight.diagnostics import Evidence, Finding
from preflight.plan_rules import PlanContext, PlanRule


def multirun(args: Iterable[str]) -> bool:
    """``--multirun``/``-m`` or ``hydra.mode=MULTIRUN`` among the app's arguments."""
    for tok in args:
        if tok in ("-m", "--multirun") or tok.startswith("--multi"):
            return True
        if tok.lstrip("+").startswith("hydra.mode=") and "MULTIRUN" in tok:
            return True
    return False


def launch_finding(rule: PlanRule, pctx: PlanContext, comp: Any, message: str,
                   extra: Optional[list[Evidence]] = None) -> Finding:
    """On the launch line when there is one, else on the ``@hydra.main`` line."""
    script = comp.app.script
    evidence = [Evidence(line=comp.app.line or 1, path=script.source.display,
                         message="@hydra.main composes the config with this command line"), *(extra or [])]
    if pctx.project.launch_at is not None:
        path, line = pctx.project.launch_at
        return pctx.location_finding(rule, path, line, message, evidence=evidence)
    return pctx.location_finding(rule, script.source.display, comp.app.line or 1, message, evidence=evidence)
