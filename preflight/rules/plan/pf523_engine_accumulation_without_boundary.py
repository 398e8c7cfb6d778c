"""PF523 engine-accumulation-without-boundary: several DeepSpeed ``engine.backward()`` per
``engine.step()`` while the config's ``gradient_accumulation_steps`` is 1."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.accumulation import accumulation
from preflight.analysis.context import FileContext
from preflight.analysis.scopes import ScopeIndex, scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan import Fact
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def single_step_config(pctx: PlanContext) -> Optional[Fact]:
    """The DeepSpeed config's ``gradient_accumulation_steps`` = 1 of a job whose ZeRO engine comes
    from that config."""
    engines = {f.source.path for f in pctx.plan.facts("dist.sharding")
               if str(f.value).startswith("zero") and f.source.kind == "config" and f.source.path}
    for fact in pctx.plan.facts("batch.grad_accum"):
        src = fact.source
        if src.kind == "config" and src.path in engines and (src.key or "").endswith(
                "gradient_accumulation_steps") and _int(fact.value) and fact.value == 1:
            return fact
    return None


def _window_step(ctx: FileContext, scopes: ScopeIndex, backward: ast.Call) -> Optional[ast.Call]:
    """``for mb in micro_batches: engine.backward(loss)`` directly inside a loop that calls
    ``engine.step()`` after it: that step."""
    loop = scopes.loop_of(backward)
    if loop is None or not isinstance(loop.node, ast.For):
        return None
    receiver = ast.unparse(backward.func.value) if isinstance(backward.func, ast.Attribute) else None
    boundary = _boundary_step(ctx, scopes, loop, receiver)
    if boundary is not None or loop.parent is None:
        return boundary
    end = loop.node.end_lineno or loop.node.lineno
    for call in ast.walk(loop.parent.node):
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "step"
                and not call.args and ast.unparse(call.func.value) == receiver and call.lineno > end
                and scopes.loop_of(call) is loop.parent):
            return call
    return None


def _engine_named(backward: ast.Call) -> bool:
    receiver = backward.func.value if isinstance(backward.func, ast.Attribute) else None
    return isinstance(receiver, ast.Name) and receiver.id.lower().endswith("engine")


def _boundary_step(ctx: FileContext, scopes: ScopeIndex, loop: object, receiver: Optional[str]) -> Optional[ast.Call]:
    """``engine.step()`` in the backward's own loop under a hand-made accumulation boundary
    (``if (step + 1) % accum == 0: engine.step()``)."""
    node = getattr(loop, "node", None)
    if node is None or receiver is None:
        return None
    for call in ast.walk(node):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "step"
                and not call.args and ast.unparse(call.func.value) == receiver and scopes.loop_of(call) is loop):
            continue
        for above in ctx.ancestors(call):
            if above is node:
                break
            if isinstance(above, ast.If) and any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mod)
                                                 for n in ast.walk(above.test)):
                return call
    return None


@register
class EngineAccumulationWithoutBoundary(PlanRule):
    code = "PF523"
    name = "engine-accumulation-without-boundary"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = ("Several DeepSpeed `engine.backward()` calls per `engine.step()` while the config's "
               "`gradient_accumulation_steps` is 1")
    explanation = """
## What it finds

A loop over micro-batches that calls a DeepSpeed engine's `backward` on each
and the engine's `step()` once after the loop (or in the same loop under a hand-made
boundary, `if (step + 1) % accum == 0: engine.step()`), in a job whose DeepSpeed config
(ZeRO stage 1 or more) says `"gradient_accumulation_steps": 1`, and no
`engine.set_gradient_accumulation_boundary(...)` in the file.

## Why it matters

The engine decides from its config where an accumulation window ends. With 1,
every `backward` is a boundary: ZeRO reduces and partitions the gradients after
each micro-batch, and the gradients of the earlier micro-batches of the window
are not the ones the step applies (open-instruct PR 1498: its GRPO learner now
calls `set_gradient_accumulation_boundary`).

## How to fix it

Either set `gradient_accumulation_steps` in the DeepSpeed config to the number
of micro-batches per step and call `engine.step()` after every `backward` (the
engine skips the steps inside the window), or tell the engine where the window
ends: `engine.set_gradient_accumulation_boundary(i == len(micro_batches) - 1)`
before each `backward`.

## When preflight stays silent

* The config's `gradient_accumulation_steps` is more than 1, `"auto"` or not known.
* The file calls `set_gradient_accumulation_boundary`.
* `step()` follows every `backward` (the usual DeepSpeed loop).
* The engine is a parameter of the function (`def train(model_engine, ...)`) and either
  no script of the job calls `deepspeed.initialize` or the name does not end in `engine`.
"""
    bad_examples = examples("preflight.rules.plan._pf523_examples", "PF523_BAD")
    good_examples = examples("preflight.rules.plan._pf523_examples", "PF523_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        window = single_step_config(pctx)
        if window is None:
            return
        # an engine handed to a function as a parameter (``train(model_engine, ...)``) counts when a
        # script of the job builds one with ``deepspeed.initialize`` and the name says engine
        initialized = any("deepspeed.initialize" in (s.text if s.text is not None else s.source.text or "")
                          for s in pctx.scripts)
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if "backward" not in text or "set_gradient_accumulation_boundary" in text:
                continue
            ctx = pctx.file_context(script)
            scopes = scope_index(ctx)
            for site in accumulation(ctx).sites:
                if site.owner.kind != "deepspeed" and not (
                        site.owner.kind == "unknown" and initialized and _engine_named(site.backward)):
                    continue
                step = _window_step(ctx, scopes, site.backward)
                if step is None:
                    continue
                inside = scopes.loop_of(step) is scopes.loop_of(site.backward)
                where = ("only at its own accumulation boundary (`if ... % ... == 0`)" if inside
                         else "once after it")
                evidence = [pctx.code_evidence(script, step, "the step at the hand-made boundary" if inside
                                               else "one step after the loop of backward passes")]
                ev = pctx.fact_evidence(window, "`gradient_accumulation_steps` = 1: every backward ends a window")
                if ev is not None:
                    evidence.append(ev)
                yield pctx.code_finding(
                    self, script, site.backward,
                    f"`{ast.unparse(site.backward.func)}()` runs on every micro-batch of the loop and "
                    f"`{ast.unparse(step.func)}()` {where}, but the DeepSpeed config says "
                    "`gradient_accumulation_steps` = 1: the engine treats every backward as the end of a window, "
                    "so ZeRO reduces and partitions each micro-batch's gradients on its own and the step does not "
                    "apply the accumulated sum. Call `set_gradient_accumulation_boundary(last)` before each "
                    "backward, or set the config's steps and step after every backward",
                    evidence=evidence)
