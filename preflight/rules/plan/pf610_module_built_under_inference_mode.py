"""PF610 module-built-under-inference-mode: a model factory decorated with ``@torch.inference_mode()``
whose returned model the job then trains."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._inference_mode import inference_decorator
from preflight.rules.plan._job_files import job_files


def _constructor(expr: ast.AST) -> bool:
    """``Depther(...)``, ``AutoModel.from_pretrained(...)``, possibly followed by ``.cuda()``,
    ``.to(...)``, ``.eval()``, ``.float()``, ``.half()``."""
    while isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) \
            and expr.func.attr in ("cuda", "to", "eval", "float", "half", "bfloat16", "requires_grad_"):
        expr = expr.func.value
    if not isinstance(expr, ast.Call):
        return False
    func = expr.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name == "from_pretrained" or (name[:1].isupper() and not name.isupper())


def _builds_module(fn: ast.FunctionDef) -> bool:
    """The function returns a model it builds: a constructor call (``Depther(...).cuda()``), or a
    name bound to one in the function (``model = Depther(...)`` then ``return model.cuda()``)."""
    built = {t.id for n in ast.walk(fn) if isinstance(n, ast.Assign) and _constructor(n.value)
             for t in n.targets if isinstance(t, ast.Name)}
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Return) and node.value is not None):
            continue
        value = node.value
        if _constructor(value):
            return True
        while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                and value.func.attr in ("cuda", "to", "eval", "float", "half", "bfloat16"):
            value = value.func.value
        if isinstance(value, ast.Name) and value.id in built:
            return True
    return False


def _trained_callers(tree: ast.AST, factory: str) -> Optional[ast.Call]:
    """A call of ``factory`` whose result a function of ``tree`` trains: bound to a name whose
    parameters (``m.parameters()``, ``m.head.parameters()``) reach the function's code, in a function
    that also runs ``.backward(`` or ``m.train()``."""
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
            continue
        body = fn.body
        for stmt in body:
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                    and isinstance(stmt.value, ast.Call)):
                continue
            call = stmt.value
            callee = call.func.attr if isinstance(call.func, ast.Attribute) else \
                call.func.id if isinstance(call.func, ast.Name) else ""
            if callee != factory:
                continue
            name = stmt.targets[0].id
            params = backward = False
            for node in ast.walk(fn):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                    owner = ast.unparse(node.func.value)
                    if node.func.attr == "parameters" and (owner == name or owner.startswith(name + ".")):
                        params = True
                    if node.func.attr == "backward" or (node.func.attr == "train" and owner == name
                                                        and not node.args):
                        backward = True
            if params and backward:
                return call
    return None


@register
class ModuleBuiltUnderInferenceMode(PlanRule):
    code = "PF610"
    name = "module-built-under-inference-mode"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = ("A model factory runs under `@torch.inference_mode()` and the job trains the model it returns: "
               "its parameters are inference tensors")
    explanation = """
## What it finds

A function decorated with `@torch.inference_mode()` that builds a model (constructs
modules, loads pretrained weights, moves it with `.cuda()`) and returns it, when a
function of the job (the script or a project module it imports) binds its result
and trains it: the model's `.parameters()` go to an optimizer there and that
function runs `.backward()` or `model.train()` (DINOv2 issue 225: `create_depther`
decorated with `@torch.inference_mode()`, then fine-tuned).

## Why it matters

Every tensor created inside inference mode is an *inference tensor*, and
`Module._apply` (`.cuda()`, `.to()`) replaces each parameter's data inside the
mode, so the returned model's parameters are inference tensors even when the
modules were built elsewhere. PyTorch refuses them in autograd outside the mode:
the first training forward stops with `RuntimeError: Inference tensors cannot be
saved for backward`, and an in-place optimizer update fails with "Inplace update
to inference tensor outside InferenceMode is not allowed" (PyTorch docs, "Inference
Mode": "tensors created in inference mode ... cannot be used in autograd ... after
exiting inference mode"; `torch/autograd/grad_mode.py` `inference_mode`).

## How to fix it

Build the model without inference mode; use `@torch.no_grad()` when only the weight
copies should be untracked (no_grad tensors are ordinary tensors), and keep
`inference_mode` for evaluation functions.

## When preflight stays silent

* The decorator is `torch.no_grad()` or `inference_mode(False)` / `mode=...`.
* The function returns nothing, or builds no module (an evaluation step).
* No function of the job trains what it returns (an inference-only loader: its model's
  parameters never reach an optimizer next to a `.backward()` or `.train()`).
"""
    bad_examples = examples("preflight.rules.plan._pf610_examples", "PF610_BAD")
    good_examples = examples("preflight.rules.plan._pf610_examples", "PF610_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        files = job_files(pctx)
        if not any("inference_mode" in ast.unparse(dec) for _, tree in files for fn in ast.walk(tree)
                   for dec in getattr(fn, "decorator_list", ())):
            return
        for display, tree in files:
            for fn in ast.walk(tree):
                if not isinstance(fn, ast.FunctionDef):
                    continue
                dec = inference_decorator(fn)
                if dec is None or not _builds_module(fn):
                    continue
                for other, other_tree in files:
                    call = _trained_callers(other_tree, fn.name)
                    if call is None:
                        continue
                    yield pctx.location_finding(
                        self, display, dec.lineno,
                        f"`{fn.name}` runs under `@torch.inference_mode()` and builds the model it returns, which "
                        f"{other}:{call.lineno} trains: tensors created (or moved with `.cuda()`/`.to()`) in "
                        "inference mode are inference tensors, so the training forward fails with \"RuntimeError: "
                        "Inference tensors cannot be saved for backward\". Build the model outside inference mode "
                        "(`@torch.no_grad()` if the weight copies only need to be untracked)")
                    break
