"""PF348 resize-embeddings-under-zero3-before-4-32: ``resize_token_embeddings`` under ZeRO-3 on a
transformers pin before 4.32: the enlarged embedding is built outside ``zero.Init`` and its pretrained
rows are copied on rank 0 only."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._zero3_resizes import zero3_resizing_scripts


@register
class ResizeEmbeddingsUnderZero3Before432(PlanRule):
    code = "PF348"
    name = "resize-embeddings-under-zero3-before-4-32"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers", "deepspeed")
    summary = ("`resize_token_embeddings` under ZeRO-3 on a transformers pin before 4.32: the ranks start from "
               "different embedding matrices")
    explanation = """
## What it finds

`model.resize_token_embeddings(...)` in a job whose DeepSpeed config is ZeRO stage 3, in a
project that pins transformers before 4.32 (`transformers==4.31.0`).

## Why it matters

In those releases `_get_resized_embeddings` builds the enlarged embedding as a plain
`nn.Embedding` outside `deepspeed.zero.Init`, initialises it on every rank, and copies
the pretrained rows into it inside `GatheredParameters(..., modifier_rank=0)` under a
rank-0 guard: on every other rank the whole matrix, pretrained tokens included, is random,
so the ranks train from different embeddings (transformers issue 25241; fixed by PR
25394, released in 4.32; 4.33.2 builds the new embedding under `zero.Init`).

## How to fix it

Upgrade transformers to 4.32 or later, or add the tokens and resize once without ZeRO-3,
save that checkpoint, and fine-tune from it.

## When preflight stays silent

* No ZeRO-3 in the plan, no transformers pin, a pin from 4.32, or a lower bound (which
  may install a fixed release). Releases before 4.31 were not read; the rule trusts the
  report that the path is the same there.
"""
    bad_examples = examples("preflight.rules.plan._pf348_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf348_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for zero3, script, version in zero3_resizing_scripts(pctx):
            if version.at_least(4, 32):
                continue
            for node in ast.walk(script.tree):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and node.func.attr == "resize_token_embeddings":
                    evidence = [e for e in [pctx.fact_evidence(zero3, "ZeRO stage 3")] if e is not None]
                    yield pctx.code_finding(self, script, node, (
                        f"`{ast.unparse(node)}` under ZeRO-3 on {version.describe()}: before 4.32 the enlarged "
                        "embedding is a plain `nn.Embedding` built outside `zero.Init`, and the pretrained rows "
                        "are copied into it on rank 0 only, so every other rank starts from a random embedding "
                        "matrix (transformers issue 25241, fixed by PR 25394 in 4.32). Upgrade transformers, or "
                        "resize once without ZeRO-3 and fine-tune from that checkpoint"), evidence=evidence)
