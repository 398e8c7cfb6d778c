"""PF1090 hidden-state-carried-across-backward: a recurrent state returned by the model is fed into the next
iteration's forward without being cut from the graph, and the loop calls ``backward()`` every iteration."""

from __future__ import annotations

import ast
from typing import Iterable, Optional, Union

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import ScopeIndex, scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_Loop = Union[ast.For, ast.While, ast.AsyncFor]
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
# calls that cut (or replace) a carried state in place
_CUTS = frozenset({"detach_", "zero_", "fill_", "copy_"})


def _walk_scope(nodes: Iterable[ast.AST]) -> Iterable[ast.AST]:
    """Every node under ``nodes`` without entering nested functions or classes."""
    stack = list(nodes)
    while stack:
        node = stack.pop()
        yield node
        stack.extend(c for c in ast.iter_child_nodes(node) if not isinstance(c, _SCOPES))


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _target_names(target: ast.expr) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for elt in target.elts for n in _target_names(elt)]
    return []


def _bound(node: ast.AST) -> list[str]:
    """The plain names a statement (re)binds."""
    if isinstance(node, ast.Assign):
        return [n for t in node.targets for n in _target_names(t)]
    if isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        return _target_names(node.target)
    if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
        return _target_names(node.target)
    if isinstance(node, ast.withitem) and node.optional_vars is not None:
        return _target_names(node.optional_vars)
    if isinstance(node, ast.NamedExpr):
        return _target_names(node.target)
    return []


def _backward_receiver(call: ast.Call) -> Optional[ast.expr]:
    """``loss`` of ``loss.backward()``, ``accelerator.backward(loss)``, ``scaler.scale(loss).backward()``."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "backward"):
        return None
    recv = func.value
    if call.args and not (isinstance(recv, ast.Name) and "loss" in recv.id.lower()):
        return call.args[0]  # accelerator.backward(loss), torch.autograd.backward(loss)
    if isinstance(recv, ast.Call) and isinstance(recv.func, ast.Attribute) and recv.func.attr == "scale" \
            and recv.args:
        return recv.args[0]
    return recv


def _forward_detaches(ctx: FileContext) -> bool:
    """A ``forward`` of the file cuts what it returns (``h.detach()``): the carried state has no graph."""
    for fn in ctx.nodes(ast.FunctionDef):
        if fn.name != "forward":
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Attribute) and node.attr in {"detach", "detach_", "data"}:
                return True
    return False


@register
class HiddenStateCarriedAcrossBackward(Rule):
    code = "PF1090"
    name = "hidden-state-carried-across-backward"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    needs_text = ("backward",)
    summary = ("A recurrent state returned by the model (`out, h = model(x, h)`) is fed into the next "
               "iteration's forward without `.detach()`, and the loop calls `backward()` every iteration")
    explanation = """
## What it finds

A training loop whose body calls the model with a state it got back from the previous call
(`prediction, h_state = rnn(x, h_state)`: the same name is an argument and a target of the
call), computes the loss from that call's output, and calls `loss.backward()` in the same
loop, while nothing in the loop cuts the state from the graph: no other assignment of it
(`h_state = h_state.detach()`, `h_state.data`, `repackage_hidden(h_state)`, a fresh
`init_hidden()`), no in-place `h_state.detach_()`, and the state was bound before the loop.

## Why it matters

The returned state is part of this step's autograd graph. On the next step the loss depends
on it again, so `loss.backward()` walks back into the previous step's graph, whose saved
tensors the previous backward already freed: the run dies on the second step with "Trying to
backward through the graph a second time". Adding `retain_graph=True` to silence it keeps
every step's graph alive: each backward gets slower and memory grows until the job runs out
(MorvanZhou/PyTorch-Tutorial issue 57, "question about h_state = h_state.data"; pytorch
forum "Trying to backward through the graph a second time" for LSTM language models;
quark0/darts issue 56).

## How to fix it

Cut the state after each step while keeping its values (truncated back-propagation through
time): `h_state = h_state.detach()` (for an LSTM, detach both tensors of the tuple, e.g. with
a `repackage_hidden` helper), or start every batch from a fresh `init_hidden()`.

## When preflight stays silent

* The loop rebinds the state anywhere else (`h = repackage_hidden(h)`, `h = h.detach()`,
  `h = model.init_hidden(bsz)`) or cuts it in place (`h.detach_()`).
* The call passes a cut state (`model(x, h.detach())`) or runs under `torch.no_grad()`.
* The model's `forward` in the same file returns a detached state.
* The loss is not computed from the call's output, or the backward is not in the same loop.
* The state is first bound inside the loop (a new sequence every iteration).
* The backward passes `retain_graph=...`: the run does not fail, and PF102 (retain-graph-in-loop)
  reports the graph kept across iterations.
"""
    bad_examples = examples("preflight.rules.code._pf1090_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf1090_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        loops = ctx.nodes(ast.For, ast.While, ast.AsyncFor)
        if not loops or _forward_detaches(ctx):
            return
        index = scope_index(ctx)
        seen: set[int] = set()
        for loop in loops:
            for hit in self._loop(ctx, loop, index):
                if id(hit[0]) in seen:
                    continue
                seen.add(id(hit[0]))
                assign, state, backward = hit
                yield ctx.finding(
                    self, assign,
                    f"`{state}` returned here is fed into the next iteration's forward without `.detach()`: "
                    f"the next `backward()` (line {backward.lineno}) reaches into this step's freed graph "
                    "(\"Trying to backward through the graph a second time\"). "
                    f"Cut it each step: `{state} = {state}.detach()`",
                    evidence=[ctx.evidence(backward, "the backward that walks into the previous step's graph")])

    def _loop(self, ctx: FileContext, loop: _Loop, index: ScopeIndex) -> Iterable[tuple[ast.Assign, str, ast.Call]]:
        body = list(_walk_scope(loop.body))
        # only the loop's own statements: an inner loop is checked on its own
        inner = {id(n) for sub in body if isinstance(sub, (ast.For, ast.While, ast.AsyncFor))
                 for n in _walk_scope(sub.body)}
        backwards = [c for c in body if isinstance(c, ast.Call) and id(c) not in inner
                     and _backward_receiver(c) is not None]
        if not backwards:
            return
        binds: dict[str, int] = {}
        for node in _walk_scope(loop.body):
            for name in _bound(node):
                binds[name] = binds.get(name, 0) + 1
        if isinstance(loop, (ast.For, ast.AsyncFor)):
            for name in _target_names(loop.target):
                binds[name] = binds.get(name, 0) + 1
        if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "detach_"
               for n in body):
            return  # a state cut in place (``hidden[0].detach_()``, ``for h in hidden: h.detach_()``)
        cut_in_place = {_root_name(n.func.value) for n in body if isinstance(n, ast.Call)
                        and isinstance(n.func, ast.Attribute) and n.func.attr in _CUTS}
        enclosing = ctx.enclosing_function(loop)
        before: list[ast.stmt] = list(getattr(enclosing if enclosing is not None else ctx.tree, "body", []))
        for stmt in loop.body:
            if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1 or not isinstance(stmt.value, ast.Call):
                continue
            call = stmt.value
            targets = _target_names(stmt.targets[0])
            passed = {a.id for a in [*call.args, *(k.value for k in call.keywords)] if isinstance(a, ast.Name)}
            for state in targets:
                if state not in passed or binds.get(state, 0) != 1 or state in cut_in_place:
                    continue
                if not _bound_before(before, loop, state):
                    continue
                if not index.grad_enabled(call):
                    continue
                outputs = set(targets) - {state} or {state}
                backward = _fed_backward(loop.body, stmt, outputs, backwards, inner)
                if backward is None or any(kw.arg == "retain_graph" for kw in backward.keywords):
                    continue  # a backward that keeps the graph: PF102 reports the growing memory
                yield stmt, state, backward


def _root_name(node: ast.expr) -> Optional[str]:
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _bound_before(body: list[ast.stmt], loop: _Loop, state: str) -> bool:
    """``state`` is bound by a statement of the enclosing scope that ends before the loop starts."""
    for node in _walk_scope(body):
        if isinstance(node, ast.stmt) and (node.end_lineno or node.lineno) < loop.lineno \
                and state in _bound(node):
            return True
    return False


def _fed_backward(body: list[ast.stmt], start: ast.stmt, outputs: set[str], backwards: list[ast.Call],
                  inner: set[int]) -> Optional[ast.Call]:
    """The backward whose loss is computed (through the loop's later assignments) from ``outputs``."""
    derived = set(outputs)
    after = False
    for stmt in body:
        if stmt is start:
            after = True
            continue
        if not after:
            continue
        for node in _walk_scope([stmt]):
            if id(node) in inner:
                continue
            if isinstance(node, ast.Assign) and _names(node.value) & derived:
                derived.update(n for t in node.targets for n in _target_names(t))
            if isinstance(node, ast.Call) and any(node is b for b in backwards):
                recv = _backward_receiver(node)
                if recv is not None and _names(recv) & derived:
                    return node
    return None
