"""PF614 subprocess-strategy-in-notebook: a Lightning ``Trainer``/``Fabric`` in a notebook with a
strategy whose launcher re-runs the script in new processes (``"ddp"``, ``"ddp_spawn"``,
``"deepspeed"``, ``"fsdp"``), which Lightning refuses in an interactive environment."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples

_ENTRY = frozenset({"Trainer", "Fabric"})
# the strategies whose launcher is `_SubprocessScriptLauncher` (re-runs `sys.argv` in new processes)
# or `_MultiProcessingLauncher(start_method="spawn")`: `is_interactive_compatible` is False
_PREFIXES = ("ddp", "deepspeed", "fsdp")
_INTERACTIVE = frozenset({"ddp_notebook", "ddp_fork", "ddp_notebook_find_unused_parameters_true",
                          "ddp_fork_find_unused_parameters_true", "ddp_fork_find_unused_parameters_false",
                          "ddp_notebook_find_unused_parameters_false"})
_STRATEGY_CLASSES = frozenset({"DDPStrategy", "DeepSpeedStrategy", "FSDPStrategy"})


def _refused(value: ast.AST) -> Optional[str]:
    """The strategy's text when Lightning refuses it in a notebook."""
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        name = value.value
        if name.startswith(_PREFIXES) and name not in _INTERACTIVE and not name.startswith(("ddp_fork", "ddp_notebook")):
            return repr(name)
        return None
    if isinstance(value, ast.Call) and call_last(value) in _STRATEGY_CLASSES:
        start = kwarg(value, "start_method")
        if call_last(value) == "DDPStrategy" and start is not None and not (
                isinstance(start, ast.Constant) and start.value in ("popen", "spawn")):
            return None  # start_method="fork" runs in the notebook's process tree
        return ast.unparse(value)
    return None


@register
class SubprocessStrategyInNotebook(PlanRule):
    code = "PF614"
    name = "subprocess-strategy-in-notebook"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("A Lightning Trainer/Fabric in a notebook with `strategy=\"ddp\"` (or spawn, DeepSpeed, FSDP): "
               "Lightning refuses it in an interactive environment")
    explanation = """
## What it finds

A `Trainer(...)` or `Fabric(...)` of Lightning in a Jupyter notebook (`.ipynb`) whose
`strategy` is `"ddp"`, `"ddp_spawn"`, a `"ddp_find_unused_parameters_*"` variant,
`"deepspeed*"`, `"fsdp"`, or a `DDPStrategy()`/`DeepSpeedStrategy()`/`FSDPStrategy()`
object (a `DDPStrategy` with `start_method="fork"` aside).

## Why it matters

These strategies start their worker processes by launching the running script again
(`_SubprocessScriptLauncher`) or by spawning fresh interpreters
(`_MultiProcessingLauncher(start_method="spawn")`); neither works from a notebook kernel,
whose code is not a script. Lightning checks it when the Trainer is built
(`_AcceleratorConnector._lazy_init_strategy`: `if _IS_INTERACTIVE and
self.strategy.launcher and not self.strategy.launcher.is_interactive_compatible: raise
MisconfigurationException("Trainer(strategy='ddp') is not compatible with an interactive
environment. Run your code as a script, or choose one of the compatible strategies: ...
'ddp_notebook'")`), so the cell fails before training (graphnet issue 413).

## How to fix it

Use `strategy="ddp_notebook"` (forked processes; touch no CUDA before `fit`), `"dp"`, or
the default `"auto"` (which picks a notebook-compatible strategy), or move the training
into a script launched from the command line.

## When preflight stays silent

* The file is a `.py` script, or the strategy is `"auto"`, `"dp"`, `"ddp_notebook"`,
  `"ddp_fork"`, a single-device strategy, or not known statically.
"""
    bad_examples = examples("preflight.rules.plan._pf614_examples", "PF614_BAD")
    good_examples = examples("preflight.rules.plan._pf614_examples", "PF614_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            if script.cell_map is None:
                continue
            idx = pctx.index(script)
            for call in ast.walk(script.tree):
                if not isinstance(call, ast.Call) or call_last(call) not in _ENTRY:
                    continue
                qual = idx.qualify(ast.unparse(call.func)) or ""
                if not qual.startswith(("lightning", "pytorch_lightning")):
                    continue
                value = kwarg(call, "strategy")
                refused = _refused(value) if value is not None else None
                if refused is None:
                    continue
                assert value is not None
                yield pctx.code_finding(self, script, value, (
                    f"`{call_last(call)}(strategy={refused})` in a notebook: this strategy starts its processes by "
                    "re-running the script (or spawning new interpreters), which a notebook kernel cannot do, so "
                    f"Lightning raises \"`Trainer(strategy={refused})` is not compatible with an interactive "
                    "environment\" when the Trainer is built. Use `strategy=\"ddp_notebook\"` (or the default "
                    "`\"auto\"`) in the notebook, or train from a script"),
                    evidence=[pctx.code_evidence(script, call, "the Trainer built in a notebook cell", same_file=True)])
