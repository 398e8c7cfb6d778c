"""PF581's diffusers shape: LoRA adapters added to a module that is then cast to ``weight_dtype``,
float16 exactly when the launch asks for fp16 mixed precision.

``unet.add_adapter(LoraConfig(...))`` then ``unet.to(accelerator.device, dtype=weight_dtype)`` with
``weight_dtype = torch.float16`` under ``if accelerator.mixed_precision == "fp16":``: the cast
converts the adapters too, so the only trained parameters are float16 (img2img-turbo issue 18,
"Attempting to unscale FP16 gradients"); likewise a module marked trainable with
``requires_grad_(True)`` and then cast (DreamPose issue 70). Read from the syntax tree alone; the plan says whether
the job runs fp16 mixed precision."""

from __future__ import annotations

import ast
from typing import Iterator, Optional

from preflight.rules._pf414_support import is_fp16_dtype


def _is_fp16_precision_test(test: ast.AST) -> bool:
    """``accelerator.mixed_precision == "fp16"`` (either side)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = (test.left, test.comparators[0])
    return any(isinstance(a, ast.Attribute) and a.attr == "mixed_precision" for a in sides) and any(
        isinstance(c, ast.Constant) and c.value == "fp16" for c in sides)


def _own_nodes(scope: ast.AST) -> list[ast.AST]:
    """The nodes of ``scope`` outside the functions and classes nested in it."""
    out: list[ast.AST] = []
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        out.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return out


def _fp16_names(scope: ast.AST) -> set[str]:
    """Names bound to float16 only when the run is fp16 mixed precision: ``weight_dtype =
    torch.float16`` in the body of ``if accelerator.mixed_precision == "fp16":``, or ``torch.float16
    if accelerator.mixed_precision == "fp16" else torch.float32``."""
    out: set[str] = set()
    for node in _own_nodes(scope):
        if isinstance(node, ast.If) and _is_fp16_precision_test(node.test):
            for stmt in node.body:
                if isinstance(stmt, ast.Assign) and is_fp16_dtype(stmt.value):
                    out.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.IfExp) \
                and is_fp16_dtype(node.value.body) and _is_fp16_precision_test(node.value.test):
            out.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return out


def _dtype_arg(call: ast.Call) -> Optional[ast.AST]:
    for kw in call.keywords:
        if kw.arg == "dtype":
            return kw.value
    return next((a for a in call.args if isinstance(a, ast.Name)), None)


def _upcast(call: ast.Call, module: str, data_assigned: set[int]) -> bool:
    """Trainable weights made float32 again: ``cast_training_params(...)``, or ``.float()`` /
    ``.to(torch.float32)`` on the module itself, on parameters (``param.float()``) or stored into a
    parameter's ``.data`` (``p.data = p.data.float()``); a float32 loss (``pred.float()``) is none."""
    text = ast.unparse(call.func)
    if text.endswith("cast_training_params"):
        return True
    float_call = (text.endswith(".float") and not call.args) or (text.endswith(".to") and any(
        "float32" in ast.unparse(a) for a in [*call.args, *(k.value for k in call.keywords)]))
    if not float_call:
        return False
    receiver = ast.unparse(call.func.value)  # type: ignore[attr-defined]
    return receiver == module or "param" in receiver.lower() or id(call) in data_assigned


def _unfreezes(call: ast.Call) -> bool:
    """``m.requires_grad_(True)`` (or ``m.requires_grad_()``) on a module: its parameters are trained."""
    if not (isinstance(call.func, ast.Attribute) and call.func.attr == "requires_grad_"):
        return False
    flag = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "requires_grad"), None)
    return flag is None or (isinstance(flag, ast.Constant) and flag.value is True)


def adapter_casts(tree: ast.AST) -> Iterator[tuple[ast.Call, ast.Call]]:
    """(cast, adapter call): ``m.to(..., dtype=weight_dtype)`` after ``m.add_adapter(...)`` or after
    ``m.requires_grad_(True)`` / ``m.sub.requires_grad_(True)`` (the module, or a part of it, is trained:
    DreamPose issue 70's VAE decoder) in the same function (or at the top level), ``weight_dtype`` float16 under fp16 mixed precision, and no upcast
    of trainable parameters after the cast."""
    scopes = [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))]
    for scope in scopes:
        nodes = _own_nodes(scope)
        calls = sorted((n for n in nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)),
                       key=lambda c: (c.lineno, c.col_offset))
        adapters = {ast.unparse(c.func.value): c for c in calls  # type: ignore[attr-defined]
                    if c.func.attr == "add_adapter"}  # type: ignore[attr-defined]
        for c in calls:
            if _unfreezes(c):
                # ``vae.decoder.requires_grad_(True)``: the module and the one it belongs to (``vae``)
                receiver = ast.unparse(c.func.value)  # type: ignore[attr-defined]
                adapters.setdefault(receiver, c)
                adapters.setdefault(receiver.split(".", 1)[0], c)
        if not adapters:
            continue
        names = _fp16_names(scope)
        if not names:
            continue
        for cast in calls:
            if cast.func.attr != "to":  # type: ignore[attr-defined]
                continue
            adapter = adapters.get(ast.unparse(cast.func.value))  # type: ignore[attr-defined]
            dtype = _dtype_arg(cast)
            if adapter is None or adapter.lineno >= cast.lineno or not (
                    isinstance(dtype, ast.Name) and dtype.id in names):
                continue
            module = ast.unparse(cast.func.value)  # type: ignore[attr-defined]
            data_assigned = {id(n.value) for n in nodes if isinstance(n, ast.Assign) and any(
                isinstance(t, ast.Attribute) and t.attr == "data" for t in n.targets)}
            if any(_upcast(c, module, data_assigned) for c in nodes
                   if isinstance(c, ast.Call) and c.lineno > cast.lineno):  # by name too: cast_training_params
                continue
            yield cast, adapter
