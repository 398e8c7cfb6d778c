"""PF1112 every-accelerate-process-torch-saves: in a job launched on several processes, an Accelerate
script's plain ``torch.save(obj, path)`` runs on every process (no main-process test): all ranks write the
same file at once and the checkpoint on disk is corrupt. PF472's Accelerate counterpart."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import ScopeIndex, scope_index
from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import calls
from preflight.rules.base import examples
from preflight.rules.code._rank_guards import guarded_by_rank
from preflight.rules.code._rank_saves import per_rank_or_buffer, rank_aware_saves
from preflight.rules.code.pf472_every_ddp_rank_saves import EveryDdpRankSaves
from preflight.rules.plan._schedule_support import processes


def _prepares(ctx: FileContext) -> Optional[ast.Call]:
    """An ``accelerator.prepare(...)`` of a file that builds an ``accelerate.Accelerator``."""
    built = any(qual == "accelerate.Accelerator" or (qual.startswith("accelerate.") and qual.endswith(".Accelerator"))
                for _, qual in calls(ctx))
    if not built:
        return None
    for call in ctx.nodes(ast.Call):
        if isinstance(call.func, ast.Attribute) and call.func.attr == "prepare" and call.args:
            return call
    return None


# PF472's walk up the file's call graph to the first unguarded call from a function that trains
_PF472 = EveryDdpRankSaves()


@register
class EveryAccelerateProcessTorchSaves(PlanRule):
    code = "PF1112"
    name = "every-accelerate-process-torch-saves"
    severity = Severity.WARNING
    category = Category.DISTRIBUTED
    frameworks = ("accelerate",)
    summary = ("every process of a multi-process Accelerate job runs a plain `torch.save` to the same path: "
               "concurrent writers corrupt the checkpoint")
    explanation = """
## What it finds

A job launched on more than one process (`accelerate launch --multi_gpu --num_processes 2`, a
`num_processes` above 1 in its accelerate config) whose script builds an `accelerate.Accelerator`,
prepares with it, and calls plain `torch.save(obj, path)` where every process reaches it: no test
of `accelerator.is_main_process` (or another rank test) around it, no early return before it, in a
function that trains or in a helper such a function calls unguarded. The same guards as PF472
(the DistributedDataParallel form of the defect) apply.

## Why it matters

`accelerator.wait_for_everyone()` only lines the processes up: after it every rank runs the save,
so N processes write one zip archive at once, interleaving or truncating it, and loading it later
fails ("PytorchStreamReader failed reading zip archive"; accelerate issue 2209, "model saved after
wait_for_everyone could not be loaded"). The trained weights are lost.

## How to fix it

`accelerator.save(obj, path)` (which writes from the main process only), or guard the save with
`if accelerator.is_main_process:`.

## When preflight stays silent

* The job runs one process, or its process count is not known.
* The save is under a rank test, after an early return on one, or in a helper only called under
  one; the path names the rank (one file per process) or is an in-memory buffer.
* Some save of the file already sits under a rank test (the project picks its saving rank itself).
* `accelerator.save` / `save_model` / `save_state` (Accelerate writes from the right processes).
"""
    bad_examples = examples("preflight.rules.plan._pf1112_examples", "PF1112_BAD")
    good_examples = examples("preflight.rules.plan._pf1112_examples", "PF1112_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        world = processes(pctx)
        if world is None:
            return
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or ("torch.save" not in text and "save(" not in text):
                continue
            ctx = pctx.file_context(script)
            prepare = _prepares(ctx)
            if prepare is None or rank_aware_saves(ctx):
                continue
            ev = pctx.fact_evidence(world, f"{world.value} processes")
            yield from self._check(ctx, prepare, world.value, [ev] if ev is not None else [])

    def _check(self, ctx: FileContext, prepare: ast.Call, world: int, extra: list[Evidence]) -> Iterable[Finding]:
        scopes: Optional[ScopeIndex] = None
        reported: set[ast.AST] = set()
        for call, qual in calls(ctx):
            if qual != "torch.save" or len(call.args) != 2 or call.keywords:
                continue
            if scopes is None:
                scopes = scope_index(ctx)
            fn = scopes.function_of(call)
            if fn.is_module_scope or guarded_by_rank(ctx, call, fn.node) or per_rank_or_buffer(fn.node, call.args[1]):
                continue
            site: Optional[ast.AST] = call if fn.trains else _PF472._unguarded_site(ctx, scopes, fn, depth=2)
            if site is None or site in reported:
                continue
            reported.add(site)
            via = "" if site is call else f" through `{ast.unparse(site)[:60]}`, which reaches it (line {call.lineno})"
            yield ctx.finding(
                self, site,
                f"all {world} processes of this Accelerate job run this `torch.save`{via} (no "
                "`accelerator.is_main_process` test): they write the same file at once, and concurrent writers "
                "corrupt the checkpoint (accelerate issue 2209). Use `accelerator.save(obj, path)` or save under "
                "`if accelerator.is_main_process:`",
                evidence=[ctx.evidence(prepare, "prepared by Accelerate, one process per GPU"),
                          ctx.evidence(call, "the save"), *extra])
