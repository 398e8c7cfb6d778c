"""PF623 deepspeed-prepare-two-models: one ``accelerator.prepare(...)`` call gets two models while
accelerate runs DeepSpeed."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import MODEL_CLASS, NOT_MODEL, accelerator_calls
from preflight.rules.base import examples

_BUILDERS = frozenset({"from_pretrained", "from_config", "from_single_file"})


def _deepspeed_config(pctx: PlanContext) -> Optional[tuple]:
    """The accelerate config that selects DeepSpeed (``distributed_type: DEEPSPEED``), or the launch
    flag ``--use_deepspeed``: (config or None, how)."""
    for cfg in pctx.configs:
        data = cfg.data if isinstance(cfg.data, dict) else {}
        if str(data.get("distributed_type", "")).upper() == "DEEPSPEED":
            return cfg, f"{cfg.path} sets `distributed_type: DEEPSPEED`"
    if "--use_deepspeed" in pctx.project.argv:
        return None, "the launch passes `--use_deepspeed`"
    return None


def _model_names(ctx: FileContext, scope: Optional[ast.AST]) -> dict[str, ast.AST]:
    """Names bound in ``scope`` to a model: ``<Cls>.from_pretrained(...)`` / ``.from_config(...)`` / ``<Cls>(...)``
    of a class named like a model (``UNet2DConditionModel``, ``AutoModelForCausalLM``), not a tokenizer,
    config or scheduler."""
    out: dict[str, ast.AST] = {}
    for assign in ctx.nodes(ast.Assign):
        if ctx.enclosing_function(assign) is not scope or len(assign.targets) != 1 \
                or not isinstance(assign.targets[0], ast.Name) or not isinstance(assign.value, ast.Call):
            continue
        func = assign.value.func
        if isinstance(func, ast.Attribute) and func.attr in _BUILDERS:
            func = func.value
        cls = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if MODEL_CLASS.match(cls) and not NOT_MODEL.search(cls):
            out[assign.targets[0].id] = assign
    return out


@register
class DeepSpeedPrepareTwoModels(PlanRule):
    code = "PF623"
    name = "deepspeed-prepare-two-models"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("accelerate", "deepspeed")
    summary = ("One `accelerator.prepare(...)` call is given two models while accelerate runs DeepSpeed: "
               "\"You can't use same `Accelerator()` instance with multiple models when using DeepSpeed\"")
    explanation = """
## What it finds

An accelerate job that runs DeepSpeed (an accelerate config with
`distributed_type: DEEPSPEED`, or `accelerate launch --use_deepspeed`) whose
script passes two models to one `accelerator.prepare(...)` call, typically a
trained student and a frozen teacher or EMA copy: names bound to
`<ModelClass>.from_pretrained(...)`, `.from_config(...)` or `<ModelClass>(...)`.

## Why it matters

`Accelerator.prepare` counts the `torch.nn.Module` objects it is given and, under
DeepSpeed, stops before preparing anything: `if model_count > 1: raise
AssertionError("You can't use same `Accelerator()` instance with multiple models
when using DeepSpeed")` (accelerate `accelerator.py`, `prepare`). One DeepSpeed
engine wraps one model (segmind/distill-sd issue 20). The same script runs under
DDP, so the failure appears only when the launch config switches to DeepSpeed.

## How to fix it

Prepare only the trained model with its optimizer, loader and scheduler, and move
the frozen one yourself (`teacher.to(accelerator.device, dtype=weight_dtype)`);
or give the second model its own DeepSpeed plugin (accelerate's multiple
`deepspeed_plugins` and `accelerator.state.select_deepspeed_plugin(...)`, each
prepared in its own call).

## When preflight stays silent

* The launch does not run DeepSpeed (DDP/FSDP prepare several models fine).
* Each model is prepared in its own call, or one prepare argument is not a model
  preflight recognises (built by a helper of another module).
"""
    bad_examples = examples("preflight.rules.plan._pf623_examples", "PF623_BAD")
    good_examples = examples("preflight.rules.plan._pf623_examples", "PF623_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        found = _deepspeed_config(pctx)
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or ".prepare(" not in text:
                continue
            ctx = pctx.file_context(script)
            how = found[1] if found is not None else None
            if how is None and "deepspeed_plugin" in text and "Accelerator(" in text:
                how = "the Accelerator is built with a `deepspeed_plugin`"
            if how is None:
                continue
            for call in accelerator_calls(ctx, "prepare"):
                models = _model_names(ctx, ctx.enclosing_function(call))
                given = [a for a in call.args if isinstance(a, ast.Name) and a.id in models]
                if len(given) < 2:
                    continue
                names = ", ".join(f"`{a.id}`" for a in given)
                yield pctx.code_finding(
                    self, script, call,
                    f"`accelerator.prepare(...)` is given {len(given)} models ({names}) while the job runs DeepSpeed "
                    f"({how}): accelerate raises \"AssertionError: You can't use same `Accelerator()` instance with "
                    "multiple models when using DeepSpeed\" before training. Prepare the trained model alone and move "
                    "the frozen one to `accelerator.device` yourself",
                    evidence=[pctx.code_evidence(script, models[a.id], f"`{a.id}` is a model", same_file=True)
                              for a in given])
