"""PF298 zero3-engine-parameters-counted: ``p.numel()`` summed over the parameters of a model after a
ZeRO stage 3 ``deepspeed.initialize`` partitioned it (the plan-side companion of PF236)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.code._zero3_gather import branches_on_zero, under_gathered_parameters
from preflight.rules.plan._deepspeed_engines import engine_names

_PARAM_ITERS = frozenset({"parameters", "named_parameters"})


def _initialize_models(ctx: FileContext) -> list[tuple[str, Optional[ast.AST], int]]:
    """``model=<name>`` (or the first positional after ``args``) of each ``deepspeed.initialize``: the module it
    partitions in place, with the function it is local to and the line after which it is partitioned."""
    out = []
    for call in ctx.nodes(ast.Call):
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr == "initialize" and isinstance(func.value, ast.Name)
                and func.value.id == "deepspeed"):
            continue
        model = next((kw.value for kw in call.keywords if kw.arg == "model"), None)
        if model is None and len(call.args) > 1:
            model = call.args[1]
        if isinstance(model, ast.Name):
            out.append((model.id, ctx.enclosing_function(call), call.lineno))
    return out


def _iterated_owner(ctx: FileContext, call: ast.Call) -> Optional[ast.AST]:
    """For ``p.numel()``: the ``X`` of the ``for p in X.parameters()`` (comprehension or loop) binding ``p``."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
        return None
    var = func.value.id
    for anc in ctx.ancestors(call):
        gens: list[tuple[ast.AST, ast.AST]] = []
        if isinstance(anc, (ast.GeneratorExp, ast.ListComp, ast.SetComp)):
            gens = [(g.target, g.iter) for g in anc.generators]
        elif isinstance(anc, ast.For):
            gens = [(anc.target, anc.iter)]
        for target, it in gens:
            names = [t.id for t in ast.walk(target) if isinstance(t, ast.Name)]
            if var not in names[-1:]:
                continue
            if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr in _PARAM_ITERS:
                return it.func.value
    return None


@register
class Zero3EngineParametersCounted(PlanRule):
    code = "PF298"
    name = "zero3-engine-parameters-counted"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = ("`p.numel()` summed over the parameters of a DeepSpeed engine (or the model handed to it) under "
               "ZeRO stage 3: each rank holds an empty placeholder, so the count is 0")
    explanation = """
## What it finds

A parameter count `sum(p.numel() for p in X.parameters())` (or a loop over
`X.named_parameters()` adding `p.numel()`) where `X` is the engine `deepspeed.initialize`
returned, or the model passed to it (`model=model`) counted after that call, in a job whose
DeepSpeed config uses ZeRO stage 3. PF236 finds the same count when the model was built
under `zero.Init` or after an `HfDeepSpeedConfig`; this rule reads the stage from the config
the job passes to DeepSpeed.

## Why it matters

`deepspeed.initialize` with ZeRO stage 3 partitions every parameter in place: each rank keeps
its shard elsewhere and `param.data` becomes an empty placeholder, so `numel()` is 0 (the
real size is `param.ds_numel`). The logged parameter count is 0 and every figure computed
from it (TFLOPs, MFU, tokens per parameter) is 0 or meaningless for the whole run (DeepSpeed
issue 4064: "Setting ZeRO stage 3 makes `numel()` parameters 0").

## How to fix it

Count with `p.ds_numel if hasattr(p, "ds_numel") else p.numel()`, or count before
`deepspeed.initialize`.

## When preflight stays silent

* The file reads `ds_numel` anywhere, the count runs inside `GatheredParameters` or in a branch
  on ZeRO, or before `deepspeed.initialize`.
* The DeepSpeed config uses stage 0, 1 or 2, or the job's config is not known.
"""
    bad_examples = examples("preflight.rules.plan._pf298_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf298_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        zero3 = next((f for f in pctx.plan.facts("dist.sharding") if f.value == "zero3"), None)
        if zero3 is None:
            return
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or "numel" not in text or "ds_numel" in text or "deepspeed.initialize" not in text:
                continue
            ctx = pctx.file_context(script)
            engines = engine_names(ctx, script)
            models = _initialize_models(ctx)
            for call in ctx.nodes(ast.Call):
                if not (isinstance(call.func, ast.Attribute) and call.func.attr == "numel" and not call.args):
                    continue
                owner = _iterated_owner(ctx, call)
                if owner is None:
                    continue
                fn = ctx.enclosing_function(call)
                name = ast.unparse(owner)
                partitioned = any(n == name and (scope is None or scope is fn) for n, scope in engines) or any(
                    n == name and scope is fn and call.lineno > line for n, scope, line in models)
                if not partitioned or under_gathered_parameters(ctx, call) or branches_on_zero(ctx, call, set()):
                    continue
                evidence = [e for e in (pctx.fact_evidence(zero3, "ZeRO stage 3: parameters are partitioned"),)
                            if e is not None]
                yield pctx.code_finding(
                    self, script, call,
                    f"`{ast.unparse(call)}` counts the parameters of `{name}` after a ZeRO stage 3 "
                    "`deepspeed.initialize`: each rank holds an empty placeholder, so the count is 0 (and anything "
                    "computed from it, such as TFLOPs). Use `p.ds_numel if hasattr(p, \"ds_numel\") else "
                    "p.numel()`", evidence=evidence)
