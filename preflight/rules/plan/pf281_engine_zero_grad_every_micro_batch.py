"""PF281 engine-zero-grad-every-micro-batch: ``engine.zero_grad()`` on every micro-batch of a DeepSpeed
loop whose config accumulates gradients at ZeRO stage 0 or 1."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.analysis.accumulation import accumulation
from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _stage(block: dict[str, Any]) -> Optional[int]:
    """The ZeRO stage the block states (0 when it states none; legacy ``true`` is 1), None when
    preflight cannot read it (``"auto"``, an expression)."""
    zo = block.get("zero_optimization")
    if zo is None:
        return 0
    if isinstance(zo, bool):
        return 1 if zo else 0
    if not isinstance(zo, dict):
        return None
    stage = zo.get("stage", 0)
    return stage if _int(stage) else None


def _initialized(ctx: FileContext) -> dict[str, str]:
    """Names bound by ``deepspeed.initialize(...)``: the engine (first element) and the optimizer
    (second), as ``{name: "engine" | "optimizer"}``."""
    out: dict[str, str] = {}
    for node in ctx.nodes(ast.Assign):
        value = node.value.value if isinstance(node.value, ast.Subscript) else node.value
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                and value.func.attr == "initialize" and isinstance(value.func.value, ast.Name)
                and value.func.value.id == "deepspeed"):
            continue
        for target in node.targets:
            if isinstance(target, ast.Tuple):
                for index, role in ((0, "engine"), (1, "optimizer")):
                    if index < len(target.elts) and isinstance(target.elts[index], (ast.Name, ast.Attribute)):
                        out[ast.unparse(target.elts[index])] = role
            elif isinstance(node.value, ast.Subscript) or isinstance(target, (ast.Name, ast.Attribute)):
                out.setdefault(ast.unparse(target), "engine")
    return out


def _unconditional_in(ctx: FileContext, node: ast.AST, loop: ast.AST) -> bool:
    """``node`` runs on every iteration of ``loop``: between them only ``with``/``try`` blocks
    and plain statements, no ``if``, no inner loop, no nested function."""
    for parent in ctx.ancestors(node):
        if parent is loop:
            return True
        if isinstance(parent, (ast.If, ast.IfExp, ast.For, ast.AsyncFor, ast.While, ast.FunctionDef,
                               ast.AsyncFunctionDef, ast.Lambda, ast.ExceptHandler, ast.BoolOp,
                               ast.comprehension)):
            return False
    return False


@register
class EngineZeroGradEveryMicroBatch(PlanRule):
    code = "PF281"
    name = "engine-zero-grad-every-micro-batch"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = ("`engine.zero_grad()` on every micro-batch clears the gradients the DeepSpeed config's "
               "`gradient_accumulation_steps` accumulates (ZeRO stage 0/1)")
    explanation = """
## What it finds

In a loop that runs `engine.backward(loss)` and `engine.step()` on every micro-batch
(the engine `deepspeed.initialize` returned), an unconditional `engine.zero_grad()`
(or `optimizer.zero_grad()` on the optimizer `deepspeed.initialize` returned), while
the job's DeepSpeed config sets `gradient_accumulation_steps` to a number greater
than 1 and ZeRO stage 0 or 1 (or no ZeRO section).

## Why it matters

`engine.step()` counts micro-batches and updates the weights only at the
accumulation boundary; until then the gradients of the earlier micro-batches wait
in the parameters' `.grad` (ZeRO 0/1 reduce them only at the boundary). But
`engine.zero_grad()` does not look at the boundary: it sets every `param.grad` to
None on each call (`DeepSpeedEngine.zero_grad`). Called on every micro-batch, it
throws away what the earlier micro-batches accumulated, and each update uses the
last micro-batch alone, already divided by `gradient_accumulation_steps` by
`engine.backward` (DeepSpeed PR 6554: "Users naturally expect this code like this
works: `for batch in data_loader: target_engine.zero_grad(); ...
target_engine.backward(loss); optimizer.step()` ... We need *if* to run zero_grad
only at a gradient accumulation boundary").

## How to fix it

Drop the manual `zero_grad()`: the engine clears the gradients itself after the
update at each boundary. Or call it only when `engine.is_gradient_accumulation_boundary()`.

## When preflight stays silent

* The config's `gradient_accumulation_steps` is 1, `"auto"` or absent, or its ZeRO
  stage is 2 or 3 (or one preflight cannot read): ZeRO-2 and ZeRO-3 move each
  micro-batch's gradient into their own partitioned buffers during `backward`, so
  clearing `.grad` afterwards loses nothing.
* The `zero_grad()` sits under an `if` (a boundary test), in an inner loop, or
  outside the micro-batch loop.
* The loop's `step()` is guarded by the script's own accumulation window (PF546's
  finding), or the loop does not call the engine's `backward`.
* The config sets `data_types.grad_accum_dtype` to fp32: under bf16/fp16 DeepSpeed then
  runs its BF16 optimizer or a `grad_accum` attribute that moves each micro-batch's
  gradient out of `.grad` (by default the accumulation dtype is the model dtype and
  `.grad` holds the sum).
"""
    bad_examples = examples("preflight.rules.plan._pf281_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf281_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        windows = []
        for cfg, block, prefix in pctx.deepspeed_configs():
            steps = block.get("gradient_accumulation_steps")
            stage = _stage(block)
            types = block.get("data_types")
            separate = isinstance(types, dict) and str(types.get("grad_accum_dtype", "")).lower() in (
                "fp32", "float32", "float", "torch.float32")
            if isinstance(steps, int) and _int(steps) and steps > 1 and stage in (0, 1) and not separate:
                windows.append((cfg, block, prefix, steps, stage))
        if len(windows) != 1:
            return  # none, or several configs that may disagree: which one runs is not known
        config, block, prefix, steps, stage = windows[0]
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if "zero_grad" not in text or "initialize" not in text:
                continue
            ctx = pctx.file_context(script)
            names = _initialized(ctx)
            if not names:
                continue
            reported: set[int] = set()
            scopes = scope_index(ctx)
            for site in accumulation(ctx).sites:
                if site.owner.kind != "deepspeed" or site.guard is not None:
                    continue
                loop = scopes.loop_of(site.backward)
                func = site.backward.func
                if loop is None or not isinstance(func, ast.Attribute) \
                        or names.get(ast.unparse(func.value)) != "engine" \
                        or not _unconditional_in(ctx, site.backward, loop.node):
                    continue
                engine = ast.unparse(func.value)
                if not any(isinstance(c, ast.Call) and ast.unparse(c.func) == f"{engine}.step"
                           and _unconditional_in(ctx, c, loop.node) for c in ast.walk(loop.node)):
                    continue  # the engine steps on a window of the script's own (PF546) or not here
                for call in ast.walk(loop.node):
                    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                            and call.func.attr == "zero_grad" and id(call) not in reported):
                        continue
                    receiver = ast.unparse(call.func.value)
                    if receiver != engine and names.get(receiver) != "optimizer":
                        continue
                    if any(kw.arg == "force" for kw in call.keywords):
                        continue
                    if not _unconditional_in(ctx, call, loop.node):
                        continue
                    reported.add(id(call))
                    said = "no ZeRO section (stage 0)" if stage == 0 and "zero_optimization" not in block \
                        else f"ZeRO stage {stage}"
                    yield pctx.code_finding(
                        self, script, call,
                        f"`{ast.unparse(call)}` runs on every micro-batch, but the DeepSpeed config accumulates "
                        f"`gradient_accumulation_steps` = {steps} micro-batches ({said}): the engine keeps the "
                        "earlier micro-batches' gradients in `.grad` until the boundary and `zero_grad()` clears "
                        f"them on each call, so every update uses the last micro-batch alone (1/{steps} of the "
                        "batch, still divided by the accumulation steps). Drop it (the engine zeroes after its "
                        "update) or call it only at `engine.is_gradient_accumulation_boundary()`",
                        evidence=[pctx.config_evidence(config, (*prefix, "gradient_accumulation_steps"),
                                                       f"{steps} micro-batches per update"),
                                  pctx.code_evidence(script, site.backward, "a backward on every micro-batch")])
