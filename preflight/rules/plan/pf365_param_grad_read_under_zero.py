"""PF365 param-grad-read-under-zero: a parameter's ``.grad`` read after a DeepSpeed engine's ``backward`` in a
job whose ZeRO stage is 2 or 3: the gradients live in ZeRO's partitioned buffers and ``p.grad`` is None."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_STAGES = ("zero2", "zero3")


def _engines(tree: ast.AST) -> set[str]:
    """Names bound to the engine of ``deepspeed.initialize`` (the first element it returns)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        func = node.value.func
        if not (isinstance(func, ast.Attribute) and func.attr == "initialize"
                and isinstance(func.value, ast.Name) and func.value.id == "deepspeed"):
            continue
        target = node.targets[0]
        first = target.elts[0] if isinstance(target, ast.Tuple) and target.elts else target
        if isinstance(first, ast.Name):
            out.add(first.id)
    return out



def _param_vars(tree: ast.AST) -> dict[str, ast.For]:
    """Loop variables bound to parameters: ``for p in m.parameters()``, ``for name, p in m.named_parameters()``."""
    out: dict[str, ast.For] = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.For) and isinstance(node.iter, ast.Call)
                and isinstance(node.iter.func, ast.Attribute)):
            continue
        attr = node.iter.func.attr
        if attr == "parameters" and isinstance(node.target, ast.Name):
            out[node.target.id] = node
        elif attr == "named_parameters" and isinstance(node.target, ast.Tuple) and len(node.target.elts) == 2 \
                and isinstance(node.target.elts[1], ast.Name):
            out[node.target.elts[1].id] = node
    return out


@register
class ParamGradReadUnderZero(PlanRule):
    code = "PF365"
    name = "param-grad-read-under-zero"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = ("A parameter's `.grad` read after the DeepSpeed engine's `backward` under ZeRO stage 2 or 3: the "
               "gradients live in ZeRO's partitioned buffers, `p.grad` is None")
    explanation = """
## What it finds

In a job whose DeepSpeed config sets ZeRO stage 2 or 3, `p.grad` read for the parameters of
a loop over `model.parameters()` / `named_parameters()` that runs after `engine.backward(loss)`
(the engine of `deepspeed.initialize`) in the same training loop: a gradient-norm monitor, a
hand-written clip, a NaN check.

## Why it matters

Under ZeRO-2 and ZeRO-3, DeepSpeed's backward hooks reduce each gradient into its own
partitioned buffers and leave `param.grad` as None, so the monitor records nothing (every
layer looks "vanishing"), a hand clip touches nothing, a NaN check never fires
(DeepSpeedExamples issue 318; the DeepSpeed docs point to `deepspeed.utils.safe_get_full_grad`).

## How to fix it

Read the gradients with `deepspeed.utils.safe_get_full_grad(p)` between `engine.backward`
and `engine.step()`, or use the engine's own figures (`engine.get_global_grad_norm()`), and
clip with `"gradient_clipping"` in the config.

## When preflight stays silent

* The plan shows no ZeRO stage 2 or 3 (stage 0/1, no DeepSpeed config read).
* The file calls `safe_get_full_grad` (or another `safe_get_*` helper).
* The `.grad` read is not in a loop over parameters after an engine's `backward` in the same
  training loop; an `accelerator.backward` is PF285's case.
"""
    bad_examples = examples("preflight.rules.plan._pf365_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf365_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        stage = next((f for f in pctx.plan.facts("dist.sharding") if f.value in _STAGES), None)
        if stage is None:
            return
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if ".grad" not in text or "backward" not in text or "safe_get_" in text:
                continue
            engines = _engines(script.tree)
            if not engines:
                continue
            ctx = pctx.file_context(script)
            backwards = [n for n in ast.walk(script.tree) if isinstance(n, ast.Call)
                         and isinstance(n.func, ast.Attribute) and n.func.attr == "backward"
                         and isinstance(n.func.value, ast.Name) and n.func.value.id in engines]
            if not backwards:
                continue
            params = _param_vars(script.tree)
            seen: set[int] = set()
            for node in ast.walk(script.tree):
                if not (isinstance(node, ast.Attribute) and node.attr == "grad" and isinstance(node.value, ast.Name)
                        and node.value.id in params and isinstance(node.ctx, ast.Load)):
                    continue
                over = params[node.value.id]
                if not any(a is over for a in ctx.ancestors(node)):
                    continue
                loop = ctx.enclosing_loop(over)
                before = [b for b in backwards if loop is not None and ctx.enclosing_loop(b) is loop
                          and b.lineno < over.lineno]
                if not before or id(over) in seen:
                    continue
                seen.add(id(over))
                evidence = [pctx.code_evidence(script, before[-1], "the engine's backward"),
                            *[e for e in [pctx.fact_evidence(stage, f"ZeRO stage {stage.value[-1]}")] if e]]
                yield pctx.code_finding(
                    self, script, node,
                    f"`{ast.unparse(node)}` is read after `{ast.unparse(before[-1].func)}(...)` under ZeRO stage "
                    f"{stage.value[-1]}: DeepSpeed reduces each gradient into its partitioned buffers and leaves "
                    "`param.grad` as None, so this reads nothing (a norm monitor sees no gradients, a hand clip or "
                    "NaN check never acts). Use `deepspeed.utils.safe_get_full_grad(p)` before `engine.step()`, "
                    "or `engine.get_global_grad_norm()` and `\"gradient_clipping\"` in the config",
                    evidence=evidence)
