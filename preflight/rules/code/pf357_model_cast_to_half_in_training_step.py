"""PF357 model-cast-to-half-in-training-step: the model being trained cast to bfloat16/float16 inside the
training step (a Trainer's ``compute_loss``/``training_step``, a LightningModule's ``training_step``): the
optimizer's parameters and its state become 16-bit."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

_HOOKS = frozenset({"compute_loss", "training_step"})
_HALF_DTYPES = frozenset({"bfloat16", "float16", "half", "bf16", "fp16"})


def _half_dtype(node: Optional[ast.AST]) -> bool:
    """``torch.bfloat16``, ``torch.half``, ``"bfloat16"``, or a local bound to ``torch.bfloat16 if ... else ...``."""
    if node is None:
        return False
    if isinstance(node, ast.Attribute) and node.attr in _HALF_DTYPES:
        return True
    if isinstance(node, ast.Constant) and node.value in _HALF_DTYPES:
        return True
    if isinstance(node, ast.IfExp):
        return _half_dtype(node.body) or _half_dtype(node.orelse)
    return False


def _local_value(fn: ast.AST, name: str, before: int) -> Optional[ast.AST]:
    found: Optional[ast.AST] = None
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and node.lineno < before and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == name:
            found = node.value
    return found


def _casts_to_half(fn: ast.AST, call: ast.Call) -> bool:
    last = call_last(call)
    if last in ("half", "bfloat16") and not call.args:
        return True
    if last != "to":
        return False
    for arg in [*call.args, kwarg(call, "dtype")]:
        value: Optional[ast.AST] = _local_value(fn, arg.id, call.lineno) if isinstance(arg, ast.Name) else arg
        if _half_dtype(value):
            return True
    return False


def _model_names(fn: ast.FunctionDef) -> set[str]:
    """The names that hold the trained model in the hook: ``self`` / ``self.model`` (Lightning, Trainer) and
    the ``model`` parameter of ``compute_loss(self, model, inputs, ...)``."""
    names = {"self", "self.model"}
    params = [a.arg for a in fn.args.args]
    if fn.name == "compute_loss" and len(params) > 1:
        names.add(params[1])
    return names


@register
class ModelCastToHalfInTrainingStep(Rule):
    code = "PF357"
    needs_text = ("training_step", "compute_loss")
    name = "model-cast-to-half-in-training-step"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers", "lightning")
    summary = ("the trained model cast to bfloat16/float16 inside `compute_loss`/`training_step`: its "
               "parameters and the optimizer's state become 16-bit, small updates are lost")
    url = "https://github.com/hp-l33/AiM/issues/10"
    explanation = """
## What it finds

Inside a Trainer subclass's `compute_loss`/`training_step` or a LightningModule's
`training_step`, the model being trained (`model` of `compute_loss(self, model, ...)`,
`self.model`, or `self`) is cast in place: `model.to(torch.bfloat16)`,
`model.to(dtype=dtype)` with `dtype = torch.bfloat16 if ... else ...`, `model.half()`,
`self.bfloat16()`.

## Why it matters

`Module.to(dtype)` converts the parameters in place: the optimizer keeps the same parameter
objects, now 16-bit, and creates its moment buffers in 16 bits. bfloat16 keeps about 3
significant digits, so every update smaller than 1/256 of a weight rounds away and the loss
falls much more slowly (AiM issue 10; float16 adds overflow and Adam's eps problems).
`TrainingArguments(bf16=True)` or Lightning's `precision="bf16-mixed"` already compute in
bf16 under autocast while keeping float32 weights, gradients and optimizer state.

## How to fix it

Remove the cast; let the mixed-precision setting autocast the forward. Cast the inputs if
they must be bf16, not the module.

## When preflight stays silent

* The cast targets inputs or another (frozen) module, or float32.
* The cast is outside the training step (e.g. for export after training).
* The file asks for 16-bit weights on purpose (Lightning `precision="bf16-true"`/`"16-true"`).
"""
    bad_examples = examples("preflight.rules.code._pf357_examples", "PF357_BAD")
    good_examples = examples("preflight.rules.code._pf357_examples", "PF357_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if any(ctx.mentions(p) for p in ("bf16-true", "16-true", "half_precision_backend")):
            return  # 16-bit weights by choice: Lightning's "-true" precisions cast the module themselves
        for fn in ctx.nodes(ast.FunctionDef):
            if fn.name not in _HOOKS or not fn.args.args or fn.args.args[0].arg != "self":
                continue
            models = _model_names(fn)
            for call in ast.walk(fn):
                if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
                    continue
                receiver = ast.unparse(call.func.value)
                if receiver not in models or not _casts_to_half(fn, call):
                    continue
                yield ctx.finding(self, call, (
                    f"`{receiver}` is cast to 16 bits inside `{fn.name}`: Module.to(dtype) converts the "
                    "parameters in place, so the optimizer now updates 16-bit weights and keeps 16-bit moments; "
                    "bfloat16 keeps ~3 significant digits, updates below 1/256 of a weight are lost and training "
                    "slows or stalls. Mixed precision (bf16=True, precision=\"bf16-mixed\") already autocasts "
                    "the forward while keeping float32 weights: drop the cast"))
