"""PF382 deepspeed-loader-ignores-mpu-before-0-2: ``deepspeed.initialize(training_data=..., mpu=...)`` on a
DeepSpeed pin before 0.2.0, whose loader shards by the global rank, not the data-parallel rank."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules.base import examples


def _given(node: ast.AST | None) -> bool:
    return node is not None and not (isinstance(node, ast.Constant) and node.value is None)


@register
class DeepSpeedLoaderIgnoresMpuBefore02(PlanRule):
    code = "PF382"
    name = "deepspeed-loader-ignores-mpu-before-0-2"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("deepspeed",)
    summary = ("`deepspeed.initialize(training_data=..., mpu=...)` on DeepSpeed before 0.2.0: the loader shards by "
               "the global rank, so model-parallel partners get different batches")
    explanation = """
## What it finds

`deepspeed.initialize(..., training_data=dataset, mpu=mpu)` (DeepSpeed builds the training
loader, and a model-parallel unit is given) in a project that pins `deepspeed` before 0.2.0.

## Why it matters

Before 0.2.0 the loader DeepSpeed builds from `training_data` samples with
`DistributedSampler(dataset)`, i.e. over the global world size and rank, even when an `mpu`
says the ranks form model-parallel groups (read in `deepspeed/pt/deepspeed_dataloader.py` at
v0.1.0). With tensor-parallel size 2 on 8 GPUs the two halves of each model replica are fed
different samples, and each data-parallel replica sees only part of its share (DeepSpeed issue
99; PR 216, released in 0.2.0, passes the data-parallel world size and rank).

## How to fix it

Upgrade DeepSpeed, or build the loader yourself with
`DistributedSampler(dataset, num_replicas=mpu.get_data_parallel_world_size(),
rank=mpu.get_data_parallel_rank())` and leave `training_data` out.

## When preflight stays silent

* No `training_data=` or no `mpu=` (or a literal None), no deepspeed pin, a pin from 0.2.0, or
  a lower bound.
"""
    bad_examples = examples("preflight.rules.plan._pf382_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf382_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            if "mpu" not in script.source.text or "training_data" not in script.source.text:
                continue
            version = pctx.version("deepspeed", script)
            if version is None or version.how != "pinned" or version.at_least(0, 2):
                continue
            for call in ast.walk(script.tree):
                if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                        and call.func.attr == "initialize" and ast.unparse(call.func.value) == "deepspeed"):
                    continue
                if _given(kwarg(call, "training_data")) and _given(kwarg(call, "mpu")):
                    yield pctx.code_finding(self, script, call, (
                        f"`deepspeed.initialize(training_data=..., mpu=...)` on {version.describe()}: before 0.2.0 "
                        "the loader DeepSpeed builds samples with `DistributedSampler(dataset)` over the global "
                        "world and ignores the mpu, so the model-parallel ranks of one replica get different "
                        "batches and the data-parallel replicas see only part of their share (DeepSpeed issue 99, "
                        "fixed by PR 216 in 0.2.0). Upgrade, or build the loader with the mpu's data-parallel "
                        "world size and rank"))
