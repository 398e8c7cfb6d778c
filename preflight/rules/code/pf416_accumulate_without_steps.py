"""PF416 accumulate-without-steps: ``accelerator.accumulate`` while the Accelerator never gets a window."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.launch_world import launch_accumulation_window
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import accelerator_calls, accelerators, has_unpacking, kwarg
from preflight.rules._pf414_support import names_called
from preflight.rules.base import Rule, examples


@register
class AccumulateWithoutSteps(Rule):
    code = "PF416"
    needs_text = ('accumulate',)
    name = "accumulate-without-steps"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = "`accelerator.accumulate` is used but the Accelerator is built without `gradient_accumulation_steps`"
    explanation = """
## What it finds

A training step wrapped in `with accelerator.accumulate(model):` in a file whose
`Accelerator(...)` is built without `gradient_accumulation_steps=` (nor a
`gradient_accumulation_plugin=`, nor `**kwargs`).

## Why it matters

`accumulate` only skips the optimizer steps in between when the Accelerator
knows the window; left at its default of 1 every micro-batch steps the
optimizer, and a `--gradient_accumulation_steps 4` argument the script parses is
silently ignored (diffusers PR 308: "the `gradient_accumulation_steps` arg is
not passed when creating the `Accelerator`").

## How to fix it

`Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps, ...)`.

## When preflight stays silent

* Some `Accelerator(...)` of the file receives the window (or a plugin, or `**kwargs`;
  but not `**kwargs` beside a window parameter of the building function that the
  call never receives: `def __init__(self, ..., grad_accumulation_steps=1,
  accelerate_kwargs=dict())` with `Accelerator(**accelerate_kwargs)`, e2-tts-pytorch
  PR 24).
* The window is assigned later (`accelerator.gradient_accumulation_steps = n`),
  or a DeepSpeed plugin is configured in the file (DeepSpeed's own config sets it).
* The file builds no Accelerator (it comes from elsewhere; `accelerate launch
  --gradient_accumulation_steps` can set it).
* An `accelerate launch` line in a launch script beside the file gives the window through
  DeepSpeed: `--use_deepspeed --gradient_accumulation_steps N`, or `deepspeed_config:
  gradient_accumulation_steps: N` in its `--config_file` (accelerate exports it as
  `ACCELERATE_GRADIENT_ACCUMULATION_STEPS`, which `Accelerator()` reads; transformers 45656).
* No launch script beside the file runs it, and an accelerate config beside it says
  `distributed_type: DEEPSPEED` with `deepspeed_config: gradient_accumulation_steps: N` (N > 1):
  the job is launched by hand with that config, and under DeepSpeed accelerate takes the
  config's window ("Using DeepSpeed's value", accelerate v1.10.0 `accelerator.py`; accelerate 3836).
* Nothing in the file mentions `gradient_accumulation_steps` (no window was
  asked for: `accumulate` with a window of 1 is harmless).
"""
    bad_examples = examples("preflight.rules.code._pf416_examples", "PF416_BAD")
    good_examples = examples("preflight.rules.code._pf416_examples", "PF416_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        uses = accelerator_calls(ctx, "accumulate")
        ctors = accelerators(ctx)
        if not uses or not ctors:
            return
        window: Optional[ast.arg] = None
        for ctor in ctors:
            if kwarg(ctor, "gradient_accumulation_steps") is not None \
                    or kwarg(ctor, "gradient_accumulation_plugin") is not None \
                    or kwarg(ctor, "deepspeed_plugin") is not None:
                return
            if has_unpacking(ctor):
                window = _window_param(ctx, ctor)
                if window is None:
                    return  # the splatted kwargs may carry the window
        if names_called(ctx) & {"DeepSpeedPlugin", "GradientAccumulationPlugin"}:
            return
        mentioned = False
        for node in ctx.nodes(ast.Attribute):
            if node.attr == "gradient_accumulation_steps":
                if isinstance(node.ctx, ast.Store):
                    return
                mentioned = True
        if not mentioned and window is None and "gradient_accumulation_steps" not in ctx.parsed.source.text:
            return  # nothing asks for a window: accumulate() with a window of 1 is harmless
        if launch_accumulation_window(ctx):
            return  # the launcher exports ACCELERATE_GRADIENT_ACCUMULATION_STEPS from the DeepSpeed settings
        evidence = [ctx.evidence(uses[0], "`accelerator.accumulate` expects a window")]
        said = ""
        if window is not None:
            said = (f" The `{window.arg}` parameter of the function that builds it never reaches it (the "
                    "splatted keyword arguments are all it receives).")
            evidence.append(ctx.evidence(window, f"`{window.arg}` is asked for here"))
        yield ctx.finding(
            self, ctors[0],
            "`Accelerator(...)` is built without `gradient_accumulation_steps`, so "
            "`with accelerator.accumulate(...)` has a window of 1: the optimizer steps after every "
            f"micro-batch and no gradients are accumulated.{said} Pass `gradient_accumulation_steps=...`",
            evidence=evidence)


def _window_param(ctx: FileContext, ctor: ast.Call) -> Optional[ast.arg]:
    """A parameter of the function building the Accelerator that names an accumulation window
    (``grad_accumulation_steps``, ``gradient_accumulate_every``) and is not given to the ctor:
    splatted ``**accelerate_kwargs`` beside it are not where the window comes from."""
    fn = ctx.enclosing_function(ctor)
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    given = {n.id for n in ast.walk(ctor) if isinstance(n, ast.Name)}
    for arg in (*fn.args.args, *fn.args.kwonlyargs):
        name = arg.arg.lower()
        if "accum" in name and ("step" in name or "every" in name) and arg.arg not in given:
            return arg
    return None
