"""How often a job-defined function runs: called inside which loop of its callers (the reach through calls).

A rule that judges where a call runs (``scheduler.step()`` once per batch or once per epoch, ``model.eval()``
inside the training loop) stops at the function boundary when the call sits in a method the loop calls:
Auto-PyTorch's ``train_epoch`` iterates the loader and calls ``self.train_step(...)`` per batch, and
``train_step`` steps ``self.scheduler`` (PR 210). This module answers, syntactically and per *unit* (one class
body, whose methods call each other through ``self.m(...)``, or one module, whose functions call each other by
name):

* ``effects(fn)``: the bare calls a function makes in its own body (not in nested defs), by kind (``step``,
  ``zero_grad``, ``backward``, ``train``, ``eval``, ``set_epoch``) with their receiver as written
  (``self.scheduler``, a parameter name);
* ``stores(fn)``: ``self.attr = param`` plain stores (``prepare(self, model, optimizer, scheduler)``);
* ``loop_reach(fn, accept)``: a call site of ``fn`` inside a loop that ``accept`` takes (a batch loop), through at
  most :data:`DEPTH` calls of the unit, with the chain of call sites; a site under a test of the epoch's end
  (``if i == len(loader) - 1``) does not count, nor one whose innermost loop is not accepted (an epoch loop:
  the function runs once per epoch).

The class may live in another module of the job (:func:`preflight.analysis.project_imports.imported_class`).
Nothing is imported or run.
"""

from __future__ import annotations

import ast
from typing import Callable, Iterator, Optional, Union

from preflight._record import dataclass

DEPTH = 3
EFFECT_KINDS = frozenset({"step", "zero_grad", "backward", "train", "eval", "set_epoch"})
# an ``if`` naming any of these around a call gates it to the epoch's end (or to an evaluation)
EPOCH_GATES = ("len(", "epoch", "last", "end")

Loop = Union[ast.For, ast.AsyncFor]
Func = Union[ast.FunctionDef, ast.AsyncFunctionDef]


@dataclass(frozen=True)
class Effect:
    kind: str
    receiver: str  # ``self.scheduler`` / ``scheduler`` as written
    call: ast.Call


@dataclass(frozen=True)
class LoopReach:
    loop: Loop  # the accepted loop, in ``caller``
    caller: Func
    sites: tuple  # call sites from the one in the loop down to the call of the function asked about


def own_nodes(fn: Func) -> Iterator[ast.AST]:
    """The nodes of ``fn``'s body, not entering nested functions, lambdas or classes."""
    stack: list[ast.AST] = list(fn.body)
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                stack.append(child)


def _parents(fn: Func) -> dict[int, ast.AST]:
    out: dict[int, ast.AST] = {}
    stack: list[ast.AST] = [fn]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                continue
            out[id(child)] = node
            stack.append(child)
    return out


def gated(test: ast.expr) -> bool:
    text = ast.unparse(test).lower()
    return any(w in text for w in EPOCH_GATES)


class Unit:
    """The functions of one class body (``self.m(...)`` calls) or one module (``f(...)`` calls)."""

    def __init__(self, body_of: Union[ast.ClassDef, ast.Module]) -> None:
        self.is_class = isinstance(body_of, ast.ClassDef)
        found: dict[str, list[Func]] = {}
        for node in body_of.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.setdefault(node.name, []).append(node)
        # a name defined twice (a property setter, a conditional def) is not resolved
        self.functions: dict[str, Func] = {n: fns[0] for n, fns in found.items() if len(fns) == 1}
        self._parents: dict[int, dict[int, ast.AST]] = {}
        self._callers: Optional[dict[str, list[tuple[Func, ast.Call]]]] = None

    def _callee_name(self, call: ast.Call) -> Optional[str]:
        func = call.func
        if self.is_class:
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
                return func.attr
            return None
        return func.id if isinstance(func, ast.Name) else None

    def callers(self, name: str) -> list[tuple[Func, ast.Call]]:
        if self._callers is None:
            self._callers = {}
            for fn in self.functions.values():
                for node in own_nodes(fn):
                    if isinstance(node, ast.Call):
                        callee = self._callee_name(node)
                        if callee is not None and callee in self.functions and callee != fn.name:
                            self._callers.setdefault(callee, []).append((fn, node))
        return self._callers.get(name, [])

    def parents(self, fn: Func) -> dict[int, ast.AST]:
        got = self._parents.get(id(fn))
        if got is None:
            got = self._parents[id(fn)] = _parents(fn)
        return got

    def enclosing_loop(self, fn: Func, node: ast.AST) -> tuple[Optional[Loop], bool]:
        """(the innermost ``for`` around ``node`` in ``fn``, whether a ``while`` or an epoch-end test comes first)."""
        parents = self.parents(fn)
        cur = parents.get(id(node))
        while cur is not None and cur is not fn:
            if isinstance(cur, ast.If) and gated(cur.test):
                return None, True
            if isinstance(cur, ast.While):
                return None, True
            if isinstance(cur, (ast.For, ast.AsyncFor)):
                return cur, False
            cur = parents.get(id(cur))
        return None, False

    def effects(self, fn: Func) -> list[Effect]:
        out: list[Effect] = []
        for node in own_nodes(fn):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                    node.func.attr in EFFECT_KINDS):
                receiver = ast.unparse(node.func.value)
                out.append(Effect(node.func.attr, receiver, node))
        out.sort(key=lambda e: (e.call.lineno, e.call.col_offset))
        return out

    def stores(self, fn: Func) -> dict[str, str]:
        """parameter -> ``self.attr`` it is stored in plainly (``self.scheduler = scheduler``)."""
        params = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
        out: dict[str, str] = {}
        for node in own_nodes(fn):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Name) and (
                    node.value.id in params):
                tgt = node.targets[0]
                if isinstance(tgt, ast.Attribute) and isinstance(tgt.value, ast.Name) and tgt.value.id == "self":
                    out.setdefault(node.value.id, f"self.{tgt.attr}")
        return out

    def loop_reach(self, fn: Func, accept: Callable[[Loop], bool], depth: int = DEPTH,
                   ) -> Optional[LoopReach]:
        """A call of ``fn`` in the unit that runs inside a loop ``accept`` takes (first in source order)."""
        if depth <= 0:
            return None
        sites = sorted(self.callers(fn.name), key=lambda s: (s[1].lineno, s[1].col_offset))
        for caller, call in sites:
            loop, stopped = self.enclosing_loop(caller, call)
            if stopped:
                continue
            if loop is not None:
                if accept(loop):
                    return LoopReach(loop, caller, (call,))
                continue  # an epoch loop: the function runs once per epoch
            outer = self.loop_reach(caller, accept, depth - 1)
            if outer is not None:
                return LoopReach(outer.loop, outer.caller, (*outer.sites, call))
        return None

    def free_in_function(self, fn: Func, node: ast.AST) -> bool:
        """``node`` runs once per call of ``fn``: no loop, ``while`` or epoch-end test around it in ``fn``."""
        loop, stopped = self.enclosing_loop(fn, node)
        return loop is None and not stopped

    def function_of(self, node: ast.AST) -> Optional[Func]:
        for fn in self.functions.values():
            if fn.lineno <= getattr(node, "lineno", 0) <= (fn.end_lineno or fn.lineno) and any(
                    n is node for n in own_nodes(fn)):
                return fn
        return None
