"""PF102 retain-graph-in-loop: backward(retain_graph=True) with no later use of the graph."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.optimizers import GradEvent, GradSteps, grad_steps
from preflight.analysis.scopes import LoopInfo
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_DIFFERENTIATES = frozenset({"backward", "grad", "helper-backward"})


def _retain_true(call: ast.Call) -> Optional[ast.keyword]:
    for k in call.keywords:
        if k.arg == "retain_graph":
            return k if isinstance(k.value, ast.Constant) and k.value.value is True else None
    return None


@register
class RetainGraphInLoop(Rule):
    code = "PF102"
    name = "retain-graph-in-loop"
    severity = Severity.WARNING
    category = Category.MEMORY
    summary = "backward(retain_graph=True) in a loop where no second backward needs the graph"
    frameworks = ("pytorch", "accelerate", "fabric", "lightning")
    explanation = """
## What it finds

`loss.backward(retain_graph=True)` (or `accelerator.backward(loss, retain_graph=True)`)
inside a loop, where nothing else in the loop differentiates again: no second
`backward()`, no `torch.autograd.grad(...)`, no helper that does either.

## Why it matters

`retain_graph=True` keeps every saved activation of the graph alive after the
backward. It is needed only when the same graph is differentiated again. Without a
second use the activations stay in memory until the loss is rebound in the next
iteration, so the next forward runs with the previous step's activations still held:
peak memory roughly doubles. It is also the usual way to silence *"Trying to backward
through the graph a second time"* when a hidden state is carried across iterations
without `.detach()`; then every iteration keeps and re-traverses all earlier graphs,
and memory and step time grow until the job dies.

## How to fix it

Drop `retain_graph=True`. If PyTorch then complains about backward through the graph
a second time, detach the state carried between iterations (`hidden =
hidden.detach()`) instead of retaining the graph.

## When preflight stays silent

* Another `backward()`, `torch.autograd.grad(...)` or a local helper that runs one
  comes after it in the same loop (multi-loss training, gradient penalties, GAN
  steps). One that comes before does not count: when every backward retains, the
  last one keeps the graph for nothing.
* The graph is built before the loop, so the next iteration differentiates it again.
* `retain_graph` is not the literal `True` (`retain_graph=not last`,
  `retain_graph=i < n - 1`).
* The backward is not in a loop.
* The loss is handed to a function preflight cannot see after the backward.
"""
    bad_examples = examples("preflight.rules.code._pf102_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf102_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        steps = grad_steps(ctx)
        for event in steps.events:
            if event.kind != "backward" or event.loop is None:
                continue
            call = event.node
            if not isinstance(call, ast.Call):
                continue
            keyword = _retain_true(call)
            if keyword is None:
                continue
            loop = event.loop
            if self._used_again(steps, event, loop):
                continue
            yield self._report(ctx, event, keyword, loop)

    def _used_again(self, steps: GradSteps, event: GradEvent, loop: LoopInfo) -> bool:
        scope: Optional[LoopInfo] = loop
        # a second differentiation after this one in the enclosing loops of this function: an
        # earlier one does not need the graph this backward keeps (both retaining, the last
        # one keeps the graph for nothing)
        while scope is not None:
            for e in steps.in_loop(scope):
                if e is not event and e.kind in _DIFFERENTIATES and e.pos > event.pos:
                    return True
            scope = scope.parent
        value = event.value
        root = value
        while isinstance(root, (ast.Attribute, ast.Subscript, ast.Call)):
            root = root.value if not isinstance(root, ast.Call) else root.func
        if isinstance(value, ast.Name) and not _bound_in(loop, value.id):
            return True  # a graph built before the loop: the next iteration differentiates it again
        if isinstance(root, ast.Name):
            for e in steps.in_loop(loop):
                if e.kind == "opaque" and e.pos > event.pos:
                    return True
            fn = event.function
            for call, caller in steps.scopes.bindings.call_functions:
                if caller is not fn or not call.lineno > getattr(event.node, "lineno", 0):
                    continue
                if steps.scopes.loop_of(call) is None or not _inside(steps, call, loop):
                    continue
                qual = steps.scopes.imports.qualify(call.func) or ""
                if qual.startswith("torch."):
                    continue
                for arg in [*call.args, *(k.value for k in call.keywords)]:
                    if isinstance(arg, ast.Name) and arg.id == root.id:
                        return True
        return False

    def _report(self, ctx: FileContext, event: GradEvent, keyword: ast.keyword,
                loop: LoopInfo) -> Finding:
        call = event.node
        text = ast.unparse(call)
        message = (
            f"`{text}` keeps the whole autograd graph alive, but nothing in this loop "
            f"differentiates it again: the saved activations survive into the next iteration's "
            f"forward (up to twice the activation memory at peak), and if state is carried "
            f"across iterations every step keeps all earlier graphs. Drop `retain_graph=True`; "
            f"if PyTorch then reports a backward through the graph a second time, `.detach()` "
            f"the state carried between iterations")
        evidence = [
            ctx.evidence(loop.node, "the loop runs this backward once per iteration"),
            ctx.evidence(keyword.value, "retain_graph=True keeps the saved activations"),
            ctx.evidence(call, "the only differentiation of this graph in the loop"),
        ]
        return ctx.finding(self, call, message, evidence=evidence)


def _bound_in(loop: LoopInfo, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
               for n in ast.walk(loop.node))


def _inside(steps: GradSteps, node: ast.AST, loop: LoopInfo) -> bool:
    cur = steps.scopes.loop_of(node)
    while cur is not None:
        if cur is loop:
            return True
        cur = cur.parent
    return False
