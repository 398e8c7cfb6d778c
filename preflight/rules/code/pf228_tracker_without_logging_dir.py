"""PF228 tracker-without-logging-dir: ``Accelerator(log_with="tensorboard")`` (or ``"aim"``) with no
project or logging directory, which the constructor refuses."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import accelerators, has_unpacking, kwarg
from preflight.rules.base import Rule, examples

# trackers whose class sets requires_logging_directory = True (accelerate tracking.py)
_NEEDS_DIR = {"tensorboard": "TensorBoard", "aim": "Aim"}
_DIR_KWARGS = ("project_dir", "project_config", "logging_dir")


def _needs_dir(ctx: FileContext, value: ast.expr) -> Optional[str]:
    """The tracker of ``log_with`` that needs a directory (``"tensorboard"``, ``LoggerType.TENSORBOARD``,
    or one in a list)."""
    items = value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value]
    for item in items:
        if isinstance(item, ast.Constant) and isinstance(item.value, str):
            name = item.value.lower()
        elif isinstance(item, ast.Attribute) and "LoggerType" in ast.unparse(item.value):
            name = item.attr.lower()
        else:
            continue
        if name in _NEEDS_DIR:
            return name
    return None


def _project_config_without_dir(ctx: FileContext, value: ast.expr) -> bool:
    """``project_config=ProjectConfiguration(...)`` built in the call with neither directory."""
    if not isinstance(value, ast.Call):
        return False
    qual = scope_index(ctx).imports.qualify(value.func) or ""
    if not qual.endswith("ProjectConfiguration") or value.args or has_unpacking(value):
        return False
    return kwarg(value, "project_dir") is None and kwarg(value, "logging_dir") is None


@register
class TrackerWithoutLoggingDir(Rule):
    code = "PF228"
    needs_text = ("log_with",)
    name = "tracker-without-logging-dir"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("accelerate",)
    summary = ("`Accelerator(log_with=\"tensorboard\")` (or `\"aim\"`) without `project_dir` or a "
               "`ProjectConfiguration` with a directory: the constructor raises before training")
    explanation = """
## What it finds

`Accelerator(log_with="tensorboard")` (also `"aim"`, `LoggerType.TENSORBOARD`, or either
in a list) called without `project_dir=`, without `project_config=` (or with a
`ProjectConfiguration()` built in the call with neither `project_dir` nor `logging_dir`),
and without the `logging_dir=` of old releases.

## Why it matters

The constructor passes `log_with` and `self.logging_dir` (the project configuration's
`logging_dir`, which defaults to `project_dir`) to `filter_trackers`
(accelerate/tracking.py). The TensorBoard and Aim trackers set
`requires_logging_directory = True`, and for them `filter_trackers` raises
"ValueError: Logging with `tensorboard` requires a `logging_dir` to be passed in" when it
is None: the script stops at `Accelerator(...)` on every launch (accelerate issue 1619,
Qwen3-TTS issue 286;
the maintainer: this is expected, pass a project directory). When the tracker's package
is not installed the tracker is dropped instead, with only a debug message, and nothing
is logged.

## How to fix it

`Accelerator(log_with="tensorboard", project_dir=args.output_dir)`, or
`project_config=ProjectConfiguration(project_dir=..., logging_dir=...)`.

## When preflight stays silent

* `project_dir=`, `project_config=` (other than a `ProjectConfiguration()` without
  directories) or `logging_dir=` is passed, or the call unpacks `**kwargs`.
* The call is inside `with pytest.raises(...)` / `with self.assertRaises(...)` (a test of
  the error itself).
* `log_with` is `"all"`, a tracker that needs no directory (`"wandb"`, `"mlflow"`,
  `"comet_ml"`), a tracker object, or a value preflight cannot read (`args.report_to`).
"""
    bad_examples = examples("preflight.rules.code._pf228_examples", "PF228_BAD")
    good_examples = examples("preflight.rules.code._pf228_examples", "PF228_GOOD")

    @staticmethod
    def _expects_error(ctx: FileContext, call: ast.Call) -> bool:
        """Inside ``with pytest.raises(...)`` / ``with self.assertRaises(...)``: the error is the test's point."""
        return any(isinstance(p, ast.With) and any("raises" in ast.unparse(i.context_expr).lower() for i in p.items)
                   for p in ctx.ancestors(call))

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call in accelerators(ctx):
            log_with = kwarg(call, "log_with")
            if log_with is None or has_unpacking(call) or call.args or self._expects_error(ctx, call):
                continue
            tracker = _needs_dir(ctx, log_with)
            if tracker is None:
                continue
            given = [k for k in _DIR_KWARGS if kwarg(call, k) is not None]
            if given and not (given == ["project_config"]
                              and _project_config_without_dir(ctx, kwarg(call, "project_config"))):  # type: ignore[arg-type]
                continue
            yield ctx.finding(
                self, call,
                f"`{ast.unparse(call)[:90]}` asks for the {_NEEDS_DIR[tracker]} tracker, which needs a logging "
                "directory, but no `project_dir` (or `ProjectConfiguration` with a directory) is given: the "
                f"constructor raises \"ValueError: Logging with `{tracker}` requires a `logging_dir` to be passed "
                "in\" before training starts. Pass `project_dir=<output dir>`")
