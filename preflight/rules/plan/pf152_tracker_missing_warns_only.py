"""PF152 tracker-package-missing-warns-only: ``Accelerator(log_with=...)`` naming a tracker (a literal or an
option the launch line sets) whose package the project's requirements do not list, on accelerate 0.11 or
later, which only warns that no supported tracker is installed and logs nothing."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples
from preflight.rules.plan._pinned_release import pinned_version
from preflight.rules.plan._stdlib_names import STDLIB_NAMES
from preflight.rules.plan._tracker_packages import PACKAGES as _PACKAGES
from preflight.rules.plan._tracker_packages import names as _names
from preflight.rules.plan._tracker_packages import pin_texts as _pin_texts
from preflight.sources import ParsedPython

# PF396 covers 0.10 and older (skipped without a word); from 0.11 to 1.14.0 (the latest read) filter_trackers
# drops a tracker whose package is missing (tracking.py) and Accelerator.__init__ warns "`log_with=...` was
# passed but no supported trackers are currently installed" (accelerator.py:205 at v0.14.0, :529 at v1.14.0)
_FROM = (0, 11)


def _parents(tree: ast.AST) -> dict[int, ast.AST]:
    return {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _guard_holds(pctx: PlanContext, script: ParsedPython, call: ast.Call, parents: dict[int, ast.AST]) -> bool:
    """Every ``x if cond else y`` / ``if cond:`` around the call whose branch holds it resolves to a true value
    when the call is in the true branch (``Accelerator(log_with=...) if args.with_tracking else ...``)."""
    child: ast.AST = call
    node = parents.get(id(call))
    while node is not None and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
        if isinstance(node, (ast.IfExp, ast.If)):
            in_body = child is node.body or (isinstance(node.body, list) and child in node.body)
            if in_body:
                found = pctx.index(script).resolve(node.test)
                if found is None or not found.value:
                    return False
        child, node = node, parents.get(id(node))
    return True


def _trackers(pctx: PlanContext, script: ParsedPython, value: ast.AST) -> Iterator[tuple[str, str]]:
    """(tracker, how it was given) of a ``log_with`` value: a literal, a list of literals, or an expression the
    launch line or the option's default resolves."""
    items = value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value]
    for item in items:
        found: Any = item.value if isinstance(item, ast.Constant) else None
        how = "written in the script"
        if found is None:
            got = pctx.index(script).resolve(item)
            if got is None:
                continue
            found = got.value
            how = f"set by `{got.key}` on the launch line" if got.kind == "cli" and got.key else "resolved"
        names = found if isinstance(found, (list, tuple)) else [found]
        for name in names:
            if isinstance(name, str):
                for part in re.split(r"[,\s]+", name.strip()):
                    if part in _PACKAGES:
                        yield part, how


# import name -> the distributions that provide it, where they differ
_DISTRIBUTIONS = {"sklearn": ("scikit-learn",), "PIL": ("pillow",), "yaml": ("pyyaml",), "skimage": ("scikit-image",),
                  "cv2": ("opencv-python", "opencv-python-headless", "opencv-contrib-python"), "attr": ("attrs",),
                  "bs4": ("beautifulsoup4",), "dateutil": ("python-dateutil",)}


def _complete(pctx: PlanContext, texts: list[str]) -> bool:
    """Every third-party package the job's scripts import is named in its dependency files: they describe the
    whole environment (a requirements file listing a few pins only says nothing about what else is installed).
    The standard library is ``sys.stdlib_module_names`` (3.10+), on 3.9 the same list frozen here."""
    stdlib = getattr(sys, "stdlib_module_names", STDLIB_NAMES)
    root = pctx.project.root
    for script in pctx.scripts:
        for node in ast.walk(script.tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else []
            for name in names:
                top = name.split(".")[0]
                if top in stdlib or top == "__future__":
                    continue
                here = Path(str(script.source.path)).parent
                if any((folder / f"{top}.py").exists() or (folder / top).is_dir() for folder in (here, root)):
                    continue
                if not any(_names(texts, d) for d in _DISTRIBUTIONS.get(top, (top,))):
                    return False
    return True


def _imported(pctx: PlanContext) -> set[str]:
    out = {name for script in pctx.scripts for name in _PACKAGES
           if re.search(rf"^\s*(?:import|from)\s+{name}\b", script.source.text, re.M)}
    if any("torch.utils.tensorboard" in s.source.text or "tensorboardX" in s.source.text for s in pctx.scripts):
        out.add("tensorboard")
    return out


@register
class TrackerPackageMissingWarnsOnly(PlanRule):
    code = "PF152"
    name = "tracker-package-missing-warns-only"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("accelerate",)
    summary = ("`Accelerator(log_with=...)` names a tracker (in the script or through a launch option) whose "
               "package the requirements do not list, on accelerate >= 0.11: a warning, then nothing is logged")
    explanation = """
## What it finds

`Accelerator(log_with=...)` whose value is a tracker name (`"wandb"`, `"tensorboard"`,
`"comet_ml"`, `"mlflow"`, `"aim"`, `"clearml"`, `"dvclive"`), written in the script or
resolved from an option the launch line sets (`--report_to wandb` read into
`log_with=args.report_to`), in a project whose `requirements*.txt` pins accelerate at 0.11 or
later and does not name the tracker's package (nor do its `pyproject.toml`, `setup.py`,
`environment.yml`) while it names every other package the scripts import, and whose scripts
do not import the tracker. A guard around the call
(`... if args.with_tracking else Accelerator()`) must resolve true.

## Why it matters

`filter_trackers` keeps a tracker only when its package is importable; from 0.11 on the
`Accelerator` then only warns "`log_with=wandb` was passed but no supported trackers are
currently installed" (accelerator.py at v0.14.0 and at v1.14.0) and every
`init_trackers`/`accelerator.log` call records nothing: the run ends with no metrics
(accelerate issue 918, "tracking using wandb": "How to install the trackers? Do I miss
something?"). An environment built from the requirements does not have the package.
PF396 reports the same on 0.10 and older, where not even a warning is printed.

## How to fix it

Add the tracker's package (`wandb`, `tensorboard`, ...) to the requirements, or log with a
tracker that is installed.

## When preflight stays silent

* The dependency files do not name every third-party package the job's scripts import (then they
  do not describe the whole environment).
* There is no `requirements*.txt`, or accelerate is not pinned there, or it is pinned at 0.10
  or older (PF396's range).
* The package is named in a dependency file (any release) or imported by a script of the job.
* `log_with="all"`, a value that does not resolve, or a guard around the call that does not
  resolve true (tracking switched off or unknown).
"""
    bad_examples = examples("preflight.rules.plan._pf152_examples", "BAD")
    good_examples = examples("preflight.rules.plan._pf152_examples", "GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        imported: Optional[set[str]] = None
        for script in pctx.scripts:
            if "log_with" not in script.source.text:
                continue
            parents: Optional[dict[int, ast.AST]] = None
            for call in ast.walk(script.tree):
                if not isinstance(call, ast.Call) or call_last(call) != "Accelerator":
                    continue
                value = kwarg(call, "log_with")
                if value is None:
                    continue
                imported = _imported(pctx) if imported is None else imported
                wanted = [(t, how) for t, how in _trackers(pctx, script, value) if t not in imported]
                if not wanted:
                    continue
                version = pinned_version(pctx, "accelerate", script)
                if version is None or not version.at_least(*_FROM):
                    continue
                texts = _pin_texts(pctx, Path(str(script.source.path)))
                if texts is None or not _names(texts, "accelerate") or not _complete(pctx, texts):
                    continue
                parents = _parents(script.tree) if parents is None else parents
                if not _guard_holds(pctx, script, call, parents):
                    continue
                for tracker, how in wanted:
                    if any(_names(texts, p) for p in _PACKAGES[tracker]):
                        continue
                    package = _PACKAGES[tracker][0]
                    yield pctx.code_finding(self, script, value, (
                        f"log_with asks for the {tracker} tracker ({how}), but the project's requirements do not "
                        f"list {package}: in an environment built from them {version.describe()} finds no {tracker}, "
                        "warns that no supported trackers are installed, and init_trackers/accelerator.log record "
                        f"nothing for the whole run (accelerate issue 918). Add {package} to the requirements"))
