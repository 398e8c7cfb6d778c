"""PF560 frozen-module-outside-mixed-precision: a frozen model that does most of the forward
compute is neither prepared by Accelerate nor cast, so it runs in fp32 in a mixed-precision job."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import accelerator_names, is_accelerator_receiver, target_text
from preflight.rules.base import examples

_CASTS = frozenset({"half", "bfloat16", "float16", "to_empty"})
_AUTOCAST = frozenset({"autocast"})
_DTYPE_KWARGS = frozenset({"dtype", "torch_dtype"})


def _frozen(ctx: FileContext) -> dict[str, ast.Call]:
    """``X.requires_grad_(False)`` -> {X: the call}."""
    out: dict[str, ast.Call] = {}
    for call in ctx.nodes(ast.Call):
        f = call.func
        if isinstance(f, ast.Attribute) and f.attr == "requires_grad_" and call.args \
                and isinstance(call.args[0], ast.Constant) and call.args[0].value is False:
            name = target_text(f.value)
            if name:
                out.setdefault(name, call)
    return out


def _prepared(ctx: FileContext, accelerators: set[str]) -> Optional[set[str]]:
    """The names passed to ``accelerator.prepare(...)`` (None when the script prepares nothing)."""
    found: Optional[set[str]] = None
    for call in ctx.nodes(ast.Call):
        f = call.func
        if isinstance(f, ast.Attribute) and f.attr in ("prepare", "prepare_model") \
                and is_accelerator_receiver(f.value, accelerators):
            found = found or set()
            for a in call.args:
                text = target_text(a.value if isinstance(a, ast.Starred) else a)
                if text:
                    found.add(text)
    return found


def _is_dtype(expr: ast.AST) -> bool:
    text = ast.unparse(expr).lower()
    return "dtype" in text or any(w in text for w in ("float16", "bfloat16", "half", "bf16", "fp16"))


def _cast_or_loaded_16(ctx: FileContext, name: str) -> bool:
    """``X.to(..., dtype=...)``, ``X.to(device, weight_dtype)``, ``X.half()``, or loaded with a dtype."""
    for call in ctx.nodes(ast.Call):
        f = call.func
        if isinstance(f, ast.Attribute) and target_text(f.value) == name:
            if f.attr in _CASTS:
                return True
            if f.attr == "to" and (any(kw.arg in _DTYPE_KWARGS or kw.arg is None for kw in call.keywords)
                                   or any(_is_dtype(a) for a in call.args)):
                return True
    for assign in ctx.nodes(ast.Assign):
        if any(target_text(t) == name for t in assign.targets) and isinstance(assign.value, ast.Call) \
                and any(kw.arg in _DTYPE_KWARGS or kw.arg is None for kw in assign.value.keywords):
            return True
    return False


def _device_move(ctx: FileContext, name: str) -> Optional[ast.Call]:
    for call in ctx.nodes(ast.Call):
        f = call.func
        if isinstance(f, ast.Attribute) and f.attr in ("to", "cuda") and target_text(f.value) == name:
            return call
    return None


def _has_autocast_call(expr: ast.AST) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, (ast.Attribute, ast.Name))
               and (n.func.attr if isinstance(n.func, ast.Attribute) else n.func.id) in _AUTOCAST
               for n in ast.walk(expr))


def _autocast_context(ctx: FileContext, expr: ast.AST) -> bool:
    """``with torch.autocast(...)``, ``with accelerator.autocast()``, or ``with ctx_name:`` where the
    file binds ``ctx_name`` to an autocast (``autocast_ctx = torch.autocast(...)`` in one branch)."""
    if _has_autocast_call(expr):
        return True
    if isinstance(expr, ast.Name):
        return any(isinstance(a, ast.Assign) and any(target_text(t) == expr.id for t in a.targets)
                   and _has_autocast_call(a.value) for a in ctx.nodes(ast.Assign))
    return False


def _used_in_training_loop(ctx: FileContext, name: str) -> Optional[ast.Call]:
    """A forward (``X(...)``, ``X.encode(...)``) of ``name`` in a loop that backpropagates, outside autocast."""
    for call in ctx.nodes(ast.Call):
        f = call.func
        base = f if not isinstance(f, ast.Attribute) or f.attr not in ("encode", "decode", "forward") else f.value
        if target_text(base) != name or (isinstance(f, ast.Attribute) and f is base):
            continue
        loop = None
        autocast = False
        for anc in ctx.ancestors(call):
            if isinstance(anc, (ast.With, ast.AsyncWith)) and any(
                    _autocast_context(ctx, it.context_expr) for it in anc.items):
                autocast = True
            if isinstance(anc, (ast.For, ast.While)) and loop is None:
                loop = anc
            if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef)):
                break
        if autocast or loop is None:
            continue
        if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "backward"
               for n in ast.walk(loop)):
            return call
    return None


@register
class FrozenModuleOutsideMixedPrecision(PlanRule):
    code = "PF560"
    name = "frozen-module-outside-mixed-precision"
    severity = Severity.WARNING
    category = Category.PERFORMANCE
    frameworks = ("accelerate",)
    summary = "A frozen model run in the training loop is neither prepared nor cast: it computes in fp32 under mixed precision"
    explanation = """
## What it finds

In an Accelerate job that trains in fp16 or bf16 mixed precision (`--mixed_precision`,
`Accelerator(mixed_precision=...)`, the accelerate config), a model frozen with
`requires_grad_(False)` that is not passed to `accelerator.prepare`, is moved to the
device with `.to(accelerator.device)` and no dtype, and is called in the training loop
(`vae.encode(...)`, `unet(...)`) outside any `autocast` block.

## Why it matters

Accelerate applies mixed precision by wrapping the forward of the prepared models in
autocast. A frozen UNet or VAE that is only moved to the GPU runs its forward in full
fp32 outside that wrapper: in textual inversion or LoRA training it is almost all of the
compute, so `--mixed_precision fp16` gives no speed-up and the fp32 weights take twice
the memory (diffusers PR 1562; the diffusers scripts since cast the frozen models).

## How to fix it

Cast the frozen models to the mixed-precision dtype:
`weight_dtype = torch.float16 if accelerator.mixed_precision == "fp16" else torch.bfloat16 ...`,
`unet.to(accelerator.device, dtype=weight_dtype)`, and feed them inputs of that dtype; or
run their forward under `with accelerator.autocast():`.

## When preflight stays silent

* The model is prepared, cast (`.to(dtype=...)`, `.to(device, weight_dtype)`, `.half()`),
  or loaded with `torch_dtype=`; its forward runs under an `autocast` block.
* The frozen model is a VAE (its name says so): diffusers scripts keep the VAE in fp32 on
  purpose, the SDXL VAE overflowing in fp16.
* `.to(**kwargs)`: the dtype may be among the keywords.
* Precision not known to be fp16/bf16 mixed.
"""
    bad_examples = examples("preflight.rules.plan._pf560_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf560_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        precision = pctx.plan.resolve("precision.mode")
        if precision is None or precision.value not in ("amp_bf16", "amp_fp16"):
            return
        mode = "bf16" if precision.value == "amp_bf16" else "fp16"
        for script in pctx.scripts:
            ctx = pctx.file_context(script)
            if "requires_grad_" not in script.source.text or "prepare" not in script.source.text:
                continue
            accelerators = accelerator_names(ctx)
            prepared = _prepared(ctx, accelerators)
            if not prepared:
                continue
            for name, frozen in _frozen(ctx).items():
                if "vae" in name.lower():
                    continue  # a VAE kept in fp32 on purpose (the SDXL VAE overflows in fp16)
                if name in prepared or _cast_or_loaded_16(ctx, name):
                    continue
                move = _device_move(ctx, name)
                if move is None:
                    continue
                use = _used_in_training_loop(ctx, name)
                if use is None:
                    continue
                evidence = [pctx.code_evidence(script, frozen, "frozen here, so never handed to `prepare`"),
                            pctx.code_evidence(script, use, "its forward runs here, in fp32")]
                ev = pctx.fact_evidence(precision, f"{mode} mixed precision")
                if ev is not None:
                    evidence.append(ev)
                yield pctx.code_finding(
                    self, script, move,
                    f"`{name}` is frozen, not passed to `accelerator.prepare` and moved to the device without a "
                    f"dtype: under {mode} mixed precision its forward runs in fp32 outside Accelerate's autocast, "
                    f"so the bulk of the compute gets no speed-up and its weights take twice the memory. Cast it: "
                    f"`{name}.to(accelerator.device, dtype=weight_dtype)` (or run it under `accelerator.autocast()`)",
                    evidence=evidence)
