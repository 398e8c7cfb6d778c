"""PF205 log-with-without-init-trackers: ``Accelerator(log_with=...)`` and ``accelerator.log``
but no ``init_trackers`` anywhere in the file."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import (
    accelerator_calls,
    accelerators,
    has_unpacking,
    kwarg,
    unparse,
)
from preflight.rules.base import Rule, examples


@register
class LogWithWithoutInitTrackers(Rule):
    code = "PF205"
    name = "log-with-without-init-trackers"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = "Accelerator(log_with=...) logs with accelerator.log() but init_trackers() is never called: nothing is logged"
    frameworks = ("accelerate",)
    needs_text = ("log_with",)
    explanation = """
## What it finds

A file that builds `Accelerator(log_with=...)` (a tracker name, list or `"all"`; not
`None`), calls `accelerator.log(...)`, and calls `init_trackers` nowhere (not on any
receiver, not under any name).

## Why it matters

`log_with` only names the trackers. `Accelerator.__init__` sets `self.trackers = []`;
only `init_trackers(project_name, ...)` builds the tracker objects and appends them,
and `Accelerator.log` is `for tracker in self.trackers: tracker.log(...)`
(accelerate/accelerator.py). Without `init_trackers` every `accelerator.log(...)` is a
silent no-op: no TensorBoard event file, no W&B run, no error. Reported in
lucidrains/audiolm-pytorch#44 ("It required initializing the accelerator trackers").

## How to fix it

Call `accelerator.init_trackers("project-name", config=...)` once after building the
accelerator (on every process; it only starts trackers on the main process).

## When preflight stays silent

* `init_trackers` appears anywhere in the file (any receiver: a helper, a base class).
* No `accelerator.log(...)` call in the file (the accelerator may be handed to code that
  initialises its trackers elsewhere).
* `log_with=None`, or the accelerator is built with `**kwargs`.
"""
    bad_examples = examples("preflight.rules.code._pf205_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf205_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if ctx.mentions("init_trackers"):
            return
        logs = accelerator_calls(ctx, "log")
        if not logs:
            return
        for ctor in accelerators(ctx):
            log_with = kwarg(ctor, "log_with")
            if log_with is None or has_unpacking(ctor):
                continue
            if isinstance(log_with, ast.Constant) and log_with.value is None:
                continue
            message = (
                f"`Accelerator(log_with={unparse(log_with)})` but `init_trackers(...)` is never called in "
                f"this file: `log_with` only names the trackers, `init_trackers` creates them, so the "
                f"{len(logs)} `accelerator.log(...)` call(s) (first at line {logs[0].lineno}) log nothing. "
                f"Call `accelerator.init_trackers(\"<project>\", config=...)` after building the accelerator")
            evidence = [ctx.evidence(logs[0], "this log goes to no tracker")]
            yield ctx.finding(self, ctor, message, evidence=evidence)
