"""PF229 prepared-name-rebound-unprepared: inside the training loop, the name of a prepared model or
optimizer is re-bound to an unprepared object (``model = accelerator.unwrap_model(model)``, a new
``torch.optim`` optimizer), and the next iterations train with it."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import (
    accelerator_calls,
    accelerator_names,
    is_accelerator_receiver,
    literal,
    prepared_names,
    target_text,
)
from preflight.rules._pf414_support import fp16_training_signals
from preflight.rules.base import Rule, examples

_OPTIMIZER = re.compile(r"^(torch\.optim\.[A-Z]\w*|transformers\.(optimization\.)?AdamW|bitsandbytes\.optim\.\w+)$")
_LOOPS = (ast.For, ast.While, ast.AsyncFor)


def _accumulates(ctx: FileContext) -> bool:
    """The accelerator accumulates gradients (``gradient_accumulation_steps`` > 1 or ``accumulate()``)."""
    if accelerator_calls(ctx, "accumulate"):
        return True
    for call in ctx.nodes(ast.Call):
        if ast.unparse(call.func).endswith("Accelerator"):
            for kw in call.keywords:
                if kw.arg == "gradient_accumulation_steps":
                    value = literal(ctx, kw.value)
                    if not isinstance(value, int) or value > 1:
                        return True
    return False


@register
class PreparedNameReboundUnprepared(Rule):
    code = "PF229"
    needs_text = ("prepare",)
    name = "prepared-name-rebound-unprepared"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = ("Inside the training loop the name of a prepared model or optimizer is re-bound to an unprepared "
               "one (`model = accelerator.unwrap_model(model)`, a new `torch.optim` optimizer): later steps bypass "
               "Accelerate")
    explanation = """
## What it finds

In a loop that trains (it calls `accelerator.backward` or `.backward()`), an assignment
that re-binds a name `accelerator.prepare(...)` returned to an object Accelerate never
prepared, so the following iterations of the loop train with it:

* `model = accelerator.unwrap_model(model)` (typically to save a pipeline mid-training);
* `optimizer = torch.optim.AdamW(...)` (a new optimizer, e.g. to stop training part of
  the model), when the accelerator scales the loss (`mixed_precision="fp16"`) or
  accumulates gradients.

## Why it matters

`unwrap_model` returns the bare module without its `DistributedDataParallel` (or FSDP,
DeepSpeed) wrapper and without the autocast forward Accelerate installs
(accelerate/utils/other.py `extract_model_from_parallel`). Training it on several
processes skips the gradient all-reduce: every rank drifts apart on its own data
(diffusers issue 1855: the pipeline save re-bound `unet` and training went on unwrapped).
A new optimizer is not an
`AcceleratedOptimizer`: `accelerator.backward` still multiplies the loss by the
GradScaler's scale (accelerator.py `backward`: `self.scaler.scale(loss).backward()`), but
the raw optimizer steps on the scaled gradients without unscaling or inf checks, and it
steps on every micro-batch instead of when `sync_gradients` is set; the prepared
scheduler keeps driving the old optimizer ("unscale_() has already been called on this
optimizer since the last update()", accelerate issue 2193).

## How to fix it

Keep the prepared name: `unwrapped = accelerator.unwrap_model(model)` for the save. Pass
a new optimizer (and a scheduler built on it) through `accelerator.prepare`, or change
the prepared optimizer's param groups (`optimizer.param_groups[1]["lr"] = 0.0`).

## When preflight stays silent

* The re-bound name is a new one, or the loop leaves right after (`break`, `return`),
  or the new object is passed to `accelerator.prepare` before the next iteration.
* The loop does not train (no `backward`), or the assignment is outside any loop.
* A new optimizer under an accelerator that neither scales the loss nor accumulates.
"""
    bad_examples = examples("preflight.rules.code._pf229_examples", "PF229_BAD")
    good_examples = examples("preflight.rules.code._pf229_examples", "PF229_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        prepared = prepared_names(ctx)
        if not prepared:
            return
        accelerators = accelerator_names(ctx)
        imports = scope_index(ctx).imports
        risky_optimizer: Optional[bool] = None
        for assign in ctx.nodes(ast.Assign):
            if len(assign.targets) != 1 or not isinstance(assign.value, ast.Call):
                continue
            name = target_text(assign.targets[0])
            if name is None or name not in prepared or assign.lineno <= prepared[name].lineno:
                continue
            value = assign.value
            func = value.func
            if isinstance(func, ast.Attribute) and func.attr == "unwrap_model" \
                    and is_accelerator_receiver(func.value, accelerators):
                what = "unwrap"
            elif _OPTIMIZER.match(imports.qualify(func) or ""):
                if risky_optimizer is None:
                    risky_optimizer = bool(fp16_training_signals(ctx)) or _accumulates(ctx)
                if not risky_optimizer:
                    continue
                what = "optimizer"
            else:
                continue
            loop = self._training_loop(ctx, assign)
            if loop is None or self._leaves_or_prepares(ctx, assign, loop, name):
                continue
            if what == "unwrap":
                message = (f"`{ast.unparse(assign)[:80]}` re-binds the prepared `{name}` to the bare module inside the "
                           "training loop: the next iterations train it without the DistributedDataParallel/FSDP "
                           "wrapper and autocast Accelerate added, so gradients are no longer synchronised across "
                           f"processes. Keep `{name}` and bind the unwrapped module to a new name "
                           f"(`unwrapped = accelerator.unwrap_model({name})`)")
            else:
                message = (f"`{name} = {ast.unparse(value)[:60]}` replaces the prepared optimizer inside the training "
                           "loop with one `accelerator.prepare` never wrapped: its steps apply the GradScaler-scaled "
                           "gradients without unscaling (or every micro-batch instead of at the accumulation "
                           "boundary), and the prepared scheduler still drives the old optimizer. Prepare the new "
                           "optimizer, or change the prepared one's param groups")
            yield ctx.finding(self, assign, message,
                              evidence=[ctx.evidence(prepared[name], f"`{name}` comes from `accelerator.prepare` here")])

    @staticmethod
    def _training_loop(ctx: FileContext, node: ast.AST) -> Optional[ast.AST]:
        """The outermost loop around ``node`` (in its function) whose body calls ``backward``."""
        fn = ctx.enclosing_function(node)
        found = None
        for parent in ctx.ancestors(node):
            if parent is fn:
                break
            if isinstance(parent, _LOOPS) and any(
                    isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "backward"
                    for c in ast.walk(parent)):
                found = parent
        return found

    @staticmethod
    def _leaves_or_prepares(ctx: FileContext, assign: ast.Assign, loop: ast.AST, name: str) -> bool:
        """A ``break``/``return`` follows the assignment in its block, or the loop prepares ``name`` again
        after it."""
        parent = ctx.parent(assign)
        for field in ("body", "orelse"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and assign in block \
                    and any(isinstance(s, (ast.Break, ast.Return)) for s in block[block.index(assign) + 1:]):
                return True
        for call in ast.walk(loop):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "prepare" \
                    and call.lineno > assign.lineno and any(target_text(a) == name for a in call.args):
                return True
        return False
