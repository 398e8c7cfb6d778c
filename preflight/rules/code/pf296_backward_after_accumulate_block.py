"""PF296 backward-after-accumulate-block: ``with accelerator.accumulate(model):`` wraps only the forward
pass, and the backward (or the optimizer step) runs after the block, directly or in a helper."""

from __future__ import annotations

import ast
from typing import Iterable, Optional, Union

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_Func = Union[ast.FunctionDef, ast.AsyncFunctionDef]


def _is_accumulate(item: ast.withitem) -> bool:
    expr = item.context_expr
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and \
        expr.func.attr == "accumulate" and "accelerator" in ast.unparse(expr.func.value).lower()


def _accumulate_with(node: ast.AST) -> bool:
    return isinstance(node, (ast.With, ast.AsyncWith)) and any(_is_accumulate(i) for i in node.items)


def _direct_backward(call: ast.Call) -> bool:
    """``accelerator.backward(loss)`` or ``loss.backward()``."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "backward"):
        return False
    return (bool(call.args) and "accelerator" in ast.unparse(func.value).lower()) or not call.args


def _calls(root: ast.AST) -> Iterable[ast.Call]:
    """The calls under ``root``, not entering nested function definitions or other accumulate blocks."""
    stack = [root]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)) or \
                    _accumulate_with(child):
                continue
            if isinstance(child, ast.Call):
                yield child
            stack.append(child)


class _Helpers:
    """File-local functions (module level) and methods of the enclosing class, by name."""

    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        tree = ctx.tree
        self.functions: dict[str, _Func] = {
            n.name: n for n in getattr(tree, "body", []) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}

    def target(self, call: ast.Call) -> Optional[_Func]:
        func = call.func
        if isinstance(func, ast.Name):
            return self.functions.get(func.id)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
            cls = self.ctx.enclosing(call, ast.ClassDef)
            if cls is not None:
                for n in cls.body:
                    if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == func.attr:
                        return n
        return None

    def backward_in(self, root: ast.AST, depth: int = 0,
                    seen: Optional[set[int]] = None) -> Optional[tuple[ast.Call, Optional[ast.Call]]]:
        """The first backward reached from ``root``: (the backward call, the helper call that leads to it)."""
        seen = seen if seen is not None else set()
        for call in _calls(root):
            if _direct_backward(call):
                return call, None
            helper = self.target(call)
            if helper is None or depth >= 2 or id(helper) in seen:
                continue
            seen.add(id(helper))
            found = self.backward_in(helper, depth + 1, seen)
            if found is not None:
                return found[0], call
        return None


def _following(ctx: FileContext, node: ast.stmt) -> list[ast.stmt]:
    """The statements after ``node`` in the statement list that holds it."""
    parent = ctx.parent(node)
    if parent is None:
        return []
    for field in ("body", "orelse", "finalbody"):
        block = getattr(parent, field, None)
        if isinstance(block, list) and node in block:
            return block[block.index(node) + 1:]
    return []


@register
class BackwardAfterAccumulateBlock(Rule):
    code = "PF296"
    name = "backward-after-accumulate-block"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    needs_text = ("accumulate",)
    summary = ("`with accelerator.accumulate(model):` wraps only the forward pass; the backward and the optimizer "
               "step run after the block")
    explanation = """
## What it finds

A `with accelerator.accumulate(model):` block whose body runs the forward pass but no
backward, followed in the same statement list (the batch loop's body) by the backward:
`accelerator.backward(loss)` / `loss.backward()` written after the block, or inside a
function of the file (or a method of the same class) that is called after the block.

## Why it matters

`accumulate` is meant to hold the whole micro-step: it decides whether this batch
synchronises gradients (`sync_gradients`) and enters the model's `no_sync` context on the
accumulating batches. A backward run after the block is outside that context: wrappers that
decide at backward time whether to reduce (FSDP's post-backward hooks) synchronise on
every micro-batch, and a step written after the block relies on the `sync_gradients`
state the block left behind. The Accelerate examples and docs put the
backward, `optimizer.step()` and `zero_grad()` inside the block (trl issue 321: only the
forward of the PPO step ran inside `accumulate`, `train_minibatch` back-propagated and
stepped after it; the maintainer: "That seems to be indeed a bug").

## How to fix it

Put the forward, `accelerator.backward(loss)`, `optimizer.step()` and `optimizer.zero_grad()`
inside the `with accelerator.accumulate(model):` block (call the helper from inside it).

## When preflight stays silent

* The block's body already back-propagates (directly or through a helper of the file).
* The backward after the block sits in another `accumulate` block, or in a function that is
  not defined in the file (the analysis cannot see what it does).
"""
    bad_examples = examples("preflight.rules.code._pf296_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf296_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        helpers: Optional[_Helpers] = None
        reported: set[int] = set()
        for block in ctx.nodes(ast.With, ast.AsyncWith):
            if not _accumulate_with(block):
                continue
            helpers = helpers or _Helpers(ctx)
            if not any(True for _ in _calls(ast.Module(body=block.body, type_ignores=[]))):
                continue  # nothing runs in the block
            if helpers.backward_in(ast.Module(body=block.body, type_ignores=[])) is not None:
                continue
            for stmt in _following(ctx, block):
                if _accumulate_with(stmt):
                    break
                found = helpers.backward_in(stmt)
                if found is None:
                    continue
                backward, via = found
                if id(backward) in reported:
                    break
                reported.add(id(backward))
                evidence = [ctx.evidence(block, "this accumulate block holds only the forward pass")]
                if via is not None:
                    evidence.append(ctx.evidence(via, "the helper that back-propagates is called after the block"))
                yield ctx.finding(
                    self, backward,
                    f"`{ast.unparse(backward)}` runs after `with accelerator.accumulate(...)`, which only holds the "
                    "forward pass: the backward is outside the block's no-sync handling (FSDP then synchronises "
                    "gradients on every micro-batch) and the step relies on the state the block left "
                    "behind. Move the backward, `optimizer.step()` and `zero_grad()` into the "
                    "accumulate block",
                    evidence=evidence)
                break
