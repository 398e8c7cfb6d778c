"""PF396 tracker-package-not-in-requirements: ``Accelerator(log_with="wandb")`` in a project whose
requirements list accelerate but not the tracker's package."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last, const_str
from preflight.rules.base import examples
from preflight.rules.plan._tracker_packages import PACKAGES as _PACKAGES
from preflight.rules.plan._tracker_packages import names as _names
from preflight.rules.plan._tracker_packages import pin_texts as _pin_texts

# the first release after the one the report documents (0.10: a missing tracker skipped without a word);
# what later releases do was not checked, so the rule stays silent there
_LOUD_FROM = (0, 11)

@register
class TrackerPackageNotInRequirements(PlanRule):
    code = "PF396"
    name = "tracker-package-not-in-requirements"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("accelerate",)
    summary = ("`Accelerator(log_with=\"wandb\")` on accelerate <= 0.10 while the project's requirements do not "
               "list the tracker's package: the run logs nothing, without a warning")
    explanation = """
## What it finds

`Accelerator(log_with="wandb")` (or `"tensorboard"`, `"comet_ml"`, `"mlflow"`, `"aim"`,
`"clearml"`, `"dvclive"`, or a list of them) in a project whose `requirements*.txt` (with
its `pyproject.toml`/`setup.py`/`environment.yml`, beside the script or above it) pins
`accelerate` at 0.10 or older and does not name the package of that tracker, and whose
scripts do not import the package themselves.

## Why it matters

Accelerate builds a tracker only when its package is importable. accelerate 0.10 skipped a
missing one without a word: `init_trackers` and `accelerator.log` ran and the whole run
left no metrics (accelerate issue 520, "Warn user when attempting to track when logger(s)
are not installed"). An environment built from the requirements file does not have the
package.

## How to fix it

Add the tracker's package to the requirements (`wandb`, `tensorboard`, ...), or log with a
tracker that is installed.

## When preflight stays silent

* There is no `requirements*.txt`, or it does not pin `accelerate` at 0.10 or older (what
  later releases do with a missing tracker was not checked).
* The package is named there (any release), or a script of the job imports it.
* `log_with="all"` or a value that is not a literal.
"""
    bad_examples = examples("preflight.rules.plan._pf396_examples", "PF396_BAD")
    good_examples = examples("preflight.rules.plan._pf396_examples", "PF396_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        imported = {name for script in pctx.scripts for name in _PACKAGES
                    if re.search(rf"^\s*(?:import|from)\s+{name}\b", script.source.text, re.M)}
        if "tensorboard" in imported or any(
                "torch.utils.tensorboard" in s.source.text or "tensorboardX" in s.source.text for s in pctx.scripts):
            imported.add("tensorboard")
        for script in pctx.scripts:
            if "log_with" not in script.source.text:
                continue
            for call in ast.walk(script.tree):
                if not isinstance(call, ast.Call) or call_last(call) != "Accelerator":
                    continue
                value = kwarg(call, "log_with")
                items = value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value] if value else []
                trackers: list[tuple[str, ast.AST]] = []
                for item in items:
                    name = const_str(item)
                    if name is not None and name in _PACKAGES and name not in imported:
                        trackers.append((name, item))
                if not trackers:
                    continue
                texts = _pin_texts(pctx, Path(str(script.source.path)))
                version = pctx.version("accelerate", script)
                if texts is None or not _names(texts, "accelerate") or version is None or version.how != "pinned" \
                        or version.at_least(*_LOUD_FROM):
                    continue
                for tracker, node in trackers:
                    if any(_names(texts, p) for p in _PACKAGES[tracker]):
                        continue
                    yield pctx.code_finding(
                        self, script, node,
                        f"log_with=\"{tracker}\", but the project's requirements do not list "
                        f"{_PACKAGES[tracker][0]}: in an environment built from them accelerate has no "
                        f"{tracker} tracker, and {version.describe()} skips it without a word: init_trackers and "
                        f"accelerator.log run and the whole run logs nothing. Add {_PACKAGES[tracker][0]} to the "
                        "requirements")
