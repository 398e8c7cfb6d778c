"""PF687 misspelled-visible-devices: a launch script or training script sets a misspelled
``CUDA_VISIBLE_DEVICES`` (``CUDA_VISIBLE_DEIVCES``, ``CUDA_VISIBLE_DEVICE``), which CUDA never reads."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Iterator, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._job_batch_scripts import job_shell_scripts
from preflight.rules.plan._launch_support import launched_script, report_at

_RIGHT = "CUDA_VISIBLE_DEVICES"
# real variables near the name (other vendors' device lists, CUDA's own settings): never taken for a typo
_KNOWN = {_RIGHT, "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES", "MUSA_VISIBLE_DEVICES",
          "SDAA_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL",
          "CUDA_DEVICE_ORDER", "CUDA_DEVICE_MAX_CONNECTIONS"}
# ``NAME=value`` at a command's start, after ``export``/``env``, or after ``;``/``&&``/``|``
_SHELL_SET = re.compile(r"(?:^|[;&|(]\s*|\bexport\s+|\benv\s+|\s)([A-Za-z_][A-Za-z0-9_]*)=")
_ENVIRON = ("os.environ", "environ")
_QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'")


def _distance(a: str, b: str) -> int:
    """Optimal-string-alignment distance (a swap of two neighbouring letters counts as one edit)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


def misspelled(name: str) -> bool:
    """A name that is not CUDA_VISIBLE_DEVICES but one or two edits from it (case counted)."""
    if name in _KNOWN or abs(len(name) - len(_RIGHT)) > 2:
        return False
    return _distance(name.upper(), _RIGHT) <= 2


def _shell_hits(text: str) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(text.splitlines(), start=1):
        code = line.split("#", 1)[0] if not line.lstrip().startswith("#") else ""
        # quoted text (an ``echo "... CUDA_VISIBLE_DEVICE=..."`` message) sets nothing
        code = _QUOTED.sub('""', code)
        for m in _SHELL_SET.finditer(code):
            name = m.group(1)
            # a shell variable the script reads back (``${CUDA_VISIBLE_DEVICE}``) is its own name
            if misspelled(name) and not re.search(r"\$\{?" + re.escape(name) + r"\b", text):
                yield number, name


def _environ_key(node: ast.AST) -> Optional[tuple[int, str]]:
    """(line, key) of ``os.environ["K"] = ...``, ``os.environ.setdefault("K", ...)``,
    ``os.environ.update(K=...)`` / ``update({"K": ...})`` and ``os.putenv("K", ...)``."""
    if isinstance(node, (ast.Assign, ast.AugAssign)):
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target]):
            if isinstance(target, ast.Subscript) and ast.unparse(target.value) in _ENVIRON \
                    and isinstance(target.slice, ast.Constant) and isinstance(target.slice.value, str):
                return node.lineno, target.slice.value
        return None
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return None
    owner, attr = ast.unparse(node.func.value), node.func.attr
    first = node.args[0] if node.args else None
    if ((owner in _ENVIRON and attr == "setdefault") or (owner == "os" and attr == "putenv")) \
            and isinstance(first, ast.Constant) and isinstance(first.value, str):
        return node.lineno, first.value
    if owner in _ENVIRON and attr == "update":
        for kw in node.keywords:
            if kw.arg and misspelled(kw.arg):
                return node.lineno, kw.arg
        if node.args and isinstance(node.args[0], ast.Dict):
            for key in node.args[0].keys:
                if isinstance(key, ast.Constant) and isinstance(key.value, str) and misspelled(key.value):
                    return node.lineno, key.value
    return None


@register
class MisspelledVisibleDevices(PlanRule):
    code = "PF687"
    name = "misspelled-visible-devices"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("torch", "accelerate", "deepspeed", "lightning", "transformers")
    summary = "A misspelled CUDA_VISIBLE_DEVICES is set: CUDA ignores it and the job uses other GPUs"
    explanation = """
## What it finds

A launch script that sets an environment variable one or two letters away from
`CUDA_VISIBLE_DEVICES` (`CUDA_VISIBLE_DEIVCES=4,5,6,7 accelerate launch ...`,
`export CUDA_VISIBLE_DEVICE=1`, `cuda_visible_devices=0 python train.py`), or a training script
that assigns one through `os.environ[...]`, `os.environ.setdefault`, `os.environ.update` or
`os.putenv`.

## Why it matters

CUDA reads exactly `CUDA_VISIBLE_DEVICES` (environment names are case-sensitive); any other
name is an unused variable. Nothing fails: the job sees every GPU of the machine and its
processes take GPUs 0, 1, ... instead of the intended ones, on a shared node the GPUs another
job already uses (contention or out-of-memory), while the chosen GPUs stay idle. Reported in
Zhongdao/Towards-Realtime-MOT#65 (the README's `CUDA_VISIBLE_DEIVCES=0,...,7 python train.py`,
"This confused me for half an hour to debug").

## How to fix it

Spell it `CUDA_VISIBLE_DEVICES`.

## When preflight stays silent

* The name is a real variable (`NVIDIA_VISIBLE_DEVICES`, `HIP_VISIBLE_DEVICES`, `MUSA_VISIBLE_DEVICES`,
  `ROCR_VISIBLE_DEVICES`, `CUDA_DEVICE_ORDER`), or more than two letters away.
* A shell variable of that name is read back later in the script (`${CUDA_VISIBLE_DEVICE}`):
  it is the script's own variable, not a misspelled export.
* The variable is only read (`os.environ.get(...)`), not set.
"""
    bad_examples = examples("preflight.rules.plan._pf687_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf687_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        seen: set[tuple[str, int]] = set()
        for display, text in job_shell_scripts(pctx):
            for line, name in _shell_hits(text):
                if (display, line) not in seen:
                    seen.add((display, line))
                    yield pctx.location_finding(self, display, line, self._message(name, "the launch script"))
        argv = pctx.project.argv
        if argv and pctx.project.launch_at is None:
            from preflight.adapters.launchers import parse_launch

            info = parse_launch(argv)
            for name in info.env:
                if misspelled(name):
                    finding = report_at(pctx, self, launched_script(pctx, info.script),
                                        self._message(name, "the launch command"))
                    if finding is not None:
                        yield finding
                    break
        for script in pctx.scripts:
            if "environ" not in script.source.text and "putenv" not in script.source.text:
                continue
            for node in ast.walk(script.tree):
                hit = _environ_key(node)
                if hit is not None and misspelled(hit[1]):
                    yield pctx.location_finding(self, script.source.display, hit[0],
                                                self._message(hit[1], "the script"))

    @staticmethod
    def _message(name: str, where: str) -> str:
        return (f"{where} sets {name}, not {_RIGHT}: CUDA reads only the exact (case-sensitive) name, so the "
                "variable is ignored and every process sees all GPUs of the machine, taking GPUs 0, 1, ... "
                "instead of the chosen ones (on a shared node, GPUs another job already uses) while the chosen "
                f"GPUs stay idle; spell it {_RIGHT}")
