"""PF472 every-ddp-rank-saves: ``torch.save`` to one path reached by every DDP process."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import FunctionInfo, ScopeIndex, scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls
from preflight.rules.base import Rule, examples
from preflight.rules.code._rank_guards import guarded_by_rank
from preflight.rules.code._rank_saves import per_rank_or_buffer, rank_aware_saves


# entry points named for the program, not for a process: `def main():` runs on every rank
def _uses_ddp(ctx: FileContext) -> Optional[ast.Call]:
    for call, qual in calls(ctx):
        if qual.endswith("DistributedDataParallel") and "fully_sharded" not in qual.lower():
            return call
    return None


@register
class EveryDdpRankSaves(Rule):
    code = "PF472"
    needs_text = ("DistributedDataParallel",)
    name = "every-ddp-rank-saves"
    severity = Severity.WARNING
    category = Category.DISTRIBUTED
    frameworks = ("pytorch",)
    summary = "Every DDP process `torch.save`s the checkpoint to the same path at once"
    explanation = """
## What it finds

In a file that wraps its model in `DistributedDataParallel`, a `torch.save(obj, path)` that every
process runs: no rank test (`if rank == 0:`, `if dist.get_rank() == 0:`, `if is_main_process():`,
`if args.local_rank in (-1, 0):`, an early `return` on one) around it in a function that trains, or
around the call of the (method or) function of this file that holds it.

## Why it matters

Under DDP every process runs the same script. Each of them writes the same file at the same time:
N concurrent writers of one zip archive interleave or truncate it, and the checkpoint read back later
is corrupt ("file not found: archive/data/3259494704", kakaobrain/scrl issue 5: "the file was
corrupted due to the multiple processes trying to write on it at the same time"); at best the job
writes N copies of the same weights, N times slower, onto a shared filesystem.

## How to fix it

Save from one process: `if dist.get_rank() == 0: save(...)` (and a `dist.barrier()` before other
ranks read the file back).

## When preflight stays silent

* Some test that names a rank, the main or master process, a GPU or device index or the world surrounds the
  save or its call, or returns early before it; the helper's name says so (`save_on_master`; a
  function named `main` or `main_worker` is the program's entry point and does not count).
* The path names the rank (`f"ckpt_rank{rank}.pt"`, directly or through the variable holding it):
  one file per process is meant; or it is an in-memory buffer (`io.BytesIO()`).
* Some save of the file (any call whose name has `save`) already sits under a rank test: the
  project picks its saving rank itself, by paths (flags, wrappers, trainer objects) a file-local
  call graph cannot follow (the copies of the HF `Trainer` in LMFlow, ChatGLM-6B and zero_nlp).
* The save is not in a function that trains and no function of this file that trains calls the
  helper holding it (directly or through two more helpers, none of them under a rank test) (a helper with no caller here may be called from rank 0 elsewhere).
* The model is not wrapped in `DistributedDataParallel` in this file (FSDP's saves are collective).
"""
    bad_examples = examples("preflight.rules.code._pf472_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf472_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        ddp = _uses_ddp(ctx)
        if ddp is None:
            return
        if rank_aware_saves(ctx):
            return
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
            if fn.trains:
                site: Optional[ast.AST] = call
            else:
                site = self._unguarded_site(ctx, scopes, fn, depth=2)
            if site is None or site in reported:
                continue
            reported.add(site)
            via = "" if site is call else f" through `{ast.unparse(site)[:60]}`, which reaches it (line {call.lineno})"
            yield ctx.finding(
                self, site,
                f"every DistributedDataParallel process runs this `torch.save`{via}: all ranks write the same "
                "file at once, and concurrent writers corrupt the checkpoint (or, at best, write it N times). "
                "Save from one process: `if dist.get_rank() == 0:`",
                evidence=[ctx.evidence(ddp, "the model is replicated by DistributedDataParallel, one process "
                                            "per GPU"),
                          ctx.evidence(call, "the save")])

    def _unguarded_site(self, ctx: FileContext, scopes: ScopeIndex, fn: FunctionInfo,
                        depth: int) -> Optional[ast.AST]:
        """The first call of ``fn`` from a function that trains with no rank test on the way."""
        for site in fn.call_sites:
            caller = site.caller
            if caller.is_module_scope or guarded_by_rank(ctx, site.call, caller.node):
                continue
            if caller.trains:
                return site.call
            if depth > 0 and self._unguarded_site(ctx, scopes, caller, depth - 1) is not None:
                return site.call
        return None
