"""PF413 zero3-model-loaded-too-early: ``from_pretrained`` before the ZeRO-3 config exists."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import model_loads
from preflight.rules.base import examples
from preflight.rules.plan._zero3_config_order import creates_config
from preflight.sources import ParsedPython

if TYPE_CHECKING:
    from preflight.adapters_api import CallSite
    from preflight.plan import Fact


@register
class Zero3ModelLoadedTooEarly(PlanRule):
    code = "PF413"
    name = "zero3-model-loaded-too-early"
    severity = Severity.ERROR
    category = Category.MEMORY
    frameworks = ("transformers", "deepspeed")
    summary = "Under ZeRO-3 the model is loaded before the DeepSpeed config (TrainingArguments) exists"
    explanation = """
## What it finds

A job configured for DeepSpeed ZeRO-3 whose script calls
`<Model>.from_pretrained(...)` before it creates the `TrainingArguments` /
`SFTConfig` (or parses them with `HfArgumentParser`) or an `HfDeepSpeedConfig`,
in the same function.

## Why it matters

transformers partitions the weights while loading (`deepspeed.zero.Init`) only
when a ZeRO-3 DeepSpeed config is already registered at that moment, and it is
registered by creating the `TrainingArguments` (or an `HfDeepSpeedConfig`, which
must stay alive). Loaded earlier, every rank materialises the whole model in CPU
and then GPU memory before DeepSpeed shards it: the job that ZeRO-3 was chosen
to fit runs out of host or device memory at start-up.

## How to fix it

Create the `TrainingArguments` (or `dschf = HfDeepSpeedConfig(ds_config)`, kept
in a variable) before `from_pretrained`.

## When preflight stays silent

* The arguments are created first, or in another function (the order is unknown).
* The load runs inside `with deepspeed.zero.Init(...)`.
* No ZeRO-3 in the plan (stage 0-2 keeps full weights per rank anyway).
* The load and the config's creation are in two helper functions (`setup_model()`,
  `setup_training_args()`): reported only when, in a caller of both, the config's helper is
  first called after the load's (FAI-RL issue 66); deeper call chains are not followed.
"""
    bad_examples = examples("preflight.rules.plan._pf413_examples", "PF413_BAD")
    good_examples = examples("preflight.rules.plan._pf413_examples", "PF413_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        zero3 = next((f for f in pctx.plan.facts("dist.sharding") if f.value == "zero3"
                      and f.source.kind != "default"), None)
        if zero3 is None:
            return
        for script in pctx.scripts:
            fctx = pctx.file_context(script)
            idx = pctx.index(script)
            creators = [s for s in idx.calls if creates_config(s)]
            if not creators:
                continue
            for load in model_loads(pctx, script):
                scope = fctx.enclosing_function(load.call)
                if any(isinstance(a, ast.With) and any("zero.Init" in ast.unparse(i.context_expr)
                                                       for i in a.items) for a in fctx.ancestors(load.call)):
                    continue
                same = [c for c in creators if fctx.enclosing_function(c.call) is scope]
                first = min(same, key=lambda c: c.line) if same else None
                if first is None:
                    first = self._later_helper(fctx, scope, creators)
                    if first is not None:
                        yield self._report(pctx, script, load, first, zero3)
                    continue
                if first.line <= load.line:
                    continue
                yield self._report(pctx, script, load, first, zero3)

    @staticmethod
    def _later_helper(fctx: Any, scope: Any, creators: list[CallSite]) -> Optional[CallSite]:
        """The load sits in a helper function and the config is created in another one, both called
        from the same caller (FAI-RL issue 66: ``model = setup_model()`` then ``args =
        setup_training_args()`` at module level): the creator when every call of its helper in that
        caller comes after the first call of the load's helper, else None."""
        if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        calls = [(n, n.func.id) for n in ast.walk(fctx.tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]

        def lines(name: str, caller: Any) -> list[int]:
            return [c.lineno for c, called in calls if called == name and fctx.enclosing_function(c) is caller]

        loads_at = [c for c, called in calls if called == scope.name]
        for caller in {id(fctx.enclosing_function(c)): fctx.enclosing_function(c) for c in loads_at}.values():
            load_line = min(lines(scope.name, caller))
            for creator in sorted(creators, key=lambda c: c.line):
                helper = fctx.enclosing_function(creator.call)
                if not isinstance(helper, (ast.FunctionDef, ast.AsyncFunctionDef)) or helper is scope:
                    continue
                made = lines(helper.name, caller)
                if made and min(made) > load_line:
                    return creator
        return None

    def _report(self, pctx: PlanContext, script: ParsedPython, load: CallSite, first: CallSite,
                zero3: Fact) -> Finding:
        message = (
            f"`{load.label}(...)` runs before `{first.label}(...)` (line {first.line}) registers the ZeRO-3 "
            "DeepSpeed config, so the weights are not partitioned at load: every rank materialises the whole "
            "model before DeepSpeed shards it. Create the TrainingArguments (or an `HfDeepSpeedConfig` kept "
            "alive) before loading the model")
        evidence = [pctx.code_evidence(script, first.call, "the DeepSpeed config is registered only here",
                                       same_file=True)]
        ev = pctx.fact_evidence(zero3, "ZeRO stage 3")
        if ev is not None:
            evidence.append(ev)
        return pctx.code_finding(self, script, load.call, message, evidence=evidence)
