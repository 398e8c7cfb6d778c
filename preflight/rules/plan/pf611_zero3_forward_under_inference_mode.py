"""PF611 zero3-forward-under-inference-mode: an evaluation of a ZeRO-3 engine under
``torch.inference_mode`` in a job that trains the same engine."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._deepspeed_engines import engine_names_in, parent_map
from preflight.rules.plan._inference_mode import inference_decorator
from preflight.rules.plan._job_files import job_files


def _inference_block(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> Optional[ast.expr]:
    """The ``@torch.inference_mode()`` decorator of a function around ``node``, or the
    ``with torch.inference_mode():`` item around it."""
    above = parents.get(node)
    while above is not None:
        if isinstance(above, ast.With):
            for item in above.items:
                expr = item.context_expr
                target = expr.func if isinstance(expr, ast.Call) else expr
                if isinstance(target, (ast.Attribute, ast.Name)) and ast.unparse(target).endswith("inference_mode") \
                        and not (isinstance(expr, ast.Call) and (expr.args or expr.keywords)):
                    return item.context_expr
        if isinstance(above, (ast.FunctionDef, ast.AsyncFunctionDef)):
            dec = inference_decorator(above)
            if dec is not None:
                return dec
        above = parents.get(above)
    return None


@register
class Zero3ForwardUnderInferenceMode(PlanRule):
    code = "PF611"
    name = "zero3-forward-under-inference-mode"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = ("A ZeRO-3 engine runs a forward under `torch.inference_mode()` in a job that trains it: the next "
               "training step fails with \"Inference tensors cannot be saved for backward\"")
    explanation = """
## What it finds

A forward of the engine `deepspeed.initialize` returned (`engine(...)`,
`engine.module(...)`, `engine.generate(...)`) inside a function decorated with
`@torch.inference_mode()` or a `with torch.inference_mode():` block, in a job whose
DeepSpeed config uses ZeRO stage 3 and whose code also trains that engine
(`engine.backward(...)`): an evaluation loop between training steps.

## Why it matters

Under ZeRO-3 the forward all-gathers each partitioned parameter into buffers that
DeepSpeed keeps and reuses (persistent small parameters, the prefetch cache) and its
`LinearFunctionForZeroStage3` saves tensors for backward. Tensors created in inference
mode are inference tensors; after an evaluation under `inference_mode` the next
training forward reuses them and stops with `RuntimeError: Inference tensors cannot
be saved for backward` in `deepspeed/runtime/zero/linear.py` (snowflakedb
ArcticTraining PR 265, which replaced `torch.inference_mode` with `torch.no_grad` for
evaluation, "as HF Trainer and other frameworks do").

## How to fix it

Evaluate under `@torch.no_grad()` (ordinary tensors, no graph recorded).

## When preflight stays silent

* ZeRO stage 0-2 (no gathered parameters outlive the forward), or no ZeRO-3 config read.
* The code never trains the engine (no `engine.backward`): an inference-only job.
* The evaluation runs under `torch.no_grad()`, or on another model than the engine.
"""
    bad_examples = examples("preflight.rules.plan._pf611_examples", "PF611_BAD")
    good_examples = examples("preflight.rules.plan._pf611_examples", "PF611_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        zero3 = next((f for f in pctx.plan.facts("dist.sharding") if f.value == "zero3" and f.adapter == "deepspeed"),
                     None)
        if zero3 is None:
            return
        files = job_files(pctx)
        for display, tree in files:
            if not any((isinstance(n, ast.Attribute) and n.attr == "inference_mode")
                       or (isinstance(n, ast.Name) and n.id == "inference_mode") for n in ast.walk(tree)):
                continue
            engines = {name for name, _ in engine_names_in(tree)}
            if not engines:
                continue
            trained = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "backward"
                          and ast.unparse(n.func.value) in engines for n in ast.walk(tree))
            if not trained:
                continue
            parents = parent_map(tree)
            reported: set[int] = set()
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                receiver = ast.unparse(node.func)
                for suffix in (".module", ".forward", ".generate", ".module.generate"):
                    if receiver.endswith(suffix) and receiver[:-len(suffix)] in engines:
                        receiver = receiver[:-len(suffix)]
                        break
                if receiver not in engines:
                    continue
                block = _inference_block(node, parents)
                if block is None or block.lineno in reported:
                    continue
                reported.add(block.lineno)
                evidence = [e for e in (pctx.fact_evidence(zero3, "ZeRO stage 3: parameters are partitioned and "
                                                                  "gathered in the forward"),) if e is not None]
                yield pctx.location_finding(
                    self, display, block.lineno,
                    f"`{ast.unparse(node.func)}(...)` (line {node.lineno}) runs under `torch.inference_mode()` on a "
                    "ZeRO stage 3 engine that this job also trains: the parameters ZeRO-3 gathers and keeps during "
                    "this forward become inference tensors, and the next training step fails with \"RuntimeError: "
                    "Inference tensors cannot be saved for backward\". Evaluate under `torch.no_grad()`",
                    evidence=evidence)
