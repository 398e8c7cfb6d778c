"""The per-function pass behind :mod:`preflight.analysis.dataflow`.

``FunctionFlow`` walks one function's statements in order with an environment
of grad facts, evaluates each expression once per visit, records the facts of
graph-bearing expressions in the shared ``GradFlow`` and produces the function's
return summary. See the dataflow module for the semantics.
"""

from __future__ import annotations

import ast
from typing import Callable, Optional

from preflight.analysis.dataflow import (
    CONTAINER,
    SCALAR,
    TENSOR,
    UNKNOWN,
    BackwardSite,
    GradFact,
    GradFlow,
    Summary,
    join,
)
from preflight.analysis.flow_backward import BackwardReach
from preflight.analysis.flow_exprs import (
    Env,
    ExprEvaluator,
    container_fact,
    element_fact,
    short_text,
)
from preflight.analysis.scopes import FunctionInfo


class FunctionFlow(ExprEvaluator):
    def __init__(self, flow: GradFlow, fn: FunctionInfo) -> None:
        self.flow = flow
        self.fn = fn
        self.scopes = flow.scopes
        self.bindings = flow.scopes.bindings
        self.imports = flow.scopes.imports
        self.env: Env = {}
        self.binds: dict[str, ast.AST] = {}
        self.grad = fn.grad_enabled
        self.returns: Optional[GradFact] = None
        self.return_node: Optional[ast.AST] = None
        # per-position facts while every return is a tuple display of one length
        self.return_elements: Optional[list[Optional[GradFact]]] = None
        self.returns_mixed = False
        # helper calls returning tuples: the fact of each element, for unpacking
        self.call_elements: dict[ast.AST, tuple[Optional[GradFact], ...]] = {}
        self.steps = 0
        # one frame per loop being walked: which keys its body reads before assigning
        self.frames: list[Frame] = []
        node = fn.node
        lines = (getattr(node, "end_lineno", 0) or 0) - getattr(node, "lineno", 1) + 1
        if isinstance(node, ast.Module):
            lines = len(flow.ctx.parsed.index.lines)
        self.budget = max(400, 6 * lines)
        self.reach = BackwardReach(flow, fn)

    # -- driver ------------------------------------------------------------
    def run(self) -> None:
        fn = self.fn
        for i, param in enumerate(fn.params):
            if i == 0 and fn.cls is not None and param in ("self", "cls"):
                continue
            self.env[param] = GradFact(frozenset({-(i + 1)}))
        self.block(fn.node.body)

    def summary(self) -> Summary:
        fact = self.returns
        backwarded = False
        if fact is not None and fact.real:
            done = self.flow.backwarded_in(self.fn)
            backwarded = fact.real_sources() <= done
        elements = None
        if self.return_elements is not None and not self.returns_mixed:
            elements = tuple(self.return_elements)
        return Summary(fact, backwarded, self.return_node, elements)

    # -- statements --------------------------------------------------------
    def block(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            self.stmt(stmt)

    def stmt(self, s: ast.stmt) -> None:
        self.steps += 1
        if self.grad:
            self.flow.stmt_grad[s] = True
        else:
            self.flow.stmt_grad.setdefault(s, False)
        handler = _STMTS.get(type(s))
        if handler is not None:
            handler(self, s)
        elif getattr(s, "handlers", None) is not None:
            self._try(s)
        else:
            for child in ast.iter_child_nodes(s):
                if isinstance(child, ast.expr):
                    self.ev(child)

    def _assign(self, s: ast.Assign) -> None:
        value = self.ev(s.value)
        for target in s.targets:
            if isinstance(target, ast.Attribute) and target.attr == "requires_grad":
                self._requires_grad(target.value, s.value, s)
                continue
            self.assign(target, value, s.value, s)

    def _ann_assign(self, s: ast.AnnAssign) -> None:
        if s.value is not None:
            self.assign(s.target, self.ev(s.value), s.value, s)

    def _aug_assign(self, s: ast.AugAssign) -> None:
        value = self.ev(s.value)
        target = s.target
        key = self.container_key(target.value if isinstance(target, ast.Subscript) else target)
        if isinstance(target, ast.Subscript):
            self.ev(target.slice)
        if key is None:
            if isinstance(target, ast.Attribute):
                self.ev(target.value)
            return
        current = self.env.get(key)
        if isinstance(target, ast.Subscript):
            current = element_fact(current)
        concat = (value is not None and value.kind == CONTAINER) or isinstance(
            s.value, (ast.List, ast.Tuple, ast.ListComp, ast.GeneratorExp)) or (
            current is not None and current.kind == CONTAINER)
        joined = join(current, value)
        result: Optional[GradFact]
        if joined is None:
            result = None
        elif concat:
            result = GradFact(joined.sources, CONTAINER, joined.leaf)
        elif not self.grad:
            result = current
        else:
            parts = [f for f in (current, value) if f is not None]
            if all(f.kind == SCALAR for f in parts):
                kind = SCALAR
            elif any(f.is_tensor for f in parts):
                kind = TENSOR
            else:
                kind = UNKNOWN
            result = GradFact(joined.sources, kind)
        if isinstance(target, ast.Name):
            result = self.reach.retro(target.id, result, s.value, s, self.grad)
            self.binds[target.id] = s
        if isinstance(target, ast.Subscript):
            self._add_to_container(key, result)
        else:
            self._set(key, result)

    def _for(self, s: ast.stmt) -> None:
        assert isinstance(s, (ast.For, ast.AsyncFor))
        element = element_fact(self.ev(s.iter))
        self._loop(s.body, lambda: self.assign(s.target, element, None, s))
        self.block(s.orelse)

    def _while(self, s: ast.stmt) -> None:
        assert isinstance(s, ast.While)
        self.ev(s.test)
        self._loop(s.body, lambda: None)
        self.block(s.orelse)

    def _loop(self, body: list[ast.stmt], head: Callable[[], None]) -> None:
        env_in = dict(self.env)
        outer = self._snapshot()
        frame = Frame()
        self.frames.append(frame)
        head()
        self.block(body)
        if self.steps < self.budget and any(
                key in frame.exposed and env_in.get(key) != fact for key, fact in self.env.items()):
            # something read before it is assigned changed: the next iteration sees it
            self.env = _join_env(env_in, self.env)
            head()
            self.block(body)
        self.frames.pop()
        self._restore(outer)  # the body may run zero times
        self.env = _join_env(env_in, self.env)

    def _snapshot(self) -> list[set[str]]:
        return [set(f.assigned) for f in self.frames]

    def _restore(self, saved: list[set[str]]) -> None:
        for frame, assigned in zip(self.frames, saved):
            frame.assigned = assigned

    def _if(self, s: ast.stmt) -> None:
        assert isinstance(s, ast.If)
        self.ev(s.test)
        saved, grad = dict(self.env), self.grad
        before = self._snapshot()
        self.block(s.body)
        env_body, grad_body = self.env, self.grad
        after_body = self._snapshot()
        self.env, self.grad = saved, grad
        self._restore(before)
        self.block(s.orelse)
        self.env = _join_env(env_body, self.env)
        self.grad = grad_body or self.grad
        for frame, assigned in zip(self.frames, after_body):
            frame.assigned &= assigned

    def _with(self, s: ast.stmt) -> None:
        assert isinstance(s, (ast.With, ast.AsyncWith))
        grad = self.grad
        for item in s.items:
            fact = self.ev(item.context_expr)
            mode = self.scopes.context_grad_mode(item.context_expr)
            if mode is not None:
                self.grad = mode
            if item.optional_vars is not None:
                self.assign(item.optional_vars, fact, None, s)
        self.block(s.body)
        self.grad = grad

    def _try(self, s: ast.stmt) -> None:
        before = self._snapshot()
        start = dict(self.env)
        self.block(getattr(s, "body", []))
        after = self.env
        outs: list[Env] = []
        for handler in getattr(s, "handlers", []):
            self.env = _join_env(start, after)
            if handler.name:
                self.env.pop(handler.name, None)
            self.block(handler.body)
            outs.append(self.env)
        self.env = after
        self.block(getattr(s, "orelse", []))
        for out in outs:
            self.env = _join_env(self.env, out)
        self._restore(before)
        self.block(getattr(s, "finalbody", []))

    def _match(self, s: ast.stmt) -> None:
        self.ev(getattr(s, "subject", None))
        before = self._snapshot()
        saved = dict(self.env)
        merged = dict(saved)
        for case in getattr(s, "cases", []):
            self.env = dict(saved)
            self.block(case.body)
            merged = _join_env(merged, self.env)
            self._restore(before)
        self.env = merged

    def _return(self, s: ast.stmt) -> None:
        assert isinstance(s, ast.Return)
        self._add_return(self.ev(s.value), s, s.value)

    def _expr(self, s: ast.stmt) -> None:
        assert isinstance(s, ast.Expr)
        mode = self.scopes.set_grad_statement(s)
        if mode is not None:
            self.grad = mode
            return
        value = s.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
            attr = value.func.attr
            if attr == "detach_":
                key = self.container_key(value.func.value)
                if key is not None:
                    self.env.pop(key, None)
                return
            if attr == "requires_grad_":
                flag = value.args[0] if value.args else ast.Constant(value=True)
                self._requires_grad(value.func.value, flag, s)
                return
        self.ev(value)

    def _delete(self, s: ast.stmt) -> None:
        assert isinstance(s, ast.Delete)
        for target in s.targets:
            if isinstance(target, ast.Name):
                self.env.pop(target.id, None)

    def _definition(self, s: ast.stmt) -> None:
        name = getattr(s, "name", None)
        if name:
            self.env.pop(name, None)

    def _nothing(self, s: ast.stmt) -> None:
        return None

    # -- binding -----------------------------------------------------------
    def assign(self, target: ast.AST, fact: Optional[GradFact], value: Optional[ast.AST],
               stmt: ast.AST) -> None:
        if isinstance(target, ast.Name):
            fact = self.reach.retro(target.id, fact, value, stmt, self.grad)
            self._set(target.id, fact)
            self.binds[target.id] = stmt
        elif isinstance(target, (ast.Tuple, ast.List)):
            elts = target.elts
            parts = self.call_elements.get(value) if value is not None else None
            if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(elts) and not any(
                    isinstance(e, ast.Starred) for e in (*elts, *value.elts)):
                for t, v in zip(elts, value.elts):
                    self.assign(t, self.flow.facts.get(v), v, stmt)
            elif parts is not None and len(parts) == len(elts) and not any(
                    isinstance(e, ast.Starred) for e in elts):
                for t, part in zip(elts, parts):  # a, b = helper(): each gets its own element
                    self.assign(t, part, None, stmt)
            else:
                element = element_fact(fact)
                for t in elts:
                    self.assign(t, element, value, stmt)
        elif isinstance(target, ast.Starred):
            self.assign(target.value, container_fact(fact), None, stmt)
        elif isinstance(target, ast.Attribute):
            key = self.container_key(target)
            if key is not None:
                self._set(key, fact)
            else:
                self.ev(target.value)
        elif isinstance(target, ast.Subscript):
            self.ev(target.slice)
            key = self.container_key(target.value)
            if key is not None:
                self._add_to_container(key, fact)
            else:
                self.ev(target.value)

    def _set(self, key: str, fact: Optional[GradFact]) -> None:
        for frame in self.frames:
            frame.assigned.add(key)
        if fact is None:
            self.env.pop(key, None)
        else:
            self.env[key] = fact

    def _add_to_container(self, key: str, fact: Optional[GradFact]) -> None:
        joined = join(self.env.get(key), fact)
        if joined is not None:
            self.env[key] = GradFact(joined.sources, CONTAINER, joined.leaf)

    def _requires_grad(self, target: ast.AST, flag: ast.AST, stmt: ast.AST) -> None:
        key = self.container_key(target)
        if key is None:
            return
        if isinstance(flag, ast.Constant) and flag.value is False:
            self.env.pop(key, None)
            return
        current = self.env.get(key)
        if current is None or not current.real:
            text = short_text(target)
            oid = self.flow.new_origin(stmt, "leaf", f"`{text}` requires grad (a leaf tensor)",
                                       leaf=True)
            self.env[key] = GradFact(frozenset({oid}), UNKNOWN, leaf=True)

    def _add_return(self, fact: Optional[GradFact], node: ast.AST, value: Optional[ast.AST]) -> None:
        self.returns = join(self.returns, fact)
        self._return_elements(node, value)
        if fact is not None and fact.real and self.return_node is None:
            self.return_node = node
        if self.fn.hook == "lightning-train" and isinstance(value, ast.expr):
            # Lightning (automatic optimization) runs backward on the returned loss.
            loss: ast.expr = value
            if isinstance(value, ast.Dict):
                for k, v in zip(value.keys, value.values):
                    if isinstance(k, ast.Constant) and k.value == "loss":
                        loss = v
            self.flow.record_backward(BackwardSite(node, loss, self.flow.facts.get(loss), self.fn,
                                                   None))

    def _return_elements(self, node: ast.AST, value: Optional[ast.AST]) -> None:
        """Track the fact of each position while every return is one tuple shape."""
        if self.returns_mixed:
            return
        if not isinstance(node, ast.Return) or not isinstance(value, ast.Tuple) or any(
                isinstance(e, ast.Starred) for e in value.elts):
            if isinstance(node, ast.Return) and (value is None or (
                    isinstance(value, ast.Constant) and value.value is None)):
                return  # `return None` cannot be unpacked: it says nothing about the tuple
            self.returns_mixed = True
            return
        facts = [self.flow.facts.get(e) for e in value.elts]
        if self.return_elements is None:
            self.return_elements = facts
        elif len(self.return_elements) != len(facts):
            self.returns_mixed = True
        else:
            self.return_elements = [join(a, b) for a, b in zip(self.return_elements, facts)]

    def container_key(self, node: ast.AST) -> Optional[str]:
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and (
                node.value.id in ("self", "cls")):
            return f"self.{node.attr}"
        if isinstance(node, ast.Subscript):
            return self.container_key(node.value)
        return None

class Frame:
    __slots__ = ("assigned", "exposed")

    def __init__(self) -> None:
        self.assigned: set[str] = set()
        self.exposed: set[str] = set()


def _join_env(a: Env, b: Env) -> Env:
    if a is b:
        return dict(a)
    out = dict(a)
    for key, fact in b.items():
        old = out.get(key)
        if old is not fact:
            out[key] = fact if old is None else (join(old, fact) or fact)
    return out


_STMTS: dict[type, Callable[[FunctionFlow, ast.stmt], None]] = {
    ast.Assign: FunctionFlow._assign,  # type: ignore[dict-item]
    ast.AnnAssign: FunctionFlow._ann_assign,  # type: ignore[dict-item]
    ast.AugAssign: FunctionFlow._aug_assign,  # type: ignore[dict-item]
    ast.For: FunctionFlow._for,
    ast.AsyncFor: FunctionFlow._for,
    ast.While: FunctionFlow._while,
    ast.If: FunctionFlow._if,
    ast.With: FunctionFlow._with,
    ast.AsyncWith: FunctionFlow._with,
    ast.Try: FunctionFlow._try,
    ast.Return: FunctionFlow._return,
    ast.Expr: FunctionFlow._expr,
    ast.Delete: FunctionFlow._delete,
    ast.FunctionDef: FunctionFlow._definition,
    ast.AsyncFunctionDef: FunctionFlow._definition,
    ast.ClassDef: FunctionFlow._definition,
    ast.Global: FunctionFlow._nothing,
    ast.Nonlocal: FunctionFlow._nothing,
    ast.Import: FunctionFlow._nothing,
    ast.ImportFrom: FunctionFlow._nothing,
    ast.Pass: FunctionFlow._nothing,
    ast.Break: FunctionFlow._nothing,
    ast.Continue: FunctionFlow._nothing,
}
if hasattr(ast, "Match"):
    _STMTS[ast.Match] = FunctionFlow._match
