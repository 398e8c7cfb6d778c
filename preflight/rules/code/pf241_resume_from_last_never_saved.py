"""PF241 resume-from-last-never-saved: ``trainer.fit(..., ckpt_path="last")`` while no
ModelCheckpoint of the file writes a last checkpoint (``save_last`` never set)."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, kwarg, literal
from preflight.rules.base import Rule, examples

_PACKAGES = ("lightning.", "pytorch_lightning.", "lightning_fabric.")
_RUNS = ("fit",)  # test/validate(ckpt_path="last") after a fit keep the in-memory last weights


@register
class ResumeFromLastNeverSaved(Rule):
    code = "PF241"
    needs_text = ("ckpt_path",)
    name = "resume-from-last-never-saved"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("`trainer.fit(..., ckpt_path=\"last\")` while the file's ModelCheckpoint never sets `save_last`: "
               "no last checkpoint exists, so every restart trains from scratch")
    explanation = """
## What it finds

A Lightning `trainer.fit(..., ckpt_path="last")` in a file whose
`ModelCheckpoint(...)` calls never set `save_last` and do not name their files `last...`.

## Why it matters

`ckpt_path="last"` loads the newest `last*.ckpt` in the checkpoint folders
(`ModelCheckpoint._find_last_checkpoints`, `lightning/pytorch/callbacks/model_checkpoint.py`),
which only `save_last=True` writes. Without one Lightning does not fail: it warns
".fit(ckpt_path=\\"last\\") is set, but there is no last checkpoint available. No checkpoint will
be loaded. HINT: Set `ModelCheckpoint(..., save_last=True)`" (`checkpoint_connector.py`) and
starts from epoch 0. A preemptible job that relies on it to resume restarts from scratch on
every requeue (Lightning PR 12816).

## How to fix it

`ModelCheckpoint(..., save_last=True)` (or `save_last="link"`).

## When preflight stays silent

* Any `save_last` in the file (even one preflight cannot read), a ModelCheckpoint with
  `**kwargs` or a `filename` starting with `last`, a subclass of ModelCheckpoint, or an
  `OnExceptionCheckpoint` (its file is also a "last" candidate).
* The file builds no ModelCheckpoint (the callbacks come from a config or another module).
* `ckpt_path` is a path, `"best"`, or not a literal.
* `test`/`validate`/`predict(ckpt_path="last")`: with no last checkpoint Lightning warns and keeps the
  model in memory, which after a `fit` in the same process holds the last weights anyway.
"""
    bad_examples = examples("preflight.rules.code._pf241_examples", "PF241_BAD")
    good_examples = examples("preflight.rules.code._pf241_examples", "PF241_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        text = ctx.parsed.source.text
        if "save_last" in text or "OnExceptionCheckpoint" in text:
            return
        checkpoints = [c for c, q in calls(ctx) if q.startswith(_PACKAGES) and q.endswith(".ModelCheckpoint")]
        if not checkpoints:
            return
        for node in ctx.nodes(ast.ClassDef):
            if any("ModelCheckpoint" in ast.unparse(b) for b in node.bases):
                return
        for c in checkpoints:
            if any(kw.arg is None for kw in c.keywords) or c.args:
                return
            name = literal(ctx, kwarg(c, "filename"))
            if not isinstance(name, str) and kwarg(c, "filename") is not None:
                return
            if isinstance(name, str) and name.startswith("last"):
                return
        resumes = [c for c in ctx.nodes(ast.Call) if isinstance(c.func, ast.Attribute) and c.func.attr in _RUNS
                   and literal(ctx, kwarg(c, "ckpt_path")) == "last"]
        if not resumes:
            return
        run = resumes[0]
        assert isinstance(run.func, ast.Attribute)
        message = (f"this ModelCheckpoint never sets `save_last`, while `{ast.unparse(run.func)}(..., "
                   f"ckpt_path=\"last\")` (line {run.lineno}) resumes from the last checkpoint: no `last.ckpt` is "
                   "ever written, so Lightning warns \"there is no last checkpoint available. No checkpoint will "
                   "be loaded\" and every restart trains from epoch 0. Pass `save_last=True`")
        for c in checkpoints:
            yield ctx.finding(self, c, message, evidence=[ctx.evidence(run, "resumes from \"last\"")])
