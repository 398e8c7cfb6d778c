"""PF1113 accelerate-job-hardcodes-one-gpu: a script launched on several processes that builds an
``accelerate.Accelerator`` yet moves its modules and batches to a fixed GPU (``device = torch.device("cuda:0")``,
``.to("cuda:0")``) instead of ``accelerator.device``: every process puts its copies on that one GPU."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import calls
from preflight.rules.base import examples
from preflight.rules.code._rank_guards import guarded_by_rank
from preflight.rules.plan._device_map import fixed_gpu
from preflight.rules.plan._schedule_support import processes


def _fixed_names(tree: ast.Module) -> dict[str, ast.Assign]:
    """Names bound exactly once in the file, to a fixed GPU (``torch.device("cuda:0")``, ``"cuda:0"``)."""
    bound: dict[str, list[ast.Assign]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    bound.setdefault(t.id, []).append(node)
    out: dict[str, ast.Assign] = {}
    for name, assigns in bound.items():
        if len(assigns) != 1:
            continue
        value = assigns[0].value
        if isinstance(value, ast.Constant) and not isinstance(value.value, str):
            continue  # an int is any number (`seed = 0`), not a device
        if fixed_gpu(value):
            out[name] = assigns[0]
    return out


def _moves(ctx: FileContext, fixed: dict[str, ast.Assign]) -> list[tuple[ast.Call, Optional[str]]]:
    """``x.to(<fixed GPU>)`` / ``x.to(device=<fixed>)`` / ``x.cuda(0)`` calls: (call, the name used or None)."""
    out: list[tuple[ast.Call, Optional[str]]] = []
    for call in ctx.nodes(ast.Call):
        func = call.func
        if not isinstance(func, ast.Attribute) or func.attr not in ("to", "cuda"):
            continue
        args = [*call.args[:1], *(k.value for k in call.keywords if k.arg == "device")]
        for arg in args:
            if isinstance(arg, ast.Name) and arg.id in fixed:
                out.append((call, arg.id))
            elif (func.attr == "to" and isinstance(arg, ast.Constant) and isinstance(arg.value, str) \
                    and fixed_gpu(arg)) or (func.attr == "cuda" and isinstance(arg, ast.Constant) and isinstance(arg.value, int) \
                    and not isinstance(arg.value, bool)):
                out.append((call, None))
    return out


@register
class AccelerateJobHardcodesOneGpu(PlanRule):
    code = "PF1113"
    name = "accelerate-job-hardcodes-one-gpu"
    severity = Severity.WARNING
    category = Category.DISTRIBUTED
    frameworks = ("accelerate",)
    summary = ("a multi-process Accelerate job moves its modules and batches to a fixed GPU (`cuda:0`) instead of "
               "`accelerator.device`: every process uses that one GPU")
    explanation = """
## What it finds

A job launched on more than one process (`accelerate launch --multi_gpu --num_processes 4`) whose
script builds an `accelerate.Accelerator` and prepares with it, and also moves modules or tensors
to a GPU written as a constant: `.to(device)` with `device = torch.device("cuda:0")` (or
`"cuda:0"`, `torch.device("cuda", 0)`, bound once), `.to("cuda:0")`, `.cuda(0)`, outside any
rank test.

## Why it matters

`accelerate launch` starts one process per GPU and gives each its own `accelerator.device`
(`cuda:0`, `cuda:1`, ...); a constant `cuda:0` is the same GPU in every process. All processes
put their copies of the frozen models (a text encoder, a VAE) and their batches on GPU 0, which
runs out of memory while the other GPUs hold almost nothing; where it fits, the prepared model on
`cuda:N` receives `cuda:0` tensors and the step fails with a device mismatch
(Stability-AI/lora_accelerated PR 2, "using hf accel device instead of cuda:0").

## How to fix it

`device = accelerator.device` (and `.to(accelerator.device)`).

## When preflight stays silent

* The job runs one process, or its process count is not known.
* The script sets `CUDA_VISIBLE_DEVICES` itself (each process may see its own GPU as 0).
* The device is computed (`accelerator.device`, `f"cuda:{local_rank}"`, `"cuda"`), or the name is
  bound more than once; the move is under a rank test (a main-process-only evaluation).
* The script builds no Accelerator or prepares nothing (PF332 covers a fixed `device_map`).
"""
    bad_examples = examples("preflight.rules.plan._pf1113_examples", "PF1113_BAD")
    good_examples = examples("preflight.rules.plan._pf1113_examples", "PF1113_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        world = processes(pctx)
        if world is None:
            return
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or "cuda" not in text or "CUDA_VISIBLE_DEVICES" in text or "prepare" not in text:
                continue
            ctx = pctx.file_context(script)
            if not isinstance(ctx.tree, ast.Module):
                continue
            if not any(qual == "accelerate.Accelerator" for _, qual in calls(ctx)):
                continue
            ev = pctx.fact_evidence(world, f"{world.value} processes")
            yield from self._check(ctx, world.value, [ev] if ev is not None else [])

    def _check(self, ctx: FileContext, world: int, extra: list[Evidence]) -> Iterable[Finding]:
        fixed = _fixed_names(ctx.tree)
        scopes = scope_index(ctx)
        moves = [(call, name) for call, name in _moves(ctx, fixed)
                 if not guarded_by_rank(ctx, call, scopes.function_of(call).node)]
        if not moves:
            return
        call, name = moves[0]
        where: ast.AST = fixed[name] if name is not None else call
        shown = ast.unparse(fixed[name].value) if name is not None else ast.unparse(call)
        yield ctx.finding(
            self, where,
            f"`{shown}` is one fixed GPU, but all {world} processes of this Accelerate job run this script: every "
            f"one of them moves its modules and batches there ({len(moves)} move(s), first at line {call.lineno}), "
            "so that GPU holds every copy and the others stay empty (or the prepared model on cuda:N gets cuda:0 "
            "inputs). Use `accelerator.device`",
            evidence=[ctx.evidence(call, "moved to the fixed GPU here"), *extra])
