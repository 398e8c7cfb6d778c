"""PF452 clip-every-micro-step: ``accelerator.clip_grad_norm_`` inside ``accumulate`` without ``sync_gradients``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import accelerator_calls, accelerators, kwarg, literal
from preflight.rules._pf414_support import names_called
from preflight.rules.base import Rule, examples

_CLIPS = ("clip_grad_norm_", "clip_grad_value_")


def _mentions_sync(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr in ("sync_gradients", "optimizer_step_was_skipped")
               for n in ast.walk(node))


def _class_default_one(ctx: FileContext, expr: ast.AST) -> bool:
    """``config.gradient_accumulation_steps`` where the file's only value for the name is a class
    attribute ``gradient_accumulation_steps = 1`` (the diffusers tutorial's ``TrainingConfig``), never
    given as a keyword nor assigned elsewhere."""
    name = expr.attr if isinstance(expr, ast.Attribute) else None
    if name is None:
        return False
    values: list[ast.AST] = []
    for node in ctx.nodes(ast.ClassDef):
        for st in node.body:
            value: Optional[ast.expr] = None
            targets: list[ast.expr] = []
            if isinstance(st, ast.Assign):
                targets, value = st.targets, st.value
            elif isinstance(st, ast.AnnAssign) and st.value is not None:
                targets, value = [st.target], st.value
            if value is not None and any(isinstance(t, ast.Name) and t.id == name for t in targets):
                values.append(value)
    if not values or not all(isinstance(v, ast.Constant) and v.value == 1 for v in values):
        return False
    if any(isinstance(n, ast.Attribute) and n.attr == name and isinstance(n.ctx, ast.Store)
           for n in ctx.nodes(ast.Attribute)):
        return False
    return not any(kw.arg == name for call in ctx.nodes(ast.Call) for kw in call.keywords
                   if call is not _ctor_of(ctx, expr))


def _ctor_of(ctx: FileContext, expr: ast.AST) -> Optional[ast.AST]:
    parent = ctx.parent(expr)
    return ctx.parent(parent) if isinstance(parent, ast.keyword) else None


@register
class ClipEveryMicroStep(Rule):
    code = "PF452"
    needs_text = ("clip_grad_",)
    name = "clip-every-micro-step"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = "`accelerator.clip_grad_norm_` runs on every micro-step of `accumulate`, not under `sync_gradients`"
    explanation = """
## What it finds

`accelerator.clip_grad_norm_(...)` (or `clip_grad_value_`) inside
`with accelerator.accumulate(model):`, not under `if accelerator.sync_gradients:`,
in a file whose `Accelerator(...)` is given a `gradient_accumulation_steps` window.

## Why it matters

Inside `accumulate`, only the last micro-step of each window synchronizes the
gradients and really steps the optimizer. `clip_grad_norm_` unscales the
gradients on every call: under fp16 the second micro-step of a window calls the
GradScaler's `unscale_` again before any `update()` and raises "unscale_() has
already been called on this optimizer since the last update()"; in other
precisions each micro-step clips partial, unsynchronized gradients (diffusers PR 721:
"The gradients need to be clipped after they are synchronized when doing
accumulation").

## How to fix it

```python
accelerator.backward(loss)
if accelerator.sync_gradients:
    accelerator.clip_grad_norm_(model.parameters(), max_grad_norm)
optimizer.step()
```

## When preflight stays silent

* The clip is under an `if` that tests `accelerator.sync_gradients`.
* No `Accelerator(...)` of the file gets `gradient_accumulation_steps` (or it is 1, also
  through a config class whose only value for it is `gradient_accumulation_steps = 1`),
  or a DeepSpeed plugin is configured (DeepSpeed clips itself; the call only reads
  the norm).
"""
    bad_examples = examples("preflight.rules.code._pf452_examples", "PF452_BAD")
    good_examples = examples("preflight.rules.code._pf452_examples", "PF452_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        clips = [c for name in _CLIPS for c in accelerator_calls(ctx, name)]
        if not clips:
            return
        for clip in clips:
            loop = _manual_micro_loop(ctx, clip)
            if loop is None:
                continue
            yield ctx.finding(
                self, clip,
                f"`{ast.unparse(clip.func)}` runs after every backward of this hand-written accumulation loop, "
                "while the optimizer steps once after it: under fp16 the second call unscales the same "
                "gradients again before any update (\"unscale_() has already been called\"); otherwise each "
                "call clips a partial sum of the gradients. Clip once, after the loop, before the step",
                evidence=[ctx.evidence(loop, "the micro-batch loop (backward, no optimizer step)")])
        windows: list[ast.expr] = []
        for ctor in accelerators(ctx):
            w = kwarg(ctor, "gradient_accumulation_steps")
            if w is not None and literal(ctx, w) != 1 and not _class_default_one(ctx, w):
                windows.append(w)
        if not windows or names_called(ctx) & {"DeepSpeedPlugin"}:
            return
        for clip in clips:
            window = self._accumulate_block(ctx, clip)
            if window is None:
                continue
            yield ctx.finding(
                self, clip,
                f"`{ast.unparse(clip.func)}` runs on every micro-step inside `accumulate`, not only when "
                "`accelerator.sync_gradients`: under fp16 the second micro-step unscales again before any "
                "update and raises \"unscale_() has already been called\"; otherwise each micro-step clips "
                "partial, unsynchronized gradients. Put it under `if accelerator.sync_gradients:`",
                evidence=[ctx.evidence(window, "the accumulation window"),
                          ctx.evidence(windows[0], "gradient_accumulation_steps")])

    @staticmethod
    def _accumulate_block(ctx: FileContext, clip: ast.Call) -> Optional[ast.AST]:
        """The ``with accelerator.accumulate(...)`` around the clip, when no ``if`` on the way tests
        ``sync_gradients``."""
        node: Optional[ast.AST] = clip
        while node is not None:
            node = ctx.parent(node)
            if isinstance(node, ast.If) and _mentions_sync(node.test):
                return None
            if isinstance(node, (ast.With, ast.AsyncWith)):
                for item in node.items:
                    call = item.context_expr
                    if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                            and call.func.attr == "accumulate":
                        return call
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                return None
        return None


def _manual_micro_loop(ctx: FileContext, clip: ast.Call) -> Optional[ast.AST]:
    """The ``for``/``while`` around the clip that runs backward passes but no optimizer step, where a
    ``.step()`` follows the loop in the same block (``for _ in range(grad_accum_every): ...backward...``
    then ``optimizer.step()``), with no ``sync_gradients`` test on the way and no ``accumulate`` block
    (the other shape)."""
    node: Optional[ast.AST] = clip
    while node is not None:
        node = ctx.parent(node)
        if node is None or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return None
        if isinstance(node, ast.If) and _mentions_sync(node.test):
            return None
        if isinstance(node, (ast.With, ast.AsyncWith)) and any(
                isinstance(i.context_expr, ast.Call) and isinstance(i.context_expr.func, ast.Attribute)
                and i.context_expr.func.attr == "accumulate" for i in node.items):
            return None
        if not isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            continue
        attrs = {n.func.attr for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)}
        if "step" in attrs:
            return None  # the loop steps itself (an epoch or batch loop)
        if "backward" not in attrs:
            continue
        parent = ctx.parent(node)
        for field in ("body", "orelse", "finalbody"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and node in block:
                after = block[block.index(node) + 1:]
                if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "step"
                       for st in after for n in ast.walk(st)):
                    return node
        return None
    return None
