"""PF212 accelerator-never-prepares: a multi-process Accelerate job whose training script builds an
``Accelerator`` and trains, but passes nothing to ``accelerator.prepare``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import accelerator_names, accelerators
from preflight.rules.base import examples
from preflight.rules.plan._schedule_support import processes

_PREPARES = ("prepare", "prepare_model", "prepare_data_loader", "prepare_optimizer")


def _handed_on(ctx: FileContext, names: set[str]) -> bool:
    """The accelerator object itself goes somewhere preflight does not follow: an argument of a
    call (``train(accelerator, ...)``), a value stored on an object or returned."""
    for node in ast.walk(ctx.tree):
        if isinstance(node, ast.Call):
            for arg in [*node.args, *(kw.value for kw in node.keywords)]:
                if ast.unparse(arg) in names:
                    return True
        elif (isinstance(node, ast.Return) and node.value is not None and ast.unparse(node.value) in names) or (isinstance(node, ast.Assign) and ast.unparse(node.value) in names):
            return True
    return False


def _moved_model(ctx: FileContext, names: set[str]) -> Optional[ast.Assign]:
    """The first ``model = Build(...).to(accelerator.device)``: the model placed by hand."""
    for node in ctx.nodes(ast.Assign):
        value = node.value
        if (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "to"
                and value.args and isinstance(value.func.value, ast.Call)
                and any(ast.unparse(value.args[0]) == f"{n}.device" for n in names)):
            return node
    return None


@register
class AcceleratorNeverPrepares(PlanRule):
    code = "PF212"
    name = "accelerator-never-prepares"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("accelerate",)
    summary = ("A multi-process Accelerate job builds an `Accelerator` and trains without ever calling "
               "`accelerator.prepare`: every process trains its own copy on the whole dataset")
    explanation = """
## What it finds

A training script of a job launched on several processes (`accelerate launch --multi_gpu
--num_processes 4`, a config with `num_processes: 8`) that creates an `Accelerator`, runs
`accelerator.backward(...)` (or a backward and an optimizer step), and never calls
`accelerator.prepare(...)` (nor `prepare_model`, `prepare_data_loader`, `prepare_optimizer`):
the model is only moved to `accelerator.device` by hand.

## Why it matters

Everything distributed in Accelerate happens in `prepare`: it wraps the model in
`DistributedDataParallel` (gradients are averaged across processes), shards the dataloaders,
and applies mixed precision and the optimizer wrapper. Without it each of the N processes
trains an independent, unsynchronised copy of the model on the full dataset, and the
checkpoint the main process writes is one of N diverging models. Nothing fails; the
maintainers' answer in accelerate issue 244 ("Code runs without accelerate.prepare"): without
`prepare` it does not actually train distributed.

## How to fix it

`model, optimizer, train_loader, val_loader = accelerator.prepare(model, optimizer, train_loader,
val_loader)` before the loop, and drop the manual `.to(accelerator.device)`.

## When preflight stays silent

* One process, or the process count is not known.
* Any `prepare*` call in the file, or the accelerator object is handed to a function, stored
  or returned (the preparing may happen elsewhere).
* The file does not train (no backward).
"""
    bad_examples = examples("preflight.rules.plan._pf212_examples", "PF212_BAD")
    good_examples = examples("preflight.rules.plan._pf212_examples", "PF212_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        world = processes(pctx)
        if world is None:
            return
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or "Accelerator" not in text or "backward" not in text:
                continue
            ctx = pctx.file_context(script)
            ctors = accelerators(ctx)
            if not ctors:
                continue
            if any(isinstance(n, ast.Attribute) and n.attr in _PREPARES for n in ast.walk(ctx.tree)):
                continue
            names = accelerator_names(ctx)
            if not names or _handed_on(ctx, names):
                continue
            backward = next((n for n in ast.walk(ctx.tree) if isinstance(n, ast.Call)
                             and isinstance(n.func, ast.Attribute) and n.func.attr == "backward"), None)
            if backward is None:
                continue
            moved = _moved_model(ctx, names)
            anchor: ast.AST = moved if moved is not None else ctors[0]
            evidence = [pctx.code_evidence(script, ctors[0], "the Accelerator is created here"),
                        pctx.code_evidence(script, backward, "and the script trains (backward)")]
            ev = pctx.fact_evidence(world, f"{world.value} processes")
            if ev is not None:
                evidence.append(ev)
            yield pctx.code_finding(
                self, script, anchor,
                f"the script creates an `Accelerator` and trains but never calls `accelerator.prepare`"
                f"{' (the model is only moved to `accelerator.device`)' if moved is not None else ''}: with "
                f"{world.value} processes each trains its own unsynchronised copy on the full dataset (no DDP "
                "gradient averaging, no data sharding, no mixed precision), and the saved model is one of "
                f"{world.value} diverging copies. Pass the model, optimizer and dataloaders to "
                "`accelerator.prepare(...)`",
                evidence=evidence)
