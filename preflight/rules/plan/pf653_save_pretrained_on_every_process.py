"""PF653 save-pretrained-on-every-process: in a job at ZeRO stage 3, an accelerate script's
``save_pretrained(dir, save_function=accelerator.save | state_dict=accelerator.get_state_dict(model))`` runs on
every process without ``is_main_process=accelerator.is_main_process``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import FunctionInfo, scope_index
from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.code._rank_guards import guarded_by_rank


def _accelerate_kwarg(call: ast.Call) -> Optional[ast.keyword]:
    """``save_function=<x>.save`` or ``state_dict=<x>.get_state_dict(...)`` with ``<x>`` an accelerator:
    the save of a model trained by accelerate, on a path every process reaches."""
    for kw in call.keywords:
        value = kw.value
        if kw.arg == "save_function" and isinstance(value, ast.Attribute) and value.attr == "save" \
                and "accelerator" in ast.unparse(value.value).lower():
            return kw
        if kw.arg == "state_dict" and isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                and value.func.attr == "get_state_dict" and "accelerator" in ast.unparse(value.func.value).lower():
            return kw
    return None


@register
class SavePretrainedOnEveryProcess(PlanRule):
    code = "PF653"
    name = "save-pretrained-on-every-process"
    severity = Severity.WARNING
    category = Category.DISTRIBUTED
    frameworks = ("accelerate",)
    summary = ("`save_pretrained(..., save_function=accelerator.save)` runs on every process without "
               "`is_main_process=accelerator.is_main_process`: each rank cleans the folder as if it were the "
               "main one and deletes shards another rank wrote")
    explanation = """
## What it finds

In a job whose DeepSpeed config (the accelerate config's `zero_stage`, or a DeepSpeed
JSON) is at ZeRO stage 3, a `model.save_pretrained(dir, ...)` given
`save_function=accelerator.save` or
`state_dict=accelerator.get_state_dict(model)` (the accelerate save of the
`*_no_trainer.py` examples), with no `is_main_process=` keyword, that every process
runs: no rank test around it (`if accelerator.is_main_process:`) in its function, nor
around the calls that reach it.

## Why it matters

`save_pretrained` takes `is_main_process=True` by default: on every process it writes the
config and then removes the weight files of the folder that are not part of the shards
*it* just wrote. Under ZeRO-3 `accelerator.get_state_dict` returns the consolidated
weights on rank 0 only; the other ranks save a different (one-file) set, and their
clean-up deletes the `pytorch_model-0000x-of-0000n.bin` shards rank 0 has just written:
the final model folder misses shards (accelerate issue "If I set zero_stage: 3, how
should I save my model?"; held-out-34). Without ZeRO-3 every rank still writes the config
files of one folder concurrently (harmless: every rank writes the same shards' names, so
no clean-up deletes another's; preflight stays silent there). The transformers `*_no_trainer.py` examples pass
`is_main_process=accelerator.is_main_process` for this reason.

## How to fix it

```python
unwrapped_model.save_pretrained(
    output_dir,
    is_main_process=accelerator.is_main_process,
    save_function=accelerator.save,
    state_dict=accelerator.get_state_dict(model),
)
```

Keep `accelerator.get_state_dict(model)` outside any main-process test: under ZeRO-3 it
gathers from every rank.

## When preflight stays silent

* `is_main_process=` is given, or the save is under a rank test (`if
  accelerator.is_main_process:`), after an early return on one, in a rank-named helper, or
  in a helper every call of which in the file is under one.
* No ZeRO-3 config in the job (DDP, ZeRO 0-2: every rank holds the same state dict and
  computes the same shard names).
* `save_pretrained` is given neither `save_function=accelerator.save` nor
  `state_dict=accelerator.get_state_dict(...)` (a tokenizer's or a single-process save).
"""
    bad_examples = examples("preflight.rules.plan._pf653_examples", "PF653_BAD")
    good_examples = examples("preflight.rules.plan._pf653_examples", "PF653_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        stage = next((f for f in pctx.plan.facts("dist.sharding") if f.value == "zero3"
                      and f.source.kind == "config" and f.adapter in ("deepspeed", "accelerate")), None)
        if stage is None:
            return
        for script in pctx.scripts:
            if "save_pretrained" in script.source.text:
                zero3 = pctx.fact_evidence(stage, "ZeRO stage 3: only rank 0 gets the gathered weights")
                yield from self._check(pctx.file_context(script), [zero3] if zero3 is not None else [])

    def _check(self, ctx: FileContext, zero3: list[Evidence]) -> Iterable[Finding]:
        scopes = None
        for call in ctx.nodes(ast.Call):
            if not (isinstance(call.func, ast.Attribute) and call.func.attr == "save_pretrained"):
                continue
            if any(kw.arg == "is_main_process" for kw in call.keywords) or \
                    any(kw.arg is None for kw in call.keywords):
                continue
            kw = _accelerate_kwarg(call)
            if kw is None:
                continue
            if scopes is None:
                scopes = scope_index(ctx)
            fn = scopes.function_of(call)
            if guarded_by_rank(ctx, call, fn.node) or not self._reached_unguarded(ctx, fn, depth=2):
                continue
            yield ctx.finding(
                self, call,
                f"every process runs this `save_pretrained` (`{kw.arg}={ast.unparse(kw.value)}`) with the default "
                "`is_main_process=True`: each rank writes the config and then deletes the weight files of the "
                "folder that are not its own shards; under this job's ZeRO-3 only rank 0 gets the gathered "
                "weights, so the other ranks delete the shards rank 0 wrote. Pass "
                "`is_main_process=accelerator.is_main_process`",
                evidence=[ctx.evidence(kw.value, "the accelerate save"), *zero3])

    def _reached_unguarded(self, ctx: FileContext, fn: FunctionInfo, depth: int) -> bool:
        """``fn`` runs on every process: it is the module, a function that trains, or has a call in the
        file that no rank test guards (up to ``depth`` callers up)."""
        if fn.is_module_scope or fn.trains:
            return True
        for site in fn.call_sites:
            if guarded_by_rank(ctx, site.call, site.caller.node):
                continue
            if depth == 0 or self._reached_unguarded(ctx, site.caller, depth - 1):
                return True
        return False
