"""PF209 step-schedule-sized-in-batches-under-accumulation: a Lightning step schedule counted in
batches while the Trainer accumulates gradients over several batches per optimizer step."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, Iterable, Optional

from preflight.analysis.accumulation import LIGHTNING_TRAINERS
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._schedule_support import fresh_loader_len, is_schedule
from preflight.rules.plan._trainer_blocks import trainer_blocks

if TYPE_CHECKING:
    from preflight.sources import ParsedPython

# names that already count optimizer steps, or divide by the accumulation
_STEP_WORDS = ("accumulate_grad_batches", "estimated_stepping_batches", "accumulation", "accumulate")


def _batch_count(expr: ast.AST) -> Optional[ast.AST]:
    """``len(<...>.train_dataloader())`` or ``self.trainer.num_training_batches`` inside ``expr``."""
    found = fresh_loader_len(expr)
    if found is not None:
        return found
    for sub in ast.walk(expr):
        if isinstance(sub, ast.Attribute) and sub.attr == "num_training_batches":
            return sub
    return None


def _accumulation(value: Any) -> Optional[int]:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if value > 1 else None


def _stepped_per_step(fn: ast.AST) -> bool:
    """The method returns its scheduler with ``"interval": "step"`` (Lightning steps it every
    optimizer step; the default ``"epoch"`` would step it once per epoch)."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if (isinstance(key, ast.Constant) and key.value == "interval"
                        and isinstance(value, ast.Constant) and value.value == "step"):
                    return True
    return False


@register
class StepScheduleSizedInBatchesUnderAccumulation(PlanRule):
    code = "PF209"
    name = "step-schedule-sized-in-batches-under-accumulation"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("`configure_optimizers` sizes a per-step LR schedule by the number of batches while the "
               "Trainer accumulates N batches per optimizer step: the schedule covers 1/N of its length")
    explanation = """
## What it finds

In a LightningModule's `configure_optimizers`, an LR scheduler returned with
`"interval": "step"` whose length comes from the number of training batches
(`steps_per_epoch=len(self.train_dataloader())`, `len(self.trainer.datamodule.train_dataloader())`,
`self.trainer.num_training_batches`, directly or through a variable), with no division by the
accumulation, in a job whose `Trainer(accumulate_grad_batches=N)` has N > 1.

## Why it matters

With `"interval": "step"` Lightning steps the scheduler once per **optimizer** step, and with
`accumulate_grad_batches=N` there is one optimizer step every N batches. A OneCycleLR or warmup
schedule sized in batches therefore walks only 1/N of its length by the end of training: the
learning rate warms up and then stays near its peak, it is never annealed. Lightning's answer in
issue 5449 ("Number of steps per epoch") divides the batches by `trainer.accumulate_grad_batches`;
`Trainer.estimated_stepping_batches` (Lightning >= 1.6, `trainer/trainer.py`) counts the optimizer
steps with accumulation, devices and `max_steps` included.

## How to fix it

`total_steps=self.trainer.estimated_stepping_batches`, or divide the batch count by
`self.trainer.accumulate_grad_batches`.

## When preflight stays silent

* The Trainer's `accumulate_grad_batches` is 1, not set, or not known statically.
* The method mentions `accumulate_grad_batches`, `estimated_stepping_batches` or an accumulation
  variable (the count is converted).
* The scheduler is stepped per epoch (no `"interval": "step"` in the method).
"""
    bad_examples = examples("preflight.rules.plan._pf209_examples", "PF209_BAD")
    good_examples = examples("preflight.rules.plan._pf209_examples", "PF209_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        accumulation = self._accumulation(pctx)
        if accumulation is None:
            return
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or "configure_optimizers" not in text or (
                    "train_dataloader()" not in text and "num_training_batches" not in text):
                continue
            tree = pctx.file_context(script).tree
            for fn in ast.walk(tree):
                if not (isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.name == "configure_optimizers"):
                    continue
                body = ast.unparse(fn)
                if any(w in body for w in _STEP_WORDS) or not _stepped_per_step(fn):
                    continue
                yield from self._in_method(pctx, script, fn, accumulation)

    @staticmethod
    def _accumulation(pctx: PlanContext) -> Optional[int]:
        """``accumulate_grad_batches`` of a Lightning Trainer of the job (a literal, a resolved
        name, or a ``_target_: ...Trainer`` node of a config), when it is above 1."""
        for script in pctx.scripts:
            idx = pctx.index(script)
            for site in idx.calls:
                if site.qualified not in LIGHTNING_TRAINERS:
                    continue
                expr = site.kwarg("accumulate_grad_batches")
                if expr is None:
                    continue
                found = idx.resolve(expr)
                value = _accumulation(found.value if found is not None else None)
                if value is not None:
                    return value
        for config in pctx.configs:
            for _, block in trainer_blocks(config.data):
                value = _accumulation(block.get("accumulate_grad_batches"))
                if value is not None:
                    return value
        return None

    def _in_method(self, pctx: PlanContext, script: ParsedPython, fn: ast.AST,
                   accumulation: int) -> Iterable[Finding]:
        counted: dict[str, ast.AST] = {}
        nodes = sorted((n for n in ast.walk(fn) if isinstance(n, (ast.Assign, ast.Call))),
                       key=lambda n: (n.lineno, n.col_offset))
        for node in nodes:
            if isinstance(node, ast.Assign):
                if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    found = _batch_count(node.value) or next(
                        (counted[n.id] for n in ast.walk(node.value) if isinstance(n, ast.Name) and n.id in counted),
                        None)
                    if found is not None:
                        counted[node.targets[0].id] = found
                    else:
                        counted.pop(node.targets[0].id, None)
                continue
            if not is_schedule(node):
                continue
            for arg in [*node.args[1:], *(kw.value for kw in node.keywords)]:
                found = _batch_count(arg) or next(
                    (counted[n.id] for n in ast.walk(arg) if isinstance(n, ast.Name) and n.id in counted), None)
                if found is None:
                    continue
                yield pctx.code_finding(
                    self, script, arg,
                    f"the per-step schedule is sized by `{ast.unparse(found)}`, a number of batches, but the "
                    f"Trainer accumulates {accumulation} batches per optimizer step (`accumulate_grad_batches="
                    f"{accumulation}`) and Lightning steps an `\"interval\": \"step\"` scheduler once per optimizer "
                    f"step: the schedule covers 1/{accumulation} of its length by the end of training (never "
                    "annealed). Use `self.trainer.estimated_stepping_batches`, or divide by "
                    "`self.trainer.accumulate_grad_batches`")
                break
