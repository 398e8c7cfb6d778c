"""PF675 validation-pipeline-downcasts-trained-params: fp32-upcast trainable parameters
(``cast_training_params``) whose live module is handed to a validation pipeline that is then moved
to the half-precision weight dtype (``pipeline.to(device, dtype=weight_dtype)``)."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional, Union

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

_COMPONENTS = frozenset({"unet", "transformer", "text_encoder", "text_encoder_2", "text_encoder_3", "prior",
                         "controlnet", "decoder"})
_FP32 = frozenset({"torch.float32", "torch.float", "float32"})
_Fn = (ast.FunctionDef, ast.AsyncFunctionDef)


def _live_module(value: ast.expr) -> Optional[str]:
    """``unwrap_model(X)`` / ``accelerator.unwrap_model(X)`` / ``X``: the training module's name."""
    if isinstance(value, ast.Call) and call_last(value) == "unwrap_model" and value.args \
            and isinstance(value.args[0], ast.Name):
        return value.args[0].id
    if isinstance(value, ast.Name):
        return value.id
    return None


def _dtype_of_to(call: ast.Call) -> Optional[ast.expr]:
    """The dtype a ``.to(...)`` call casts to: ``dtype=`` or a second positional argument."""
    if not (isinstance(call.func, ast.Attribute) and call.func.attr == "to"):
        return None
    kw = next((k.value for k in call.keywords if k.arg == "dtype"), None)
    if kw is not None:
        return kw
    return call.args[1] if len(call.args) >= 2 else None


def _half(dtype: Optional[ast.expr]) -> bool:
    return dtype is not None and not (isinstance(dtype, ast.Constant) and dtype.value is None) \
        and ast.unparse(dtype) not in _FP32


def _calls_to_on(fn: ast.AST, name: str) -> list[ast.Call]:
    return [n for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and isinstance(n.func.value, ast.Name) and n.func.value.id == name and _half(_dtype_of_to(n))]


def _freshly_loaded(scope: ast.AST, name: str, line: int) -> bool:
    """The last binding of ``name`` before ``line`` loads a new model (``X.from_pretrained(...)``): the
    pipeline gets a fresh copy (class-image generation, the final inference), not the training module."""
    bindings = [node for node in ast.walk(scope) if isinstance(node, ast.Assign) and node.lineno < line and any(
        isinstance(t, ast.Name) and t.id == name for target in node.targets for t in ast.walk(target))]
    last = max(bindings, key=lambda node: node.lineno) if bindings else None
    return last is not None and isinstance(last.value, ast.Call) and \
        call_last(last.value) in ("from_pretrained", "from_single_file", "from_config")


def _upcasts(fn: ast.AST, after: int) -> bool:
    return any(isinstance(n, ast.Call) and call_last(n) == "cast_training_params" and n.lineno > after
               for n in ast.walk(fn))


@register
class ValidationPipelineDowncastsTrainedParams(Rule):
    code = "PF675"
    name = "validation-pipeline-downcasts-trained-params"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "accelerate")
    needs_text = ("cast_training_params",)
    summary = ("The live training module (its trainable params upcast to fp32 by `cast_training_params`) is put in "
               "a validation pipeline that is moved to the fp16 weight dtype: the next step fails with "
               "\"Attempting to unscale FP16 gradients\"")
    explanation = """
## What it finds

A diffusers training script that keeps its trainable (LoRA) parameters in float32 with
`cast_training_params(models, dtype=torch.float32)` (the fp16 mixed-precision recipe), builds a
validation pipeline around the *live* training module
(`FluxPipeline.from_pretrained(..., transformer=unwrap_model(transformer))`) and then moves that
pipeline to a half-precision dtype: `pipeline.to(accelerator.device, dtype=torch_dtype)` with
`weight_dtype`, in the same function or in the `log_validation(pipeline, ..., torch_dtype=...)` it
is handed to, with no `cast_training_params` after it.

## Why it matters

`DiffusionPipeline.to(dtype=...)` casts every component in place, including the shared training
module and the LoRA layers inside it. After the first validation the trainable parameters are fp16,
their gradients are fp16, and `GradScaler.unscale_` raises `ValueError: Attempting to unscale FP16
gradients.` on the next optimizer step (diffusers issue 13124; PR 13895 for
`train_dreambooth_lora.py`; PR 13510; PR 13899 lists the other DreamBooth LoRA scripts with the same
three conditions; diffusers PR 9565 for the Flux DreamBooth LoRA script).

## How to fix it

Move the pipeline with `.to(accelerator.device)` only (the frozen components are already in the
weight dtype), or call `cast_training_params(models, dtype=torch.float32)` again after validation.

## When preflight stays silent

* No `cast_training_params` in the file (nothing was upcast), or the module handed to the pipeline
  is not one the file upcasts.
* The pipeline is only moved to a device, or to `torch.float32`.
* `cast_training_params` runs again after the cast (in the validation function or after its call).
* The pipeline is loaded from saved weights instead of the live module (the final validation), or
  the module name was last bound to a freshly loaded model (`transformer = X.from_pretrained(...)`
  for class-image generation or the final inference).
"""
    bad_examples = examples("preflight.rules.code._pf675_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf675_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        upcast = self._upcast_text(ctx)
        if not upcast:
            return
        functions = {fn.name: fn for fn in ctx.nodes(*_Fn)}
        for node in ctx.nodes(ast.Assign):
            value = node.value
            if not (isinstance(value, ast.Call) and call_last(value) == "from_pretrained"
                    and isinstance(value.func, ast.Attribute) and isinstance(value.func.value, (ast.Name, ast.Attribute))
                    and ast.unparse(value.func.value).endswith("Pipeline")
                    and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
                continue
            live: list[tuple[str, str]] = []
            for kw in value.keywords:
                mod = _live_module(kw.value) if kw.arg in _COMPONENTS else None
                if kw.arg and mod and re.search(rf"\b{re.escape(mod)}\b", upcast):
                    live.append((kw.arg, mod))
            if not live:
                continue
            pipe = node.targets[0].id
            scope = ctx.enclosing_function(node) or ctx.tree
            live = [(arg, mod) for arg, mod in live if not _freshly_loaded(scope, mod, node.lineno)]
            live.sort(key=lambda item: item[0].startswith("text_encoder"))
            if not live:
                continue
            cast = self._cast(scope, pipe, node.lineno, functions)
            if cast is None:
                continue
            arg, module = live[0]
            yield ctx.finding(
                self, value,
                f"the validation pipeline gets the live training module (`{arg}=` `{module}`, whose trainable "
                f"parameters `cast_training_params` keeps in float32) and is then moved to "
                f"`{ast.unparse(_dtype_of_to(cast) or cast)}` (line {cast.lineno}): `pipeline.to(dtype=...)` casts "
                "that module in place, LoRA layers included, so after the first validation the trainable "
                "parameters and their gradients are fp16 and the next optimizer step fails with \"Attempting to "
                "unscale FP16 gradients\". Move the pipeline with `.to(device)` only, or call "
                "`cast_training_params(..., dtype=torch.float32)` again after validation",
                evidence=[Evidence(line=cast.lineno, message="the pipeline, with the training module, is cast here")])

    @staticmethod
    def _upcast_text(ctx: FileContext) -> str:
        """The text of every ``cast_training_params`` argument, with the list a name argument is bound to."""
        parts: list[str] = []
        names: set[str] = set()
        for call in ctx.nodes(ast.Call):
            if call_last(call) != "cast_training_params" or not call.args:
                continue
            dtype = next((k.value for k in call.keywords if k.arg == "dtype"), None)
            if dtype is not None and ast.unparse(dtype) not in _FP32:
                continue
            parts.append(ast.unparse(call.args[0]))
            if isinstance(call.args[0], ast.Name):
                names.add(call.args[0].id)
        for node in ctx.nodes(ast.Assign):
            if any(isinstance(t, ast.Name) and t.id in names for t in node.targets):
                parts.append(ast.unparse(node.value))
        for grow in ctx.nodes(ast.Call):  # models.append(text_encoder_one)
            if isinstance(grow.func, ast.Attribute) and grow.func.attr in ("append", "extend") and \
                    isinstance(grow.func.value, ast.Name) and grow.func.value.id in names:
                parts += [ast.unparse(a) for a in grow.args]
        return " ".join(parts)

    @staticmethod
    def _cast(scope: ast.AST, pipe: str, line: int,
              functions: dict[str, Union[ast.FunctionDef, ast.AsyncFunctionDef]]) -> Optional[ast.Call]:
        """The half-precision ``.to`` the pipeline gets after ``line``, here or in the function it is passed to,
        unless ``cast_training_params`` runs again after it."""
        for direct in _calls_to_on(scope, pipe):
            if direct.lineno > line and not _upcasts(scope, direct.lineno):
                return direct
        for call in ast.walk(scope):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.lineno > line
                    and call.func.id in functions):
                continue
            fn = functions[call.func.id]
            params = [a.arg for a in fn.args.args]
            param: Optional[str] = None
            for i, a in enumerate(call.args):
                if isinstance(a, ast.Name) and a.id == pipe and i < len(params):
                    param = params[i]
            for kw in call.keywords:
                if isinstance(kw.value, ast.Name) and kw.value.id == pipe and kw.arg in params:
                    param = kw.arg
            if param is None:
                continue
            for inner in _calls_to_on(fn, param):
                if not _upcasts(fn, inner.lineno) and not _upcasts(scope, call.lineno):
                    return inner
        return None
