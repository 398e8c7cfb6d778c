"""Which later ``backward()`` a binding reaches, for :class:`preflight.analysis.flow_walker.FunctionFlow`:
a value bound to a name that a later backward call of the same function (or of its loop) reads must
carry an autograd graph where it is computed, even when the walk has no fact for it (an opaque call).
Split out of the walker; the semantics are the dataflow module's."""

from __future__ import annotations

import ast
import bisect
from typing import Optional

from preflight.analysis import tensor_ops as ops
from preflight.analysis.dataflow import CONTAINER, SCALAR, UNKNOWN, GradFact, GradFlow, join
from preflight.analysis.flow_exprs import short_text
from preflight.analysis.scopes import FunctionInfo, ImportTable, TrainingCall


class BackwardReach:
    """The backward calls of one function, by the name each one's value starts from."""

    def __init__(self, flow: GradFlow, fn: FunctionInfo) -> None:
        self.flow = flow
        self.fn = fn
        self.scopes = flow.scopes
        self.imports = flow.scopes.imports
        self.calls: dict[ast.AST, TrainingCall] = {}
        self.names: dict[str, list[TrainingCall]] = {}
        self._backward_keys: dict[int, Optional[list[tuple[int, int]]]] = {}
        self._subscript_calls: dict[int, set[int]] = {}  # id(calls) -> ids of backward calls on an entry
        for tc in flow.backward_calls_in(fn):
            self.calls[tc.call] = tc
            root = _leftmost_name(tc.value) if tc.value is not None else None
            if root is not None:
                self.names.setdefault(root, []).append(tc)
        if self.names:
            self._dividends_reach_backward()

    def _dividends_reach_backward(self) -> None:
        """``loss = raw_loss / N`` then ``loss.backward()``: the dividend reaches that backward
        too (diffusion_policy's workspaces keep ``raw_loss`` for logging), as it would inline
        (``(raw_loss / N).backward()``). Only a division's left side (or a product with a
        number): the divisor, and the other factor of a product, may be data."""
        fn = self.fn
        derived: list[tuple[str, str]] = []
        for node in ast.walk(fn.node):
            if not isinstance(node, ast.Assign) or len(node.targets) != 1 or not isinstance(
                    node.targets[0], ast.Name):
                continue
            value = node.value
            source: Optional[ast.AST] = None
            if not isinstance(value, ast.BinOp):
                source_id = _reduced_source(value, self.imports)
                if source_id is not None and source_id != node.targets[0].id and \
                        self.scopes.function_of(node) is fn:
                    derived.append((node.targets[0].id, source_id))
                continue
            if isinstance(value.op, ast.Div):
                source = value.left
            elif isinstance(value.op, ast.Mult):
                if _is_number(value.right):
                    source = value.left
                elif _is_number(value.left):
                    source = value.right
            if isinstance(source, ast.Name) and source.id != node.targets[0].id and \
                    self.scopes.function_of(node) is fn:
                derived.append((node.targets[0].id, source.id))
        for _ in range(3):  # a short chain: ``a = raw / n; loss = a * 0.5``
            grown = False
            for target_id, source_id in derived:
                calls = self.names.get(target_id)
                if not calls:
                    continue
                have = self.names.setdefault(source_id, [])
                for tc in calls:
                    if tc not in have:
                        have.append(tc)
                        grown = True
                have.sort(key=lambda tc: (tc.call.lineno, tc.call.col_offset))
            if not grown:
                break

    def retro(self, name: str, fact: Optional[GradFact], value: Optional[ast.AST],
              stmt: ast.AST, grad: bool) -> Optional[GradFact]:
        """A value that reaches a later backward() must carry a graph where it is computed."""
        if fact is not None and fact.real:
            return fact
        calls = self.names.get(name)
        if not calls or value is None or not grad or not self._computes(value):
            return fact
        call = self._reached_backward(calls, stmt)
        if call is None:
            return fact
        tc = self.calls.get(call)
        root = _leftmost_name(tc.value) if tc is not None and tc.value is not None else name
        verb = "is passed to" if root == name else f"is scaled into `{root}`, which is passed to"
        oid = self.flow.new_origin(
            value, "retro", f"`{name}` {verb} `{short_text(call)}` ({self.flow.where(call)}), "
                            "so it carries an autograd graph")
        kind = SCALAR if isinstance(call, ast.Call) and not any(
            k.arg == "gradient" for k in call.keywords) else UNKNOWN
        if id(call) in self._subscript_backwards(calls):
            kind = CONTAINER  # the backward reads one entry: the name holds a dict (or list) of losses
        return join(fact, GradFact(frozenset({oid}), kind))

    def _subscript_backwards(self, calls: list[TrainingCall]) -> set[int]:
        """The ids of the backward calls among ``calls`` that read one entry of the name
        (``losses["total"].backward()``), once per list: a function of many training loops
        binds the same name before each of its many backward calls."""
        found = self._subscript_calls.get(id(calls))
        if found is None:
            found = self._subscript_calls[id(calls)] = {
                id(tc.call) for tc in calls if isinstance(tc.value, ast.Subscript)}
        return found

    def _reached_backward(self, calls: list[TrainingCall], stmt: ast.AST) -> Optional[ast.AST]:
        """The backward call this binding reaches: later in the text, and inside the
        backward's own loop (or, outside loops, anywhere earlier in the function)."""
        where = (getattr(stmt, "lineno", 0), getattr(stmt, "col_offset", 0))
        loops = set()
        loop = self.scopes.loop_of(stmt)
        while loop is not None:
            loops.add(loop)
            loop = loop.parent
        if id(calls) in self._backward_keys:
            keys = self._backward_keys[id(calls)]
        else:
            keys = [(tc.call.lineno, tc.call.col_offset) for tc in calls]
            if any(a > b for a, b in zip(keys, keys[1:])):
                keys = None  # not in source order: scan them all
            self._backward_keys[id(calls)] = keys
        # the calls come in source order (training calls are sorted): skip the earlier ones by
        # bisection, so n bindings of a name backwarded n times cost n log n, not n * n
        start = bisect.bisect_right(keys, where) if keys else 0
        for tc in calls[start:]:
            if (tc.call.lineno, tc.call.col_offset) <= where:
                continue
            target_loop = self.scopes.loop_of(tc.call)
            if target_loop is None or target_loop in loops:
                return tc.call
        return None

    def _computes(self, value: ast.AST) -> bool:
        if isinstance(value, ast.UnaryOp) and isinstance(value.op, (ast.USub, ast.UAdd)):
            return self._computes(value.operand)  # ``loss = -(reward * logp).mean()``
        if isinstance(value, ast.BinOp):
            return True
        if isinstance(value, ast.Subscript):
            return True
        if isinstance(value, ast.Attribute):
            return value.attr not in ops.CUT_ATTRS
        if isinstance(value, ast.Call):
            func = value.func
            if isinstance(func, ast.Attribute) and func.attr in ops.CUT_METHODS:
                return False
            qual = self.imports.qualify(func) or ""
            last = qual.rsplit(".", 1)[-1]
            if isinstance(func, ast.Name) and func.id in ops.CUT_BUILTINS:
                return False
            if qual.startswith("torch.") and (last in ops.TORCH_CUT or last in ops.TORCH_FACTORIES):
                return False
            return not qual.startswith(ops.HOST_LIBRARIES)
        return False


def _is_number(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(
        node.value, bool)


def _leftmost_name(node: ast.AST) -> Optional[str]:
    while True:
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.BinOp):
            node = node.left
        elif isinstance(node, ast.Attribute):
            node = node.value
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            node = node.value  # ``losses["total"].backward()``: the dict of losses carries the graph
        else:
            return None


# reductions and views whose result carries a graph only when their one tensor operand does
_GRAPH_KEEPING_METHODS = frozenset({"mean", "sum", "nanmean", "nansum", "float", "squeeze", "clone",
                                    "contiguous"})
_GRAPH_KEEPING_TORCH = frozenset({"torch.sum", "torch.mean", "torch.stack", "torch.cat"})


def _reduced_source(value: ast.AST, imports: ImportTable) -> Optional[str]:
    """The one name a single-operand derivation reads, when the derived value carries a graph only
    if that name does (RecBole's trainer: ``loss = sum(losses) if isinstance(losses, tuple) else
    losses`` then ``loss.backward()``: ``losses``, which it stores, carries the graph too): a plain
    alias, ``sum(name)``, ``name.mean()`` (a reduction or view of the name with constant arguments),
    ``torch.stack(name).sum()``, and a conditional whose two branches derive from the same name.
    None for anything with a second operand (``criterion(out, y)``: either one may be data)."""
    if isinstance(value, ast.Name):
        return value.id
    if isinstance(value, ast.IfExp):
        body = _reduced_source(value.body, imports)
        return body if body is not None and body == _reduced_source(value.orelse, imports) else None
    if not isinstance(value, ast.Call) or not all(
            isinstance(a, ast.Constant) for a in value.args[1:]) or not all(
            isinstance(k.value, ast.Constant) for k in value.keywords):
        return None
    func = value.func
    if isinstance(func, ast.Attribute) and func.attr in _GRAPH_KEEPING_METHODS:
        if value.args and not isinstance(value.args[0], ast.Constant):
            return None
        return _reduced_source(func.value, imports)
    if len(value.args) != 1:
        return None
    if (isinstance(func, ast.Name) and func.id == "sum") or (imports.qualify(func) or "") in _GRAPH_KEEPING_TORCH:
        return _reduced_source(value.args[0], imports)
    return None
