"""PF659 merge-on-every-rank-saved-on-main: a LoRA ``merge_and_unload()`` run on every process although
only the main process uses the merged model."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf427_support import rank_zero_flags_in, rank_zero_guard
from preflight.rules.base import Rule, examples


def _merged_name(node: ast.Assign) -> Optional[str]:
    """``merged = X.merge_and_unload()`` -> ``merged``."""
    value = node.value
    if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and isinstance(value, ast.Call) \
            and isinstance(value.func, ast.Attribute) and value.func.attr == "merge_and_unload":
        return node.targets[0].id
    return None


@register
class MergeOnEveryRankSavedOnMain(Rule):
    code = "PF659"
    needs_text = ("merge_and_unload",)
    name = "merge-on-every-rank-saved-on-main"
    severity = Severity.WARNING
    category = Category.MEMORY
    frameworks = ("pytorch", "accelerate", "transformers")
    summary = ("`merge_and_unload()` runs on every process but only the main process uses the merged model: "
               "N copies of the base model are loaded and merged at each checkpoint")
    explanation = """
## What it finds

In a function, `merged = <peft model>.merge_and_unload()` that no main-process test guards,
whose result is then used only under one (`if distributed_state.is_main_process:
merged.save_pretrained(...)`, `if rank == 0:`): the merge, and the base-model load that
precedes it, run on every process for one process's save.

## Why it matters

Merging a LoRA checkpoint needs the full base model in memory (usually freshly loaded with
`from_pretrained` for the merge). On 8 processes of one node that is 8 copies of a 7B model
(15 GB each in bf16) in host memory at every checkpoint, a host OOM or minutes of stall while
the other ranks wait at the barrier (openvla-oft PR 155: "every rank loads the 7B base model,
wraps it with PeftModel.from_pretrained and runs merge_and_unload(), although only rank 0 writes
the merged model").

## How to fix it

Move the load and the merge under the main-process test:
`if cfg.merge_lora and distributed_state.is_main_process: base = ...; merged = ...`.

## When preflight stays silent

* The merge is under a main-process test, or the merged model is used outside one (all ranks
  evaluate it), or is not used at all in the function.
* The file has no main-process test around the uses (a single-process script).
"""
    bad_examples = examples("preflight.rules.code._pf659_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf659_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        flags = rank_zero_flags_in(ctx)
        for node in ctx.nodes(ast.Assign):
            name = _merged_name(node)
            if name is None:
                continue
            if rank_zero_guard(ctx.ancestors, node.value, flags) is not None:
                continue
            scope = ctx.enclosing_function(node) or ctx.tree
            uses = [n for n in ast.walk(scope) if isinstance(n, ast.Name) and n.id == name
                    and isinstance(n.ctx, ast.Load) and n.lineno > node.lineno]
            if not uses:
                continue
            guards = [rank_zero_guard(ctx.ancestors, use, flags) for use in uses]
            if any(g is None for g in guards):
                continue
            guard = guards[0]
            assert guard is not None
            yield ctx.finding(
                self, node.value,
                f"`{name} = {ast.unparse(node.value)}` runs on every process, but `{name}` is used only under the "
                "main-process test below: every rank loads and merges its own copy of the base model for one "
                "process's save (N copies in host memory at each checkpoint: host OOM or a long stall at the "
                "barrier). Do the load and the merge under the main-process test",
                evidence=[ctx.evidence(guard, "the merged model is used only under this main-process test")])
