"""PF506 checkpointing-with-fsdp-full-shard: model-level gradient checkpointing under FSDP full sharding."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

if TYPE_CHECKING:
    from preflight.plan import Fact

_FULL = ("fsdp_full", "fsdp_hybrid")


def _fsdp_own(fact: Fact) -> bool:
    """FSDP's own activation checkpointing (plugin / strategy / fsdp_config), not the model's."""
    text = " ".join(filter(None, (fact.source.key, fact.source.detail))).lower()
    return "fsdp" in text


def _apart(pctx: PlanContext, a: Fact, b: Fact) -> bool:
    """Both facts come from one script but from two different top-level functions: two
    unrelated code paths of a module (a library helper, an evaluation-only wrap), not one job."""
    if a.source.path is None or a.source.path != b.source.path or a.source.line is None or b.source.line is None:
        return False
    script = next((s for s in pctx.scripts if s.source.display == a.source.path), None)
    if script is None:
        return False

    def owner(line: int) -> Optional[ast.AST]:
        for node in script.tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and \
                    node.lineno <= line <= (node.end_lineno or node.lineno):
                return node
        return None

    first, second = owner(a.source.line), owner(b.source.line)
    return first is not None and second is not None and first is not second


@register
class CheckpointingWithFsdpFullShard(PlanRule):
    code = "PF506"
    name = "checkpointing-with-fsdp-full-shard"
    severity = Severity.WARNING
    category = Category.PERFORMANCE
    frameworks = ("transformers", "accelerate", "lightning")
    summary = "Model-level gradient checkpointing is combined with FSDP full sharding"
    explanation = """
## What it finds

A job that shards with FSDP `FULL_SHARD` or `HYBRID_SHARD` (TrainingArguments
`fsdp="full_shard"`, an accelerate FSDP config, Lightning `FSDPStrategy`) and
turns on the model's own gradient checkpointing (`gradient_checkpointing=True`
in TrainingArguments / SFTConfig, where TRL has it on by default, or
`model.gradient_checkpointing_enable()`) instead of FSDP's activation
checkpointing.

## Why it matters

The model-level checkpoint re-runs each layer's forward during backward
outside FSDP's knowledge, so the fully sharded parameters are all-gathered once
more for the recomputation: an extra AllGather per layer per step. transformers
itself warns: "prefer `fsdp_config['activation_checkpointing']` ... the latter
introduces a redundant AllGather in the backward pass" (huggingface/transformers#30404).

## How to fix it

Turn the model-level flag off and enable FSDP's:
`fsdp_config={"activation_checkpointing": True}` (HF), `fsdp_activation_checkpointing: true`
(accelerate config), `FSDPStrategy(activation_checkpointing_policy=...)` (Lightning).

## When preflight stays silent

* FSDP's own activation checkpointing; `SHARD_GRAD_OP`/`NO_SHARD`; DDP or DeepSpeed.
* Checkpointing or sharding not known; the two found in different top-level functions
  of one module (unrelated code paths: a helper that re-enables checkpointing, an
  evaluation-only FSDP wrap).
"""
    bad_examples = examples("preflight.rules.plan._pf506_examples", "PF506_BAD")
    good_examples = examples("preflight.rules.plan._pf506_examples", "PF506_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        plan = pctx.plan
        sharding = plan.resolve("dist.sharding")
        if sharding is None or sharding.value not in _FULL:
            return
        facts = [f for f in plan.facts("memory.gradient_checkpointing") if f.value is True and not _fsdp_own(f)]
        if any(f.value is False and f.source.kind != "default" and not _fsdp_own(f)
               for f in plan.facts("memory.gradient_checkpointing")):
            return
        ckpt = next((f for f in facts if pctx.fact_evidence(f, "") is not None), None)
        if ckpt is None or _apart(pctx, ckpt, sharding):
            return
        default = " (TRL's default)" if ckpt.source.kind == "default" else ""
        mode = "FULL_SHARD" if sharding.value == "fsdp_full" else "HYBRID_SHARD"
        message = (f"Model-level gradient checkpointing{default} under FSDP {mode}: the recomputed forward "
                   "all-gathers every sharded layer a second time in backward (transformers: \"a redundant "
                   "AllGather in the backward pass\"). Turn it off and enable FSDP's activation checkpointing "
                   "instead (`fsdp_config={\"activation_checkpointing\": True}` / `fsdp_activation_checkpointing: "
                   "true`)")
        evidence = []
        for fact, what in ((ckpt, "gradient checkpointing on the model"), (sharding, f"FSDP {mode}")):
            ev = pctx.fact_evidence(fact, what)
            if ev is not None:
                evidence.append(ev)
        finding = pctx.fact_finding(self, ckpt, message, evidence=evidence)
        if finding is not None:
            yield finding
