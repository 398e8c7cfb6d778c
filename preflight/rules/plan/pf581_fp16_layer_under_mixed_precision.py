"""PF581 fp16-layer-under-mixed-precision: a layer of the model is created in float16
(``nn.PReLU(c, dtype=torch.float16)``) in a job that trains with fp16 mixed precision."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf414_support import is_fp16_dtype
from preflight.rules.base import examples
from preflight.rules.plan._fp16_adapter_cast import adapter_casts
from preflight.rules.plan._job_files import job_files


def _fp16_layers(tree: ast.AST) -> Iterator[ast.Call]:
    """``nn.X(..., dtype=torch.float16)`` / ``torch.nn.X(...)``: a torch.nn layer whose parameters are
    created in float16."""
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr[:1].isupper()):
            continue
        owner = node.func.value
        if not ((isinstance(owner, ast.Name) and owner.id == "nn") or (
                isinstance(owner, ast.Attribute) and owner.attr == "nn" and isinstance(owner.value, ast.Name)
                and owner.value.id == "torch")):
            continue
        if any(k.arg == "dtype" and is_fp16_dtype(k.value) for k in node.keywords):
            yield node


_QUANTIZED = ("quantization_config", "load_in_4bit", "load_in_8bit")


def _fp16_loads(tree: ast.AST) -> Iterator[ast.Call]:
    """``X.from_pretrained(..., torch_dtype=torch.float16)`` (or ``dtype=``) without 4/8-bit
    quantization: a whole pretrained model whose parameters are float16 (with quantization the
    dtype is only the compute dtype)."""
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "from_pretrained"):
            continue
        keys = {k.arg for k in node.keywords}
        if None in keys or keys & set(_QUANTIZED):
            continue
        if any(k.arg in ("torch_dtype", "dtype") and is_fp16_dtype(k.value) for k in node.keywords):
            yield node


def _peft_without_full_modules(tree: ast.AST) -> bool:
    """The file wraps a model with ``get_peft_model`` and trains no full module
    (``modules_to_save``): the LoRA adapters are created in float32, the float16 base is frozen."""
    names = {n.func.id if isinstance(n.func, ast.Name) else n.func.attr if isinstance(n.func, ast.Attribute) else ""
             for n in ast.walk(tree) if isinstance(n, ast.Call)}
    saved = any(isinstance(n, ast.keyword) and n.arg == "modules_to_save" for n in ast.walk(tree))
    return "get_peft_model" in names and not saved


def _freezes(tree: ast.AST) -> bool:
    """``x.requires_grad_(False)`` or ``p.requires_grad = False`` anywhere in the file."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "requires_grad_" \
                and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value is False:
            return True
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and node.value.value is False \
                and any(isinstance(t, ast.Attribute) and t.attr == "requires_grad" for t in node.targets):
            return True
    return False


@register
class Fp16LayerUnderMixedPrecision(PlanRule):
    code = "PF581"
    name = "fp16-layer-under-mixed-precision"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "lightning", "accelerate", "transformers")
    summary = ("A model layer is created with `dtype=torch.float16` in a job that trains with fp16 mixed "
               "precision: the gradient scaler refuses its fp16 gradients")
    explanation = """
## What it finds

A `torch.nn` layer built with a float16 factory dtype (`nn.PReLU(c,
dtype=torch.float16)`, `nn.Linear(a, b, dtype=torch.half)`) in the job's scripts or
the project modules they import, while the job trains with fp16 mixed precision
(Lightning `precision=16`/`"16-mixed"`, `Accelerator(mixed_precision="fp16")`,
`TrainingArguments(fp16=True)`, a `GradScaler`), possibly set in another file.

Also a whole pretrained model loaded with `from_pretrained(...,
torch_dtype=torch.float16)` (no 4/8-bit quantization) in another file than the one
that asks for fp16 mixed precision: a LightningModule that loads its model in
`__init__` while `train.py` builds `Trainer(precision="16-mixed")` (litgpt issue
1252: 16-bit weights trained with mixed precision have no float32 master weights
and the fp16 scaler cannot unscale their gradients). PF422 reports the load when
the same file asks for fp16 training.

Also LoRA adapters added to a module that is then cast to the run's weight dtype
(`unet.add_adapter(LoraConfig(...))`, then `unet.to(device, dtype=weight_dtype)` with
`weight_dtype = torch.float16` under `if accelerator.mixed_precision == "fp16":`) and
no upcast of the trainable parameters after it (`cast_training_params`), in a job
whose launch asks for fp16 mixed precision (the accelerate config's
`mixed_precision: fp16`): the cast converts the adapters too, and they are the only
trained weights (img2img-turbo issue 18; diffusers' LoRA scripts cast first, add the
adapters, then `cast_training_params(unet, dtype=torch.float32)`). Likewise a module, or a
part of it, marked trainable with `requires_grad_(True)` and then cast to that weight dtype
(DreamPose issue 70: `vae.decoder.requires_grad_(True)`, then `vae.to(device,
dtype=weight_dtype)`).

## Why it matters

fp16 mixed precision keeps the parameters in float32 and scales the loss; before
the step the scaler unscales the gradients and refuses float16 ones: `ValueError:
Attempting to unscale FP16 gradients` at the first optimizer step (AdaFace issue
with Lightning 16-bit training: the PReLU layers had been changed to
`torch.float16`). The layer's dtype is set where the model is defined, far from
the Trainer that asks for mixed precision, so the error is hard to trace. PF422
reports whole models cast or loaded in float16 in the training file.

## How to fix it

Drop the `dtype=` (parameters in float32); autocast runs the layer in float16
where that is safe.

## When preflight stays silent

* The job does not use fp16 mixed precision (bf16 has no scaler; pure fp16 is
  PF579's).
* The dtype is bfloat16 or float32, or given through a variable preflight does not
  resolve.
* A float16 load in the same file as the fp16 setting (PF422's), a quantized load,
  or a file that wraps the model with `get_peft_model` and names no
  `modules_to_save` (float32 adapters on a frozen float16 base).
* The file freezes parameters (`requires_grad_(False)`, `requires_grad = False`): a
  frozen float16 module has no gradient for the scaler to refuse.
  (The adapter-then-cast shape is reported all the same: the freeze leaves the adapters,
  which the cast makes float16, as the trained weights.)
* The adapters are added after the cast (PF422's), the trainable parameters are cast
  back to float32 after it, or the launch's mixed precision is not fp16 (`'no'`, bf16:
  then `weight_dtype` stays float32 or is bfloat16).
"""
    bad_examples = examples("preflight.rules.plan._pf581_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf581_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        modes = pctx.plan.facts("precision.mode")
        mixed = next((f for f in modes if f.value == "amp_fp16"), None)
        if mixed is None:
            return
        files = job_files(pctx)
        evidence = pctx.fact_evidence(mixed, "fp16 mixed precision: the gradient scaler unscales every gradient")
        for display, tree in files:
            for cast, adapter in adapter_casts(tree):
                module = ast.unparse(cast.func.value)  # type: ignore[attr-defined]
                precision = mixed.source.detail or 'amp_fp16'
                if adapter.func.attr == "requires_grad_":  # type: ignore[attr-defined]
                    trained = ast.unparse(adapter.func.value)  # type: ignore[attr-defined]
                    message = (
                        f"`{ast.unparse(cast)}` casts `{module}` to float16, but `{trained}` is trained "
                        f"(`{ast.unparse(adapter)}`, line {adapter.lineno}) and the job runs fp16 mixed precision "
                        f"({precision}): its weights and gradients are float16, and the gradient scaler raises "
                        "\"Attempting to unscale FP16 gradients\" at the first step. Keep the trained module in "
                        "float32 (autocast runs its compute in fp16) and cast only the frozen ones to the weight dtype")
                else:
                    message = (
                        f"`{ast.unparse(cast)}` casts `{module}` to float16 after `{ast.unparse(adapter.func)}(...)` "
                        f"(line {adapter.lineno}) added its LoRA adapters, and the job trains with fp16 mixed "
                        f"precision ({precision}): the adapters, the only trained weights, are float16 "
                        "now, and the gradient scaler raises \"Attempting to unscale FP16 gradients\" at the first "
                        "step. Cast before adding the adapters and keep them in float32 "
                        "(`cast_training_params(model, dtype=torch.float32)`), or train in bf16")
                yield pctx.location_finding(self, display, cast.lineno, message,
                                            evidence=[evidence] if evidence is not None else None)
            if _freezes(tree):
                continue  # a frozen fp16 module (a teacher, an encoder) has no gradient to unscale
            if display != mixed.source.path and not _peft_without_full_modules(tree):
                # a float16 load in another file than the one asking for mixed precision (a
                # LightningModule's __init__, the Trainer in train.py); in one file PF422 reports it
                for call in _fp16_loads(tree):
                    dtype = next(k.value for k in call.keywords if k.arg in ("torch_dtype", "dtype")
                                 and is_fp16_dtype(k.value))
                    yield pctx.location_finding(
                        self, display, dtype.lineno,
                        f"`{ast.unparse(call.func)}(..., torch_dtype=float16)` loads the weights in float16, and "
                        f"the job trains them with fp16 mixed precision ({mixed.source.detail or 'amp_fp16'}): "
                        "mixed precision expects float32 parameters, and the gradient scaler raises \"Attempting "
                        "to unscale FP16 gradients\" at the first optimizer step. Load the trained weights in "
                        "float32 (autocast still runs the forward in fp16), or train in bf16",
                        evidence=[evidence] if evidence is not None else None)
            for call in _fp16_layers(tree):
                yield pctx.location_finding(
                    self, display, call.lineno,
                    f"`{ast.unparse(call.func)}(..., dtype=float16)` creates this layer's parameters in float16, and "
                    f"the job trains with fp16 mixed precision ({mixed.source.detail or 'amp_fp16'}): the gradient "
                    "scaler raises \"Attempting to unscale FP16 gradients\" at the first optimizer step. Drop the "
                    "dtype (float32 parameters); autocast runs the layer in float16",
                    evidence=[evidence] if evidence is not None else None)
