"""PF517 save-state-on-main-process-sharded: ``accelerator.save_state`` on the main process under DeepSpeed/FSDP."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf414_support import last_name
from preflight.rules._pf427_support import parent_walker, rank_zero_guard
from preflight.rules.base import examples

_SHARDED = {"zero1": "DeepSpeed ZeRO-1", "zero2": "DeepSpeed ZeRO-2", "zero3": "DeepSpeed ZeRO-3",
            "fsdp_full": "FSDP", "fsdp_hybrid": "FSDP", "fsdp_grad_op": "FSDP"}
_SAVES = ("save_state", "get_state_dict")


@register
class SaveStateOnMainProcessSharded(PlanRule):
    code = "PF517"
    name = "save-state-on-main-process-sharded"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("accelerate", "deepspeed")
    summary = "`accelerator.save_state` runs on the main process only in a DeepSpeed or FSDP job"
    explanation = """
## What it finds

`accelerator.save_state(...)` (or `accelerator.get_state_dict(...)`) inside
`if accelerator.is_main_process:` (or another rank-0 test), in a job the plan
shows runs under DeepSpeed or FSDP: `accelerate launch --use_deepspeed/--use_fsdp`,
an accelerate config with `distributed_type: DEEPSPEED`/`FSDP`, or a DeepSpeed
config with a ZeRO stage.

## Why it matters

Under DeepSpeed `save_state` calls the engine's `save_checkpoint`, which every
rank must enter (each writes its ZeRO shard, then they synchronise); under FSDP it
gathers the sharded state dict from all ranks. Called on the main process alone,
the main process waits for ranks that never arrive and the job hangs at the first
checkpoint (diffusers issue 2606, accelerate issue 1171, DeepSpeed issue 2993; several diffusers scripts save when
`accelerator.is_main_process or accelerator.distributed_type == DistributedType.DEEPSPEED`).
Under plain DDP the same code works, which is why it survives until the job is
moved to DeepSpeed.

## How to fix it

Call `accelerator.save_state(path)` on every process; Accelerate writes the
shared files from the main process itself.

## When preflight stays silent

* No DeepSpeed/FSDP sharding in the plan (plain DDP, one process).
* The guard also lets DeepSpeed ranks through (`is_main_process or
  distributed_type == DistributedType.DEEPSPEED`), or both branches save.
"""
    bad_examples = examples("preflight.rules.plan._pf517_examples", "PF517_BAD")
    good_examples = examples("preflight.rules.plan._pf517_examples", "PF517_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        sharded = [f for f in pctx.plan.facts("dist.sharding") if f.value in _SHARDED]
        if not sharded:
            return
        fact = sharded[0]
        what = _SHARDED[fact.value]
        for script in pctx.scripts:
            if not any(isinstance(n, ast.Attribute) and n.attr in _SAVES for n in ast.walk(script.tree)):
                continue
            ancestors = parent_walker(script.tree)
            for node in ast.walk(script.tree):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr in _SAVES and "accelerator" in last_name(node.func.value).lower()):
                    continue
                guard = rank_zero_guard(ancestors, node)
                if guard is None:
                    continue
                evidence = [pctx.code_evidence(script, guard, "only the main process runs this", same_file=True)]
                said = pctx.fact_evidence(fact, f"{what} ({fact.source.detail or fact.value})")
                if said is not None:
                    evidence.append(said)
                yield pctx.code_finding(
                    self, script, node,
                    f"`{ast.unparse(node.func)}(...)` runs on the main process only, but this job trains under "
                    f"{what}: the save is a collective there (every rank writes its shard or sends its part of the "
                    "state), so the main process waits for ranks that never call it and the job hangs at the first "
                    "checkpoint. Call it on every process", evidence=evidence)
