"""What PF677 and PF678 share: the OmegaConf 2.0 release a project pins (``omegaconf==2.0.x``, or
``hydra-core==1.0.x``, whose wheels require ``omegaconf>=2.0.5,<2.1``), and the YAML files of the job
whose text matches a pattern."""

from __future__ import annotations

import os
import re
from typing import Any, Optional

from preflight.plan_rules import PlanContext
from preflight.rules.plan._pinned_release import pinned_version, released_between
from preflight.rules.plan._yaml_job_files import walk_yaml


def pinned_omegaconf_20(pctx: PlanContext) -> Optional[str]:
    """How the project pins an OmegaConf 2.0 release ("omegaconf 2.0.6 (pinned in requirements.txt)"),
    else None: a lower bound or no pin is never read as 2.0."""
    for script in pctx.scripts:
        found = pinned_version(pctx, "omegaconf", script)
        if found is not None:
            return found.describe() if released_between(found, (2, 0), (2, 1)) else None
        hydra = pinned_version(pctx, "hydra-core", script)
        if hydra is not None:
            if released_between(hydra, (1, 0), (1, 1)):
                return f"{hydra.describe()}, which requires omegaconf>=2.0.5,<2.1"
            return None
    return None


def yaml_texts(pctx: PlanContext, needle: re.Pattern[str]) -> list[tuple[str, Any]]:
    """(text, loaded config) of the job's YAML configs and of the YAML files under the project root whose
    text matches ``needle``."""
    out: list[tuple[str, Any]] = []
    seen: set[str] = set()
    for src, cfg in pctx.project.configs:
        seen.add(os.path.abspath(src.path))
        if cfg.kind == "yaml" and needle.search(src.text):
            out.append((src.text, cfg))
    out.extend(walk_yaml(pctx, needle, seen))
    return out


def matching_lines(text: str, needle: re.Pattern[str]) -> list[tuple[int, re.Match[str]]]:
    """(1-based line, match) of every line of ``text`` that ``needle`` matches outside a comment."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("#"):
            continue
        found = needle.search(line)
        if found is not None:
            out.append((number, found))
    return out
