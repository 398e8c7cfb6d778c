"""PF449 forward-through-wrapped-module: ``model.module(x)`` in a training loop after DDP/``accelerator.prepare``
wrapped ``model``: the forward bypasses DistributedDataParallel."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

_WRAPPERS = ("DistributedDataParallel", "DDP")
_NO_GRAD = ("no_grad", "inference_mode")


def _wrapped_by(fn: ast.AST, name: str) -> Optional[ast.Call]:
    """The call that rebinds ``name`` to a DDP wrapper in ``fn``: ``name = DDP(...)`` or
    ``..., name, ... = accelerator.prepare(...)`` (also ``name = accelerator.prepare(name)``)."""
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call)):
            continue
        target, call = node.targets[0], node.value
        names = [target] if isinstance(target, ast.Name) else list(target.elts) if isinstance(
            target, (ast.Tuple, ast.List)) else []
        if not any(isinstance(t, ast.Name) and t.id == name for t in names):
            continue
        last = call_last(call)
        if last in _WRAPPERS and isinstance(target, ast.Name):
            return call
        if last == "prepare" and isinstance(call.func, ast.Attribute) and (
                "accelerator" in ast.unparse(call.func.value).lower()):
            return call
    return None


def _backward_in(loop: ast.AST) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "backward"
               for n in ast.walk(loop))


def _reduces_by_hand(loop: ast.AST) -> bool:
    """The loop all-reduces gradients itself (``dist.all_reduce(p.grad)``)."""
    return any(isinstance(n, ast.Call) and call_last(n) in ("all_reduce", "reduce_scatter", "all_reduce_coalesced")
               for n in ast.walk(loop))


@register
class ForwardThroughWrappedModule(Rule):
    code = "PF449"
    needs_text = (".module(",)
    name = "forward-through-wrapped-module"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("pytorch", "accelerate")
    summary = ("`model.module(x)` in a training loop calls the network under its DistributedDataParallel "
               "wrapper: the gradients are not averaged across processes")
    explanation = """
## What it finds

In one function, a model rebound to its DistributedDataParallel wrapper
(`model = DDP(model, ...)`, or passed through `accelerator.prepare(...)`) whose forward
is then called as `model.module(inputs)` inside a loop that calls `backward`.

## Why it matters

DDP averages gradients only for a backward that follows a forward through the wrapper:
`DistributedDataParallel.forward` prepares the reducer that all-reduces the gradients
during the backward. `model.module(x)` runs the bare network, so the reducer is not armed:
every process steps on its own gradient, the replicas drift apart, and the run behaves
like N independent trainings on 1/N of the data each, without an error (accelerate
issue 3285, where the maintainers show the reducer calls that would be needed). Some
releases raise "Expected to have finished reduction in the prior iteration" on the next
forward through the wrapper instead.

## How to fix it

Call the wrapper: `outputs = model(x)`. To reach a custom method, route it through
`forward` (or unwrap only outside the training step, under `torch.no_grad()`).

## When preflight stays silent

* The call is under `torch.no_grad()`/`torch.inference_mode()` (evaluation, EMA,
  generation), or the loop calls no `backward`.
* The name was not rebound to the wrapper in the function (a model unwrapped with
  `accelerator.unwrap_model` or a plain module with a `module` attribute).
* `model.module.encoder(x)` and other attribute chains: only a direct `model.module(...)`.
* The loop all-reduces gradients itself (`dist.all_reduce`), or the function is a pytest
  test (`def test_...`; nanotron's tests compare the wrapper with the bare module).
"""
    bad_examples = examples("preflight.rules.code._pf449_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf449_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call in ctx.nodes(ast.Call):
            func = call.func
            if not (isinstance(func, ast.Attribute) and func.attr == "module" and isinstance(func.value, ast.Name)):
                continue
            loop: Optional[ast.AST] = None
            outer: Optional[ast.AST] = None
            no_grad = False
            cur = ctx.parent(call)
            while cur is not None and not isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                if isinstance(cur, (ast.For, ast.While, ast.AsyncFor)):
                    loop = loop or cur
                    outer = cur
                if isinstance(cur, (ast.With, ast.AsyncWith)) and any(
                        isinstance(i.context_expr, ast.Call) and call_last(i.context_expr) in _NO_GRAD
                        for i in cur.items):
                    no_grad = True
                cur = ctx.parent(cur)
            if loop is None or outer is None or no_grad or not _backward_in(loop) or _reduces_by_hand(outer):
                continue
            fn = ctx.enclosing_function(call) or ctx.tree
            if getattr(fn, "name", "").lstrip("_").startswith("test_"):
                continue  # a pytest test comparing the wrapper with the bare module
            wrap = _wrapped_by(fn, func.value.id)
            if wrap is None:
                continue
            name = func.value.id
            yield ctx.finding(
                self, call,
                f"`{ast.unparse(call.func)}(...)` runs the network underneath the DistributedDataParallel wrapper "
                f"that `{ast.unparse(wrap.func)}` put on `{name}`: the backward of this forward is not registered "
                "with DDP's reducer, so gradients are not averaged across processes and each replica steps on "
                f"its own. Call the wrapper: `{name}(...)`",
                evidence=[ctx.evidence(wrap, f"`{name}` is wrapped here")])
