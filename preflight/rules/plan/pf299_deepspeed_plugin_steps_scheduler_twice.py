"""PF299 deepspeed-plugin-steps-scheduler-twice: a scheduler returned by ``configure_optimizers`` under
Lightning's DeepSpeed plugin on pytorch-lightning before 1.5: DeepSpeed and Lightning both step it."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_FIXED = (1, 5, 0)  # Lightning PR 9788 ("Fix Deepspeed and lightning calling scheduler"), first in 1.5.0
_PLUGIN = (1, 2, 0)  # the DeepSpeed plugin appeared in 1.2


def _uses_deepspeed_plugin(ctx: FileContext) -> Optional[ast.AST]:
    """A ``Trainer(plugins=DeepSpeedPlugin(...))`` / ``plugins="deepspeed_stage_2"`` / ``accelerator="deepspeed"``."""
    for call in ctx.nodes(ast.Call):
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name != "Trainer":
            continue
        for kw in call.keywords:
            if kw.arg not in ("plugins", "accelerator", "strategy"):
                continue
            for sub in ast.walk(kw.value):
                if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and \
                        sub.value.startswith("deepspeed"):
                    return kw.value
                if isinstance(sub, ast.Call):
                    callee = sub.func.attr if isinstance(sub.func, ast.Attribute) else \
                        sub.func.id if isinstance(sub.func, ast.Name) else ""
                    if callee in ("DeepSpeedPlugin", "DeepSpeedStrategy"):
                        return kw.value
    return None


def _is_scheduler_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    text = ast.unparse(func)
    return "lr_scheduler" in text or name.endswith(("LR", "Scheduler", "LRScheduler")) or \
        (name.startswith("get_") and "schedule" in name)


def _scheduler_return(fn: ast.FunctionDef) -> Optional[ast.Return]:
    """The ``return`` of ``configure_optimizers`` that hands back a scheduler it built."""
    built = {t.id for node in ast.walk(fn) if isinstance(node, ast.Assign) and _is_scheduler_call(node.value)
             for t in node.targets if isinstance(t, ast.Name)}
    for node in ast.walk(fn):
        if isinstance(node, ast.Return) and node.value is not None:
            for sub in ast.walk(node.value):
                if (isinstance(sub, ast.Name) and sub.id in built) or _is_scheduler_call(sub):
                    return node
    return None


@register
class DeepSpeedPluginStepsSchedulerTwice(PlanRule):
    code = "PF299"
    name = "deepspeed-plugin-steps-scheduler-twice"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning", "deepspeed")
    summary = ("A scheduler returned by `configure_optimizers` under Lightning's DeepSpeed plugin on "
               "pytorch-lightning < 1.5: DeepSpeed and Lightning both step it")
    explanation = """
## What it finds

A LightningModule whose `configure_optimizers` returns a learning-rate scheduler, trained
by a `Trainer` with the DeepSpeed plugin (`plugins=DeepSpeedPlugin(...)`,
`plugins="deepspeed_stage_2"`), in a project that pins pytorch-lightning to a release from
1.2 to 1.4.x.

## Why it matters

Before 1.5 the plugin handed the scheduler to `deepspeed.initialize`, so the engine stepped
it inside every `engine.step()`, and Lightning's loop stepped it again on its own interval:
a per-step schedule advances twice per optimizer step (warmup ends at half the planned
steps, the learning rate reaches its floor halfway through training), and a per-epoch
schedule is stepped on every batch. Lightning issue 9771 ("DeepSpeed & Lightning are both
calling the scheduler"); fixed by PR 9788 in 1.5.0, which clears the engine's
`lr_scheduler` and leaves stepping to Lightning.

## How to fix it

Upgrade to pytorch-lightning 1.5 or later, or define the scheduler in the DeepSpeed config
(and return none from `configure_optimizers`).

## When preflight stays silent

* No pytorch-lightning version is pinned, the pin is 1.5 or later (or below 1.2), or only a
  lower bound is declared.
* `configure_optimizers` returns no scheduler, or the Trainer uses no DeepSpeed plugin.
"""
    bad_examples = examples("preflight.rules.plan._pf299_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf299_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        plugin = None
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if text and "eep" in text and "Trainer" in text:
                found = _uses_deepspeed_plugin(pctx.file_context(script))
                if found is not None:
                    plugin = (script, found)
                    break
        if plugin is None:
            return
        version = pctx.version("pytorch-lightning", plugin[0]) or pctx.version("pytorch_lightning", plugin[0])
        if version is None or version.how != "pinned" or version.at_least(*_FIXED) or \
                not version.at_least(*_PLUGIN):
            return
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or "configure_optimizers" not in text:
                continue
            ctx = pctx.file_context(script)
            for fn in ctx.nodes(ast.FunctionDef):
                if fn.name != "configure_optimizers":
                    continue
                ret = _scheduler_return(fn)
                if ret is None:
                    continue
                yield pctx.code_finding(
                    self, script, ret,
                    f"`configure_optimizers` returns a learning-rate scheduler and the Trainer uses the DeepSpeed "
                    f"plugin on {version.describe()}: before 1.5 the plugin hands the scheduler to "
                    "`deepspeed.initialize`, which steps it in every `engine.step()`, and Lightning steps it again, "
                    "so the schedule advances twice per optimizer step (warmup and decay end at half the planned "
                    "steps). Upgrade to pytorch-lightning 1.5 (PR 9788) or move the scheduler into the DeepSpeed "
                    "config",
                    evidence=[pctx.code_evidence(plugin[0], plugin[1], "the DeepSpeed plugin")])
