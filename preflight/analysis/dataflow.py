"""Grad provenance: which values carry an autograd graph at each program point.

One forward pass per function (the module is a function too), statement by
statement, with an environment ``name -> GradFact`` (``self.x`` attributes are
tracked per method as ``"self.x"``). Branches are joined; a loop body is run a
second time only when the first pass changed a value that the body reads before
assigning it (a loop-carried value), within a budget proportional to the
function's size, so the whole file costs O(statements).
Functions are analysed callees first, so a call to a local helper uses the
helper's *summary* (does its return value carry a graph of its own, or of which
parameters? for a function that always returns a tuple of one length, of each
element, so ``loss, steps = train(...)`` does not give ``steps`` the loss's
graph). Parameters start as symbolic sources, which is how summaries say
"returns a graph if argument 0 has one" without ever reporting on them.

A graph starts at an *origin*: a forward call of something bound to an
``nn.Module`` (see :mod:`preflight.analysis.bindings`), a helper whose return
carries a graph (one origin at the call per graph built in the helper, so
returned values that share a graph there share it here), a tensor created with ``requires_grad=True`` (a *leaf*: it
requires grad but holds no graph until an operation uses it), or a name that
is later passed to ``backward()`` (it must carry one). Criterion calls,
arithmetic and tensor operations propagate the graph of their operands;
``.item()``, ``.detach()``, ``.tolist()``, ``float()``, ``len()``, comparisons,
``argmax``, ``.data``, ``.grad`` and unknown calls cut it, and nothing new is
recorded inside ``torch.no_grad()``. Unknown stays quiet: a graph-bearing value
handed to a method of an object the analysis cannot see (``meter.update(loss)``)
does not make that object graph-bearing. Among method calls, only list-style
stores (``append``/``extend``/``insert``) and ``add``/``update``/``put`` on a
container already holding graphs or built in the file (a dict, set or queue
display or factory) put a value's graph into their receiver (besides
``c[k] = v`` and ``c += [v]``), and only known tensor fields (``.values``,
``.logits``, ...) are read back out of a container as graph-bearing.

Reading the result (``flow = grad_flow(ctx)``):

* ``flow.fact(expr)``: the ``GradFact`` of an expression as evaluated (None: no
  graph); ``flow.carries_graph(expr)`` for a real, non-leaf graph.
* ``flow.grad_enabled_at(node)``: autograd on at that statement (``with``
  blocks, decorators, Lightning hooks, callers, ``set_grad_enabled``).
* ``flow.origin(id)`` / ``flow.explain(fact)``: where a graph came from.
* ``flow.backward_sites``: every backward call with the fact of its tensor;
  ``flow.backward_sources(loop, fn)``: origins backwarded in a loop/function.
* ``flow.summaries[fn]``: what a function returns; ``flow.binding_of(name)``:
  the statement that bound a Name read.
* ``flow.consumers``: which names/containers reach a backward (see
  :mod:`preflight.analysis.consumers`).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Iterable, Optional

from preflight._record import dataclass
from preflight.analysis.scopes import FunctionInfo, LoopInfo, ScopeIndex, TrainingCall, scope_index

if TYPE_CHECKING:
    from preflight.analysis.consumers import Consumers
    from preflight.analysis.context import FileContext

SCALAR = "scalar"  # a 0-dim tensor
TENSOR = "tensor"
CONTAINER = "container"  # list/tuple/dict/ModelOutput holding graph-bearing tensors
UNKNOWN = "unknown"
MAX_SOURCES = 64


@dataclass(frozen=True)
class Origin:
    id: int
    node: ast.AST
    description: str
    kind: str = "forward"  # "forward" | "helper" | "retro" (reaches backward) | "leaf"
    backwarded: bool = False  # a helper already ran backward on this graph
    leaf: bool = False
    via: Optional[int] = None  # origin inside a helper this one stands for


@dataclass(frozen=True)
class GradFact:
    sources: frozenset[int]  # Origin ids; negative ids are symbolic parameters
    kind: str = UNKNOWN
    leaf: bool = False

    @property
    def real(self) -> bool:
        """Carries (or requires) grad from this function, not just from a parameter."""
        return any(s >= 0 for s in self.sources)

    @property
    def is_tensor(self) -> bool:
        return self.kind in (SCALAR, TENSOR)

    def real_sources(self) -> frozenset[int]:
        return frozenset(s for s in self.sources if s >= 0)


def join(a: Optional[GradFact], b: Optional[GradFact]) -> Optional[GradFact]:
    if a is None or a is b:
        return b
    if b is None or a == b:
        return a
    sources = a.sources | b.sources
    if len(sources) > MAX_SOURCES:
        sources = frozenset(sorted(sources)[:MAX_SOURCES])
    kind = a.kind if a.kind == b.kind else UNKNOWN
    return GradFact(sources, kind, a.leaf and b.leaf)


def join_all(facts: Iterable[Optional[GradFact]]) -> Optional[GradFact]:
    out: Optional[GradFact] = None
    for f in facts:
        out = join(out, f)
    return out


@dataclass(frozen=True)
class BackwardSite:
    call: ast.AST  # the backward call (or the ``return`` of a Lightning training_step)
    value: ast.expr
    fact: Optional[GradFact]
    function: FunctionInfo
    loop: Optional[LoopInfo]


@dataclass(frozen=True)
class Summary:
    fact: Optional[GradFact]  # join of every returned value
    backwarded: bool  # backward ran (in the function) on the graph it returns
    node: Optional[ast.AST]  # a return statement carrying the graph
    # every return is a tuple display of this many elements: the fact of each position
    elements: Optional[tuple[Optional[GradFact], ...]] = None


class GradFlow:
    """Grad facts for one file; see the module docstring."""

    def __init__(self, ctx: FileContext, scopes: ScopeIndex) -> None:
        self.ctx = ctx
        self.scopes = scopes
        self.origins: list[Origin] = []
        self._origin_ids: dict[tuple[int, str], int] = {}
        self.facts: dict[ast.AST, GradFact] = {}
        self.stmt_grad: dict[ast.stmt, bool] = {}
        self.backward_sites: list[BackwardSite] = []
        self._backward_seen: dict[ast.AST, int] = {}
        self._sites_by_function: dict[FunctionInfo, list[int]] = {}
        self._sites_by_loop: Optional[tuple[int, dict[LoopInfo, list[int]]]] = None
        self.summaries: dict[FunctionInfo, Summary] = {}
        self.bind_sites: dict[ast.Name, ast.AST] = {}
        self._loop_sources: dict[LoopInfo, set[int]] = {}
        self._fn_sources: dict[FunctionInfo, set[int]] = {}
        self._consumers: Optional[Consumers] = None
        self._backward_calls: dict[FunctionInfo, list[TrainingCall]] = {}
        for tc in scopes.training_calls:
            if tc.kind == "backward":
                self._backward_calls.setdefault(tc.function, []).append(tc)
        from preflight.analysis.flow_walker import FunctionFlow

        if not self._may_have_graphs():
            return  # nothing in the file can start an autograd graph
        for fn in _callee_first(scopes):
            walker = FunctionFlow(self, fn)
            try:
                walker.run()
            except RecursionError:  # pathological nesting: give up on this function only
                continue
            self.summaries[fn] = walker.summary()
        for site in self.backward_sites:
            sources = site.fact.real_sources() if site.fact is not None else frozenset()
            self._fn_sources.setdefault(site.function, set()).update(sources)
            loop = site.loop
            while loop is not None:
                self._loop_sources.setdefault(loop, set()).update(sources)
                loop = loop.parent

    def _may_have_graphs(self) -> bool:
        """False only when no origin of a graph can exist in this file (a fast path)."""
        from preflight.analysis.bindings import CRITERION, MODULE, PARAMETER

        if self.scopes.training_calls:
            return True
        bindings = self.scopes.bindings
        kinds = (MODULE, CRITERION, PARAMETER)
        if any(b.kind in kinds for b in bindings.names.values()) or any(
                b.kind in kinds for b in bindings.attrs.values()):
            return True
        if any(cls.is_module for cls in self.scopes.classes.values()):
            return True
        text = self.ctx.parsed.source.text
        return any(word in text for word in ("requires_grad", "Parameter", "create_graph"))

    # -- recording (used by the walker) ------------------------------------
    def backward_calls_in(self, fn: FunctionInfo) -> list[TrainingCall]:
        return self._backward_calls.get(fn, [])

    def new_origin(self, node: ast.AST, tag: str, description: str, *, backwarded: bool = False,
                   leaf: bool = False, via: Optional[int] = None, variant: str = "") -> int:
        """The origin for ``(node, tag, variant)``, created on first use."""
        key = (id(node), f"{tag}{variant}")
        found = self._origin_ids.get(key)
        if found is not None:
            return found
        origin = Origin(len(self.origins), node, description, tag, backwarded, leaf, via)
        self.origins.append(origin)
        self._origin_ids[key] = origin.id
        return origin.id

    def record(self, node: ast.AST, fact: GradFact) -> None:
        old = self.facts.get(node)
        self.facts[node] = fact if old is None else (join(old, fact) or fact)

    def record_backward(self, site: BackwardSite) -> None:
        index = self._backward_seen.get(site.call)
        if index is not None:
            old = self.backward_sites[index]
            if site.fact is not None:
                self.backward_sites[index] = BackwardSite(old.call, old.value, join(old.fact, site.fact),
                                                          old.function, old.loop)
            return
        self._backward_seen[site.call] = len(self.backward_sites)
        self._sites_by_function.setdefault(site.function, []).append(len(self.backward_sites))
        self.backward_sites.append(site)

    def backwarded_in(self, fn: FunctionInfo) -> frozenset[int]:
        """Origins a backward call inside ``fn`` (already walked) runs on."""
        out: set[int] = set()
        for index in self._sites_by_function.get(fn, ()):
            fact = self.backward_sites[index].fact
            if fact is not None:
                out.update(fact.real_sources())
        return frozenset(out)

    def where(self, node: ast.AST) -> str:
        """``line 12`` (or ``cell 3, line 4`` in a notebook), as the user sees it."""
        cell, span = self.ctx.user_span(self.ctx.span(node))
        return f"cell {cell}, line {span.line}" if cell is not None else f"line {span.line}"

    # -- queries -----------------------------------------------------------
    def fact(self, node: ast.AST) -> Optional[GradFact]:
        return self.facts.get(node)

    def carries_graph(self, node: ast.AST) -> bool:
        """True if ``node`` holds an autograd graph built in this file (not a bare leaf)."""
        fact = self.facts.get(node)
        return fact is not None and fact.real and not fact.leaf

    def origin(self, origin_id: int) -> Origin:
        return self.origins[origin_id]

    def explain(self, fact: GradFact) -> list[Origin]:
        """The origins of a fact, earliest first (real ones only)."""
        ids = sorted(fact.real_sources(), key=lambda i: (_line(self.origins[i].node), i))
        return [self.origins[i] for i in ids]

    def grad_enabled_at(self, node: ast.AST) -> bool:
        stmt = self.scopes.statement_of(node)
        if stmt is None:
            return True
        found = self.stmt_grad.get(stmt)
        return self.scopes.grad_enabled(node) if found is None else found

    def binding_of(self, name: ast.Name) -> Optional[ast.AST]:
        """The statement whose binding of ``name`` was live when it was read."""
        return self.bind_sites.get(name)

    def backward_sources(self, loop: Optional[LoopInfo], fn: FunctionInfo) -> frozenset[int]:
        """Origins that a backward call in ``loop`` (or ``fn`` when loop is None) runs on."""
        if loop is not None:
            return frozenset(self._loop_sources.get(loop, ()))
        return frozenset(self._fn_sources.get(fn, ()))

    def backward_sites_in(self, loop: Optional[LoopInfo], fn: FunctionInfo) -> list[BackwardSite]:
        """Backward sites of ``fn`` (``loop`` None) or inside ``loop``, in order; the sites
        are indexed by loop once (rebuilt when a site is added), so a query costs its answer."""
        sites = self.backward_sites
        if loop is None:
            return [sites[i] for i in self._sites_by_function.get(fn, ())]
        index = self._sites_by_loop
        if index is None or index[0] != len(sites):
            by_loop: dict[LoopInfo, list[int]] = {}
            for i, site in enumerate(sites):
                for lp in site.loop.chain() if site.loop is not None else ():
                    by_loop.setdefault(lp, []).append(i)
            index = self._sites_by_loop = (len(sites), by_loop)
        return [sites[i] for i in index[1].get(loop, ())]

    @property
    def consumers(self) -> Consumers:
        if self._consumers is None:
            from preflight.analysis.consumers import Consumers

            self._consumers = Consumers(self.scopes)
        return self._consumers


def _line(node: ast.AST) -> int:
    return getattr(node, "lineno", 0)


def _callee_first(scopes: ScopeIndex) -> list[FunctionInfo]:
    """Functions ordered so that (non-recursive) callees come before callers."""
    callees: dict[FunctionInfo, list[FunctionInfo]] = {}
    for call, (target, _) in scopes.bindings.calls.items():
        caller = scopes.function_of(call)
        callees.setdefault(caller, []).append(target)
    order: list[FunctionInfo] = []
    state: dict[FunctionInfo, int] = {}
    # forward() of local modules first: module calls are not in the call graph
    functions = sorted(scopes.functions.values(), key=lambda f: (
        f.is_module_scope, not (f.name == "forward" and f.cls is not None), f.line))
    for root in functions:
        if root in state:
            continue
        stack: list[tuple[FunctionInfo, int]] = [(root, 0)]
        state[root] = 1
        while stack:
            fn, i = stack.pop()
            children = callees.get(fn, [])
            if i < len(children):
                stack.append((fn, i + 1))
                child = children[i]
                if child not in state:
                    state[child] = 1
                    stack.append((child, 0))
            else:
                state[fn] = 2
                order.append(fn)
    return order


def grad_flow(ctx: FileContext) -> GradFlow:
    """The file's grad provenance, computed once per file and shared by all rules."""
    return ctx.cached("dataflow", lambda: GradFlow(ctx, scope_index(ctx)))
