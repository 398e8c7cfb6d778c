"""PF144 zero3-ema-of-partitioned-parameters: an EMA (shadow copy) of ``model.parameters()`` taken outside
``GatheredParameters`` in a ZeRO-3 job, where each rank's parameters are empty placeholders."""

from __future__ import annotations

import ast
import re
import textwrap
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_EMA = re.compile(r"(?i)\bema|_ema\b|shadow|moving_average")
_PARAMS = ("parameters", "named_parameters")


def _param_copy(node: ast.AST) -> Optional[ast.AST]:
    """A comprehension over ``X.parameters()`` whose element clones the parameter."""
    if not isinstance(node, (ast.ListComp, ast.DictComp, ast.GeneratorExp)):
        return None
    source = node.generators[0].iter
    if not (isinstance(source, ast.Call) and isinstance(source.func, ast.Attribute) and source.func.attr in _PARAMS):
        return None
    elt = node.value if isinstance(node, ast.DictComp) else node.elt
    clones = any(isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "clone"
                 for c in ast.walk(elt))
    return node if clones else None


@register
class Zero3EmaOfPartitionedParameters(PlanRule):
    code = "PF144"
    name = "zero3-ema-of-partitioned-parameters"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = ("An EMA copies `model.parameters()` in a ZeRO-3 job without gathering them: every shadow "
               "tensor is an empty partition placeholder and the EMA weights hold nothing")
    explanation = textwrap.dedent("""
    ## What it finds

    A script of a job whose DeepSpeed (or accelerate) config selects ZeRO stage 3 that builds an
    exponential moving average by cloning `model.parameters()` (`[p.detach().clone() for p in
    model.parameters()]`, in an EMA class or callback: a name with `ema`, `shadow` or
    `moving_average`), with no `deepspeed.zero.GatheredParameters` anywhere in the script.

    ## Why it matters

    Under ZeRO-3 each rank holds only a shard of every parameter; outside a forward pass or a
    `GatheredParameters` block, `model.parameters()` yields placeholders of size 0 (`tensor([],
    device='cuda:0')`, DeepSpeed issue 6987). The EMA clones those empty tensors, its updates average
    nothing, and the saved EMA weights are empty.

    ## How to fix it

    Gather the parameters around the copy and the update (`with
    deepspeed.zero.GatheredParameters(list(model.parameters()), modifier_rank=0):`), keep the EMA on the
    shard (`p.ds_tensor`), or train with ZeRO-2, whose parameters are replicated.

    ## When preflight stays silent

    * No config of the job selects ZeRO stage 3.
    * The script uses `GatheredParameters` (the copy may be gathered).
    * No EMA/shadow naming in the script, or the copy does not clone parameters.
    """)
    bad_examples = examples("preflight.rules.plan._pf144_examples", "PF144_BAD")
    good_examples = examples("preflight.rules.plan._pf144_examples", "PF144_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        zero3 = next((f for f in pctx.plan.facts("dist.sharding") if f.value == "zero3" and f.source.kind == "config"
                      and f.adapter in ("deepspeed", "accelerate")), None)
        if zero3 is None:
            return
        for script in pctx.scripts:
            text = script.source.text
            if "parameters" not in text or "GatheredParameters" in text or not _EMA.search(text):
                continue
            copy = next((n for n in ast.walk(script.tree) if _param_copy(n) is not None), None)
            if copy is None:
                continue
            evidence = []
            found = pctx.fact_evidence(zero3, "ZeRO stage 3: parameters are partitioned")
            if found is not None:
                evidence.append(found)
            yield pctx.code_finding(
                self, script, copy,
                "this EMA copies `model.parameters()` in a ZeRO-3 job: outside a gather each rank's parameters are "
                "empty partition placeholders, so the shadow tensors are empty, the updates average nothing and "
                "the saved EMA weights hold no model. Gather around the copy and the update "
                "(`deepspeed.zero.GatheredParameters`), or use ZeRO-2",
                evidence=evidence)
