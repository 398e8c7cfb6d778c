"""PF105 fp16-without-grad-scaler: fp16 autocast training with no GradScaler."""

from __future__ import annotations

import ast
import functools
from typing import Callable, Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.optimizers import GradEvent, GradSteps, grad_steps
from preflight.analysis.scopes import ScopeIndex
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import accelerator_names, accelerators, is_accelerator_receiver
from preflight.rules.base import Rule, examples
from preflight.rules.code._pf105_device import CudaDevice

# autocast entry points whose device is CUDA by construction
_CUDA_AUTOCAST = frozenset({"torch.cuda.amp.autocast", "torch.cuda.amp.autocast_mode.autocast"})
# autocast entry points taking a device_type first
_DEVICE_AUTOCAST = frozenset({"torch.autocast", "torch.amp.autocast",
                              "torch.amp.autocast_mode.autocast"})
_FP16 = frozenset({"torch.float16", "torch.half"})


def _kw(call: ast.Call, name: str, index: Optional[int]) -> Optional[ast.expr]:
    for k in call.keywords:
        if k.arg == name:
            return k.value
    if index is not None and len(call.args) > index and not any(
            isinstance(a, ast.Starred) for a in call.args[:index + 1]):
        return call.args[index]
    return None


def fp16_autocast(scopes: ScopeIndex, call: ast.Call,
                  cuda: Optional[Callable[[ast.expr], bool]] = None) -> Optional[str]:
    """How ``call`` is an fp16 CUDA autocast ("default" or "explicit"), else None.

    ``cuda`` decides a ``device_type`` that is not the literal ``"cuda"`` (``str(device)``,
    ``device.type``: see :mod:`preflight.rules.code._pf105_device`)."""
    qual = scopes.imports.qualify(call.func)
    if qual in _CUDA_AUTOCAST:
        dtype = _kw(call, "dtype", 1)  # torch.cuda.amp.autocast(enabled, dtype, ...)
        enabled = _kw(call, "enabled", 0)
    elif qual in _DEVICE_AUTOCAST:
        device = _kw(call, "device_type", 0)
        literal = isinstance(device, ast.Constant) and device.value == "cuda"
        if device is None or not (literal or (cuda is not None and cuda(device))):
            return None
        dtype = _kw(call, "dtype", 1)
        enabled = _kw(call, "enabled", 2)
    else:
        return None
    if isinstance(enabled, ast.Constant) and not enabled.value:
        return None
    if any(k.arg is None for k in call.keywords):
        return None  # **kwargs: the dtype may be in there
    if dtype is None:
        return "default"
    if scopes.imports.qualify(dtype) in _FP16:
        return "explicit"
    return None


def _raw_backward(event: GradEvent) -> bool:
    """``loss.backward()``: no framework backward that could apply loss scaling."""
    call = event.node
    if event.kind != "backward" or event.scaler is not None or not isinstance(call, ast.Call):
        return False
    func = call.func
    return isinstance(func, ast.Attribute) and func.attr == "backward" and not call.args


# Accelerator arguments through which a loss scaler can still come (a DeepSpeed/FSDP/Megatron plugin's own
# fp16 settings), besides ``mixed_precision`` itself
_PLUGIN_ARGS = frozenset({"mixed_precision", "deepspeed_plugin", "fsdp_plugin", "megatron_lm_plugin"})


def _unscaled_accelerator_backward(ctx: FileContext, event: GradEvent) -> bool:
    """``accelerator.backward(loss)`` where every ``Accelerator(...)`` of the file is built without mixed
    precision (no ``mixed_precision``, or the literal ``"no"``; no plugin, positional or ``**`` argument):
    Accelerate creates its GradScaler only for fp16 mixed precision, so its backward is a plain one."""
    call = event.node
    if event.kind != "backward" or not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute) \
            or call.func.attr != "backward" or not is_accelerator_receiver(call.func.value, accelerator_names(ctx)):
        return False
    built = accelerators(ctx)
    if not built:
        return False
    for ctor in built:
        if ctor.args or any(k.arg is None for k in ctor.keywords):
            return False
        for k in ctor.keywords:
            if k.arg in _PLUGIN_ARGS and not (k.arg == "mixed_precision" and isinstance(k.value, ast.Constant)
                                              and k.value.value == "no"):
                return False
    return True


def _other_branch(ctx: FileContext, autocast: ast.AST, backward: ast.AST) -> bool:
    """The two sit in the two branches of one ``if`` (``if use_amp: with autocast(): ... else: ...``
    and, lower, ``if use_amp: loss_scaler(loss, optimizer) else: loss.backward()``): the plain
    backward runs only without autocast when each pair of branches tests the same thing."""
    def branches(node: ast.AST) -> dict[str, str]:
        out: dict[str, str] = {}
        child = node
        for anc in ctx.ancestors(node):
            if isinstance(anc, ast.If):
                side = "body" if child in anc.body else "orelse" if child in anc.orelse else ""
                if side:
                    out.setdefault(ast.unparse(anc.test), side)
            if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                break
            child = anc
        return out
    mine, theirs = branches(autocast), branches(backward)
    return any(test in theirs and theirs[test] != side for test, side in mine.items())


def _scaled(steps: GradSteps) -> bool:
    if steps.scaler_mentions or steps.scalers:
        return True
    return any(e.kind == "backward" and e.scaler is not None for e in steps.events)


@register
class Fp16WithoutGradScaler(Rule):
    code = "PF105"
    name = "fp16-without-grad-scaler"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = "Training under fp16 autocast without a GradScaler"
    frameworks = ("pytorch",)
    explanation = """
## What it finds

A training step runs its forward under CUDA autocast in float16 (a literal `"cuda"`, or
`str(device)`/`device.type` of a device the file builds as `torch.device("cuda")`), calls
`loss.backward()` directly (or `accelerator.backward(loss)` of an Accelerator without mixed
precision) and steps an optimizer, and the file never creates a `GradScaler`. On CUDA,
`torch.autocast("cuda")` and `torch.cuda.amp.autocast()` default to float16.

## Why it matters

float16 cannot represent magnitudes below about 6e-8 (and loses precision below
6e-5). Many gradients are that small: without loss scaling they flush to zero in
the backward, and the affected layers silently stop learning or train worse. The
PyTorch AMP recipe pairs fp16 autocast with `torch.amp.GradScaler`.

## How to fix it

Either scale the loss:

```python
scaler = torch.amp.GradScaler("cuda")
scaler.scale(loss).backward()
scaler.step(optimizer)
scaler.update()
```

or autocast to bfloat16 (`torch.autocast("cuda", dtype=torch.bfloat16)`), which has
float32's range and needs no scaler (Ampere GPUs and newer).

## When preflight stays silent

* The plain `loss.backward()` runs only where the autocast does not: the two sit in
  opposite branches of `if` statements on the same test (`if use_amp: ... else:
  loss.backward()`, the AMP branch scaling through a helper such as timm's `NativeScaler`).
* The autocast dtype is bfloat16, a variable or an expression; `enabled=False`.
* The device type is not known to be CUDA: a literal `"cuda"` counts, and so do
  `str(device)`, `device.type` and a name when every assignment the value can come
  from in the file is `torch.device("cuda")` / `"cuda"` (or `"cuda" if
  torch.cuda.is_available() else "cpu"`: the job is meant for a GPU, where the default is
  float16). A device from the command line, a parameter with no call site, or one that
  can be `"mps"` stays silent (`str(torch.device("cuda:0"))` is `"cuda:0"`, which
  autocast refuses loudly: not this rule).
* The file creates or mentions a `GradScaler` / `ShardedGradScaler`, or scales a loss
  with `scaler.scale(loss).backward()`.
* The backward is a framework's: `fabric.backward(loss)`, a DeepSpeed engine's
  `backward`, Lightning's `manual_backward` or automatic optimization: these apply the
  configured loss scaling themselves. `accelerator.backward(loss)` counts as a plain
  backward when every `Accelerator(...)` of the file is built without mixed precision
  (no `mixed_precision` argument, or `"no"`, and no DeepSpeed/FSDP/Megatron plugin):
  Accelerate creates its GradScaler only for fp16 mixed precision (accelerate issue 68,
  a hand-written fp16 autocast under an Accelerator without mixed precision). A hand-written
  fp16 autocast says the job did not ask Accelerate for fp16; were it asked on the launch
  line or in an accelerate config, `accelerator.autocast()` would be the idiom.
* The autocast region is not part of a training step: inference, evaluation under
  `no_grad`, or a one-off backward with no optimizer step next to it (a test of
  autocast itself).
"""
    bad_examples = examples("preflight.rules.code._pf105_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf105_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        steps = grad_steps(ctx)
        scopes = steps.scopes
        if _scaled(steps):
            return
        cuda = CudaDevice(ctx, scopes)
        for item in ctx.nodes(ast.withitem):
            call = item.context_expr
            if not isinstance(call, ast.Call):
                continue
            how = fp16_autocast(scopes, call, functools.partial(cuda.is_cuda, at=call))
            if how is None or not scopes.grad_enabled(call):
                continue
            fn = scopes.function_of(call)
            backward = self._backward(steps, fn, call, ctx)
            if backward is None:
                continue
            yield self._report(ctx, call, how, backward)

    def _backward(self, steps: GradSteps, fn, call: ast.Call, ctx: FileContext) -> Optional[GradEvent]:
        events = steps.of(fn)
        plain = [e for e in events if _raw_backward(e) or _unscaled_accelerator_backward(ctx, e)]
        if any(e.kind == "backward" and e not in plain for e in events):
            return None  # a framework backward in the same function
        loop = steps.scopes.loop_of(call)
        # a training step: an optimizer steps where the backward runs
        here = [e for e in events if loop is None or e.in_loop(loop)]
        if not any(e.kind == "step" for e in here):
            return None
        return next((e for e in here if e in plain and not _other_branch(ctx, call, e.node)), None)

    def _report(self, ctx: FileContext, call: ast.Call, how: str,
                backward: GradEvent) -> Finding:
        text = ast.unparse(call)
        why = ("autocast on CUDA defaults to float16" if how == "default"
               else "this autocast runs in float16")
        how_plain = "runs without a GradScaler" if _raw_backward(backward) else (
            "runs without a GradScaler (the Accelerator is built without mixed precision, so it creates none; "
            "give it `mixed_precision=\"fp16\"` and use `accelerator.autocast()`)")
        message = (
            f"`{text}`: {why}, and `{ast.unparse(backward.node)}` {how_plain}; "
            f"gradients below float16's range flush to zero and the affected layers silently "
            f"stop learning. Scale the loss with `torch.amp.GradScaler` (`scaler.scale(loss)"
            f".backward()`, `scaler.step(opt)`, `scaler.update()`) or autocast to "
            f"`torch.bfloat16`")
        evidence = [
            ctx.evidence(call, f"forward under fp16 autocast ({why})"),
            ctx.evidence(backward.node, "unscaled backward"),
        ]
        return ctx.finding(self, call, message, evidence=evidence)
