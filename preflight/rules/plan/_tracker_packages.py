"""The tracker packages of accelerate and the job's dependency files, as PF396 and PF152 read them."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Optional

from preflight.plan_rules import PlanContext
from preflight.sources import read_text_limited

# accelerate's tracker name -> the distributions any of which provides it
PACKAGES = {
    "wandb": ("wandb",),
    "tensorboard": ("tensorboard", "tensorboardx", "tb-nightly"),
    "comet_ml": ("comet-ml", "comet_ml"),
    "mlflow": ("mlflow", "mlflow-skinny"),
    "aim": ("aim",),
    "clearml": ("clearml",),
    "dvclive": ("dvclive",),
}
PIN_FILES = ("environment.yml", "environment.yaml", "pyproject.toml", "setup.py", "setup.cfg", "Pipfile")


def pin_texts(pctx: PlanContext, script_path: Path) -> Optional[list[str]]:
    """The texts of the dependency files beside the script and in each folder above it up to the project's
    root; None when there is no ``requirements*.txt`` among them (the environment is unknown)."""
    root = pctx.project.root.resolve()
    try:
        here = script_path.resolve().parent
    except OSError:
        return None
    folders = [here, *[p for p in here.parents if p == root or root in p.parents]]
    texts: list[str] = []
    has_requirements = False
    for folder in folders:
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            is_req = name.startswith("requirements") and name.endswith(".txt")
            if not (is_req or name in PIN_FILES) or not pctx.project.may_read(folder / name):
                continue
            try:
                texts.append(read_text_limited(folder / name, errors="replace").lower())
            except OSError:  # InputRefused is an OSError
                continue
            has_requirements = has_requirements or is_req
    return texts if has_requirements else None


def names(texts: list[str], package: str) -> bool:
    """Whether any dependency-file text names the distribution ``package`` (``-`` and ``_`` alike)."""
    pattern = re.compile(r"(?<![\w.\-])" + re.escape(package).replace(r"\-", "[-_]").replace("_", "[-_]")
                         + r"(?![\w])")
    return any(pattern.search(t) for t in texts)
