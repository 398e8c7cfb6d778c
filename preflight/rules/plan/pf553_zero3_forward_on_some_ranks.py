"""PF553 zero3-forward-on-some-ranks: a ZeRO-3 engine's forward/generate under a rank test."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.code._rank_guards import only_rank_test
from preflight.rules.plan._deepspeed_engines import engine_names


def _rank_gate(ctx: FileContext, node: ast.AST) -> Optional[ast.If]:
    """The rank-only ``if`` whose body holds ``node`` (inside its function)."""
    cur: Optional[ast.AST] = node
    fn = ctx.enclosing_function(node)
    while cur is not None and cur is not fn:
        parent = ctx.parent(cur)
        if isinstance(parent, ast.If) and any(cur is s for s in parent.body) and only_rank_test(parent.test):
            return parent
        cur = parent
    return None


@register
class Zero3ForwardOnSomeRanks(PlanRule):
    code = "PF553"
    name = "zero3-forward-on-some-ranks"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("deepspeed",)
    summary = ("`generate()`/forward of a ZeRO stage 3 DeepSpeed engine under a rank test: the other ranks "
               "never join its parameter all-gathers, the job hangs")
    explanation = """
## What it finds

`engine.module.generate(...)`, `engine.generate(...)` or a forward call `engine(...)` of the
engine `deepspeed.initialize` returned, inside `if dist.get_rank() == 0:` (or another
rank-only test), in a job whose DeepSpeed config uses ZeRO stage 3 on more than one process.

## Why it matters

Under ZeRO-3 each rank holds only a slice of every weight; every forward of every layer
all-gathers the full weight from all ranks. A forward (or `generate`, which runs many) on
rank 0 alone waits for ranks that never enter the collective: the job hangs, until the
NCCL timeout kills it (DeepSpeed issue 4910: "if any process within the distributed
environment does not execute the model.generate() function, it leads to a deadlock").
`synced_gpus=True` does not help when the other ranks do not call `generate` at all.

## How to fix it

Run the forward/`generate(..., synced_gpus=True)` on every rank and keep only the printing
or saving of its result under the rank test.

## When preflight stays silent

* ZeRO stage 0-2 (each rank holds whole weights), or a single process.
* Only the use of the outputs (decode, print, save) sits under the rank test.
"""
    bad_examples = examples("preflight.rules.plan._pf553_examples", "PF553_BAD")
    good_examples = examples("preflight.rules.plan._pf553_examples", "PF553_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        plan = pctx.plan
        zero3 = next((f for f in plan.facts("dist.sharding") if f.value == "zero3" and f.adapter == "deepspeed"), None)
        world = plan.resolve("dist.world_size")
        if zero3 is None or world is None or not isinstance(world.value, int) or world.value <= 1:
            return
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if "initialize" not in (text or ""):
                continue
            ctx = pctx.file_context(script)
            engines = engine_names(ctx, script)
            if not engines:
                continue
            for node in ast.walk(script.tree):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                if isinstance(func, ast.Attribute) and func.attr == "generate":
                    receiver = ast.unparse(func.value)
                elif isinstance(func, (ast.Name, ast.Attribute)):
                    receiver = ast.unparse(func)
                else:
                    continue
                base = receiver[:-len(".module")] if receiver.endswith(".module") else receiver
                fn = ctx.enclosing_function(node)
                if (base, None) not in engines and (base, fn) not in engines:
                    continue
                gate = _rank_gate(ctx, node)
                if gate is None:
                    continue
                what = "generate(...)" if isinstance(func, ast.Attribute) and func.attr == "generate" else "(...)"
                message = (f"`{receiver}{'.' if what.startswith('g') else ''}{what}` runs only where "
                           f"`{ast.unparse(gate.test)}` holds, on a ZeRO stage 3 engine over {world.value} processes: "
                           "every layer's forward all-gathers its partitioned weights from all ranks, and the other "
                           "ranks never join, so the job hangs. Run it on every rank (generate with "
                           "`synced_gpus=True`) and keep only the use of its output under the rank test")
                evidence = [e for e in (pctx.fact_evidence(zero3, "ZeRO stage 3: parameters are partitioned"),
                                        pctx.code_evidence(script, gate, "the rank test"))
                            if e is not None]
                yield pctx.code_finding(self, script, node, message, evidence=evidence)
