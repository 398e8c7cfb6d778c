"""Expression evaluation for the grad-provenance pass.

``ExprEvaluator`` is the expression half of
:class:`preflight.analysis.flow_walker.FunctionFlow`: it maps one expression to
the ``GradFact`` of its value under the current environment and records
graph-bearing results; calls are delegated to :mod:`preflight.analysis.flow_calls`.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Callable, Optional

from preflight.analysis import tensor_ops as ops
from preflight.analysis.bindings import Binding, Bindings
from preflight.analysis.dataflow import (
    CONTAINER,
    SCALAR,
    TENSOR,
    UNKNOWN,
    GradFact,
    GradFlow,
    join,
    join_all,
)
from preflight.analysis.scopes import FunctionInfo, ImportTable, ScopeIndex, TrainingCall
from preflight.analysis.syntax import target_names

if TYPE_CHECKING:
    from preflight.analysis.flow_walker import Frame

Env = dict[str, GradFact]


class ExprEvaluator:
    """State and expression rules shared with the statement walker."""

    flow: GradFlow
    fn: FunctionInfo
    scopes: ScopeIndex
    bindings: Bindings
    imports: ImportTable
    env: Env
    binds: dict[str, ast.AST]
    grad: bool
    frames: list[Frame]
    backward_calls: dict[ast.AST, TrainingCall]

    # provided by the statement walker
    def assign(self, target: ast.AST, fact: Optional[GradFact], value: Optional[ast.AST],
               stmt: ast.AST) -> None:
        raise NotImplementedError

    def _set(self, key: str, fact: Optional[GradFact]) -> None:
        raise NotImplementedError

    def _add_return(self, fact: Optional[GradFact], node: ast.AST, value: Optional[ast.AST]) -> None:
        raise NotImplementedError

    def ev(self, e: Optional[ast.AST]) -> Optional[GradFact]:
        if e is None:
            return None
        handler = _EXPRS.get(type(e))
        if handler is None:
            for child in ast.iter_child_nodes(e):
                if isinstance(child, ast.expr):
                    self.ev(child)
            return None
        fact = handler(self, e)
        if fact is not None:
            self.flow.record(e, fact)
        return fact

    def _name(self, e: ast.Name) -> Optional[GradFact]:
        if not isinstance(e.ctx, ast.Load):
            return None
        bound = self.binds.get(e.id)
        if bound is not None:
            self.flow.bind_sites[e] = bound
        self._read(e.id)
        return self.env.get(e.id)

    def _read(self, key: str) -> None:
        for frame in self.frames:
            if key not in frame.assigned:
                frame.exposed.add(key)

    def _attribute(self, e: ast.Attribute) -> Optional[GradFact]:
        base = e.value
        if isinstance(base, ast.Name) and base.id in ("self", "cls"):
            key = f"self.{e.attr}"
            self._read(key)
            return self.env.get(key)
        fact = self.ev(base)
        if fact is None or e.attr in ops.CUT_ATTRS:
            return None
        if fact.kind == CONTAINER and e.attr not in ops.TENSOR_ATTRS and e.attr not in _RESULT_FIELDS:
            return None  # a list or dict has no such field: an object we cannot see (quiet)
        if e.attr in ops.SCALAR_ATTRS:
            kind = SCALAR
        elif e.attr in ops.TENSOR_ATTRS:
            kind = TENSOR
        else:
            kind = UNKNOWN
        return GradFact(fact.sources, kind)

    def _subscript(self, e: ast.Subscript) -> Optional[GradFact]:
        fact = self.ev(e.value)
        self.ev(e.slice)
        if fact is None:
            return None
        if fact.is_tensor:
            return GradFact(fact.sources, TENSOR) if self.grad else None
        return GradFact(fact.sources, UNKNOWN, fact.leaf)

    def _binop(self, e: ast.BinOp) -> Optional[GradFact]:
        left, right = self.ev(e.left), self.ev(e.right)
        joined = join(left, right)
        if joined is None:
            return None
        lists = (ast.List, ast.Tuple, ast.ListComp)
        if any(f is not None and f.kind == CONTAINER for f in (left, right)) or isinstance(
                e.left, lists) or isinstance(e.right, lists):
            return GradFact(joined.sources, CONTAINER, joined.leaf)
        if not self.grad:
            return None
        lk = left.kind if left is not None else None
        rk = right.kind if right is not None else None
        if (lk == SCALAR and (rk == SCALAR or (right is None and _is_number(e.right)))) or (
                rk == SCALAR and left is None and _is_number(e.left)):
            kind = SCALAR
        elif (left is not None and left.is_tensor) or (right is not None and right.is_tensor):
            kind = TENSOR
        else:
            kind = UNKNOWN
        return GradFact(joined.sources, kind)

    def _unaryop(self, e: ast.UnaryOp) -> Optional[GradFact]:
        fact = self.ev(e.operand)
        if fact is None or isinstance(e.op, ast.Not) or not self.grad:
            return None
        return GradFact(fact.sources, fact.kind if fact.is_tensor else UNKNOWN)

    def _boolop(self, e: ast.BoolOp) -> Optional[GradFact]:
        return join_all([self.ev(v) for v in e.values])

    def _compare(self, e: ast.Compare) -> Optional[GradFact]:
        self.ev(e.left)
        for c in e.comparators:
            self.ev(c)
        return None

    def _ifexp(self, e: ast.IfExp) -> Optional[GradFact]:
        self.ev(e.test)
        return join(self.ev(e.body), self.ev(e.orelse))

    def _display(self, e: ast.AST) -> Optional[GradFact]:
        elts = getattr(e, "elts", None)
        if elts is None:  # Dict
            for k in getattr(e, "keys", []):
                self.ev(k)
            elts = getattr(e, "values", [])
        return container_fact(join_all([self.ev(x) for x in elts]))

    def _comprehension(self, e: ast.AST) -> Optional[GradFact]:
        saved: dict[str, Optional[GradFact]] = {}
        for gen in getattr(e, "generators", []):
            element = element_fact(self.ev(gen.iter))
            for name in target_names(gen.target):
                if name not in saved:
                    saved[name] = self.env.get(name)
            self.assign(gen.target, element, None, e)
            for cond in gen.ifs:
                self.ev(cond)
        if isinstance(e, ast.DictComp):
            self.ev(e.key)
            fact = self.ev(e.value)
        else:
            fact = self.ev(getattr(e, "elt", None))
        for name, old in saved.items():
            self._set(name, old)
        return container_fact(fact)

    def _namedexpr(self, e: ast.NamedExpr) -> Optional[GradFact]:
        fact = self.ev(e.value)
        self.assign(e.target, fact, e.value, e)
        return fact

    def _passthrough(self, e: ast.AST) -> Optional[GradFact]:
        return self.ev(getattr(e, "value", None))

    def _yield(self, e: ast.AST) -> Optional[GradFact]:
        value = getattr(e, "value", None)
        self._add_return(self.ev(value), e, value)
        return None

    def _constant(self, e: ast.AST) -> Optional[GradFact]:
        return None

    def _call(self, e: ast.Call) -> Optional[GradFact]:
        from preflight.analysis.flow_calls import evaluate_call

        return evaluate_call(self, e)  # type: ignore[arg-type]  # self is always a FunctionFlow

    # helpers used by flow_calls
    def forward(self, e: ast.Call, binding: Binding, args: Optional[GradFact]) -> Optional[GradFact]:
        if not self.grad:
            return None
        kind = TENSOR if binding.tensor_out else self._forward_kind(binding)
        frozen = binding.input_dependent()
        if frozen and (args is None or not args.real or binding.param_free):
            # a frozen or parameter-free module records a graph only from its inputs
            return GradFact(args.sources, kind) if args is not None else None
        callee = short_text(e.func)
        where = ""
        if binding.line and binding.line != e.lineno:
            where = f", {self.flow.where(binding.node)}"
        what = "the module itself" if binding.description == "`self`" else (
            f"{binding.description}{where}")
        if frozen:
            text = (f"`{short_text(e)}` runs the frozen `{callee}` ({what}) on a graph-bearing input, "
                    "which extends the autograd graph")
        else:
            text = f"`{short_text(e)}` runs the forward pass of `{callee}` ({what}), which records an " \
                   "autograd graph"
        oid = self.flow.new_origin(e, "forward", text)
        sources = {oid} | (set(args.sources) if args is not None else set())
        return GradFact(frozenset(sources), kind)

    def _forward_kind(self, binding: Binding) -> str:
        """What a local module's forward() returns, from its summary."""
        cls = binding.cls
        forward = cls.method("forward") if cls is not None else None
        summary = self.flow.summaries.get(forward) if forward is not None else None
        if summary is not None and summary.fact is not None and summary.fact.is_tensor:
            return TENSOR
        return UNKNOWN

    def loss(self, e: ast.Call, args: Optional[GradFact], binding: Optional[Binding]) -> Optional[GradFact]:
        if args is None or not self.grad:
            return None
        reduction = _keyword(e, "reduction")
        if reduction is None and binding is not None and isinstance(binding.node, ast.Call):
            reduction = _keyword(binding.node, "reduction")
        scalar = reduction is None or (isinstance(reduction, ast.Constant) and reduction.value in (
            "mean", "sum", "batchmean"))
        return GradFact(args.sources, SCALAR if scalar else TENSOR)


# Fields of torch's multi-value results (``x.max(1).values``, ``torch.linalg.svd(a).U``).
_RESULT_FIELDS = frozenset({
    "values", "U", "S", "V", "Vh", "Q", "R", "L", "eigenvalues", "eigenvectors", "logabsdet",
    "solution"})


def _keyword(call: ast.Call, name: str) -> Optional[ast.expr]:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


def _is_number(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp):
        node = node.operand
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(
        node.value, bool)


def element_fact(fact: Optional[GradFact]) -> Optional[GradFact]:
    if fact is None:
        return None
    return GradFact(fact.sources, TENSOR if fact.kind == TENSOR else UNKNOWN, fact.leaf)


def container_fact(fact: Optional[GradFact]) -> Optional[GradFact]:
    if fact is None:
        return None
    return GradFact(fact.sources, CONTAINER, fact.leaf)


def short_text(node: ast.AST, limit: int = 60) -> str:
    try:
        text = ast.unparse(node)
    except Exception:  # pragma: no cover
        return "expression"
    return text if len(text) <= limit else text[: limit - 3] + "..."


_EXPRS: dict[type, Callable[[ExprEvaluator, ast.AST], Optional[GradFact]]] = {
    ast.Name: ExprEvaluator._name,  # type: ignore[dict-item]
    ast.Attribute: ExprEvaluator._attribute,  # type: ignore[dict-item]
    ast.Subscript: ExprEvaluator._subscript,  # type: ignore[dict-item]
    ast.BinOp: ExprEvaluator._binop,  # type: ignore[dict-item]
    ast.UnaryOp: ExprEvaluator._unaryop,  # type: ignore[dict-item]
    ast.BoolOp: ExprEvaluator._boolop,  # type: ignore[dict-item]
    ast.Compare: ExprEvaluator._compare,  # type: ignore[dict-item]
    ast.IfExp: ExprEvaluator._ifexp,  # type: ignore[dict-item]
    ast.List: ExprEvaluator._display,
    ast.Tuple: ExprEvaluator._display,
    ast.Set: ExprEvaluator._display,
    ast.Dict: ExprEvaluator._display,
    ast.ListComp: ExprEvaluator._comprehension,
    ast.SetComp: ExprEvaluator._comprehension,
    ast.GeneratorExp: ExprEvaluator._comprehension,
    ast.DictComp: ExprEvaluator._comprehension,
    ast.NamedExpr: ExprEvaluator._namedexpr,  # type: ignore[dict-item]
    ast.Starred: ExprEvaluator._passthrough,
    ast.Await: ExprEvaluator._passthrough,
    ast.Yield: ExprEvaluator._yield,
    ast.YieldFrom: ExprEvaluator._yield,
    ast.Constant: ExprEvaluator._constant,
    ast.Lambda: ExprEvaluator._constant,
    ast.Call: ExprEvaluator._call,  # type: ignore[dict-item]
}
