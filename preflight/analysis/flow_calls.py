"""How a call changes grad facts: forward passes, losses, helpers, torch ops.

Split from :mod:`preflight.analysis.flow_walker` to keep modules small; the
single entry point is :func:`evaluate_call`.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Optional

from preflight.analysis import tensor_ops as ops
from preflight.analysis.bindings import CRITERION, MODULE
from preflight.analysis.dataflow import (
    CONTAINER,
    SCALAR,
    TENSOR,
    UNKNOWN,
    BackwardSite,
    GradFact,
    join,
    join_all,
)

if TYPE_CHECKING:
    from preflight.analysis.flow_walker import FunctionFlow
    from preflight.analysis.scopes import FunctionInfo

_BACKWARD = frozenset({"backward", "manual_backward"})
# Mutators that store their argument whatever the receiver is (list-style names).
_LIST_STORES = frozenset({"append", "extend", "insert", "appendleft", "extendleft"})
# Calls that build an empty container: `add`/`update`/`put` on one of these store values.
_CONTAINER_FACTORIES = frozenset({
    "dict", "set", "list", "collections.defaultdict", "collections.OrderedDict",
    "collections.deque", "collections.Counter", "queue.Queue", "queue.SimpleQueue",
    "queue.LifoQueue", "queue.PriorityQueue",
})
_DISPLAYS = (ast.Dict, ast.Set, ast.List, ast.DictComp, ast.SetComp, ast.ListComp)


def evaluate_call(w: FunctionFlow, e: ast.Call) -> Optional[GradFact]:
    func = e.func
    receiver: Optional[GradFact] = None
    if isinstance(func, ast.Attribute):
        if func.attr in ops.MUTATORS and isinstance(func.value, ast.Name):
            receiver = w.env.get(func.value.id)  # c.append(v) does not read c's graph
        else:
            receiver = w.ev(func.value)
    elif not isinstance(func, ast.Name):
        w.ev(func)
    arg_facts: dict[ast.AST, Optional[GradFact]] = {}
    for arg in e.args:
        arg_facts[arg] = w.ev(arg)
    for kw in e.keywords:
        arg_facts[kw.value] = w.ev(kw.value)
    args = join_all(arg_facts.values())

    if isinstance(func, ast.Attribute):
        attr = func.attr
        if attr in ops.MUTATORS:
            key = w.container_key(func.value)
            if key is not None and (attr in _LIST_STORES or _holds_values(w, key, receiver)):
                value = arg_facts.get(e.args[1]) if attr == "insert" and len(e.args) > 1 else args
                w._add_to_container(key, value)
                return None
        if attr in _BACKWARD:
            tc = w.reach.calls.get(e)
            if tc is not None and tc.value is not None:
                w.flow.record_backward(BackwardSite(e, tc.value, w.flow.facts.get(tc.value), w.fn,
                                                    w.scopes.loop_of(e)))
            return None

    qual = w.imports.qualify(func) if isinstance(func, (ast.Name, ast.Attribute)) else None
    if qual == "torch.autograd.grad":
        create = _keyword(e, "create_graph")
        if isinstance(create, ast.Constant) and create.value is True and args is not None and w.grad:
            return GradFact(args.sources, CONTAINER)
        return None

    target = w.bindings.calls.get(e)
    if target is not None:
        callee, constructor = target
        return None if constructor else _helper(w, e, callee, arg_facts)

    binding = None
    if isinstance(func, (ast.Name, ast.Attribute)):
        binding = w.bindings.lookup(func, w.fn)
        if binding is None and isinstance(func, ast.Attribute) and func.attr == "forward":
            binding = w.bindings.lookup(func.value, w.fn)
            if binding is not None and binding.kind != MODULE:
                binding = None
    elif isinstance(func, ast.Call):
        binding = w.bindings.classify(func, w.fn)
    if binding is not None:
        if binding.kind == CRITERION:
            return w.loss(e, args, binding)
        if binding.kind == MODULE:
            return w.forward(e, binding, args)
        return None

    if isinstance(func, ast.Name) and qual == func.id and func.id not in w.fn.bound:
        return _builtin(w, func.id, args)
    if qual:
        if qual.startswith(ops.HOST_LIBRARIES):
            return None
        if ops.is_functional_loss(qual):
            return w.loss(e, args, None)
        if qual.startswith("torch."):
            return _torch_function(w, e, qual, args)
        if qual.startswith(ops.GRAPH_LIBRARIES):
            return GradFact(args.sources, TENSOR) if args is not None and w.grad else None
    if isinstance(func, ast.Attribute) and receiver is not None:
        return _method(w, e, func.attr, receiver, args)
    return None


def _holds_values(w: FunctionFlow, key: str, receiver: Optional[GradFact]) -> bool:
    """True if ``key`` is a container whose ``add``/``update``/``put`` keeps the value.

    ``meter.update(loss)`` on an object the analysis cannot see says nothing about
    ``meter.avg`` (it probably keeps ``loss.item()``): only a receiver known to hold
    tensors, or bound to a dict, set or queue built in this file, counts.
    """
    if receiver is not None and receiver.kind == CONTAINER:
        return True
    keys = _container_keys(w)
    if key.startswith("self."):
        return (w.fn.method_class(), key) in keys
    return (w.scopes.scope_of_name(key, w.fn), key) in keys


def _container_keys(w: FunctionFlow) -> set[tuple[object, str]]:
    """(scope, name) and (class, ``self.x``) bound to a container display or factory."""
    def build() -> set[tuple[object, str]]:
        out: set[tuple[object, str]] = set()
        scopes = w.scopes
        for node in scopes.ctx.nodes(ast.Assign, ast.AnnAssign):
            value = node.value
            if value is None or not (isinstance(value, _DISPLAYS) or (
                    isinstance(value, ast.Call) and (w.imports.qualify(value.func) or "") in (
                    _CONTAINER_FACTORIES))):
                continue
            fn = scopes.function_of(node)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    out.add((scopes.scope_of_name(target.id, fn), target.id))
                elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and (
                        target.value.id in ("self", "cls")):
                    out.add((fn.method_class(), f"self.{target.attr}"))
        return out

    return w.flow.ctx.cached("flow.container_keys", build)


def _helper(w: FunctionFlow, e: ast.Call, callee: FunctionInfo,
            arg_facts: dict[ast.AST, Optional[GradFact]]) -> Optional[GradFact]:
    summary = w.flow.summaries.get(callee)
    if summary is None or summary.fact is None:
        return None
    if summary.elements is not None:
        w.call_elements[e] = tuple(_returned(w, e, callee, part, arg_facts)
                                   for part in summary.elements)
    return _returned(w, e, callee, summary.fact, arg_facts)


def _returned(w: FunctionFlow, e: ast.Call, callee: FunctionInfo, fact: Optional[GradFact],
              arg_facts: dict[ast.AST, Optional[GradFact]]) -> Optional[GradFact]:
    """A callee's return fact as seen by the caller: each graph built in the callee gets
    one origin at the call (so values sharing a graph there share it here too), and a
    graph of its parameters is the graph of the matching arguments."""
    if fact is None:
        return None
    out: Optional[GradFact] = None
    real = fact.real_sources()
    if real and w.grad and callee.grad_enabled:
        done = w.flow.backwarded_in(callee)
        ids = set()
        for inner_id in real:
            inner = w.flow.origins[inner_id]
            ids.add(w.flow.new_origin(
                e, "helper",
                f"`{callee.name}()` returns a value that carries an autograd graph (built at "
                f"{w.flow.where(inner.node)})", backwarded=inner_id in done or inner.backwarded,
                via=inner_id, variant=f":{inner_id}"))
        out = GradFact(frozenset(ids), fact.kind)
    symbolic = {-s - 1 for s in fact.sources if s < 0}
    if symbolic:
        for param, arg in w.bindings.iter_arg_params(e, callee):
            if param in callee.params and callee.params.index(param) in symbolic:
                out = join(out, arg_facts.get(arg))
    return out


def _builtin(w: FunctionFlow, name: str, args: Optional[GradFact]) -> Optional[GradFact]:
    if args is None or name in ops.CUT_BUILTINS:
        return None
    if name in ops.CONTAINER_BUILTINS:
        return GradFact(args.sources, CONTAINER, args.leaf)
    if name in ops.ELEMENT_BUILTINS:
        return GradFact(args.sources, UNKNOWN, args.leaf)
    if name in ("sum", "abs") and w.grad:
        return GradFact(args.sources, TENSOR)
    return None


def _torch_function(w: FunctionFlow, e: ast.Call, qual: str, args: Optional[GradFact]) -> Optional[GradFact]:
    parts = qual.split(".")
    last = parts[-1]
    if qual in ("torch.nn.Parameter", "torch.nn.parameter.Parameter") or (
            _is_true(_keyword(e, "requires_grad")) and (
            last in ops.TORCH_FACTORIES or last in ("tensor", "as_tensor") or last.endswith("_like"))):
        oid = w.flow.new_origin(e, "leaf", f"`{_short(e)}` requires grad (a leaf tensor)", leaf=True)
        return GradFact(frozenset({oid}), TENSOR, leaf=True)
    if args is None or not w.grad:
        return None
    if qual.startswith("torch.distributions."):
        return GradFact(args.sources, UNKNOWN)
    if qual.startswith("torch.nn.functional."):
        return GradFact(args.sources, TENSOR)
    if len(parts) > 2 and parts[1] not in ("linalg", "special", "fft"):
        return None
    if last in ops.TORCH_CUT or last in ops.TORCH_FACTORIES:
        return None
    has_dim = len(e.args) > 1 or _keyword(e, "dim") is not None
    if last in ops.TORCH_CONTAINER or (last in ops.DIM_PAIR_REDUCTIONS and has_dim):
        return GradFact(args.sources, CONTAINER)
    if last in ops.REDUCTIONS and not has_dim:
        return GradFact(args.sources, SCALAR)
    return GradFact(args.sources, TENSOR)


def _method(w: FunctionFlow, e: ast.Call, attr: str, receiver: GradFact,
            args: Optional[GradFact]) -> Optional[GradFact]:
    if attr in ops.CUT_METHODS:
        return None
    if attr == "requires_grad_":
        return receiver
    if receiver.kind == CONTAINER or not receiver.is_tensor:
        if attr in ops.ELEMENT_METHODS:
            return GradFact(receiver.sources, UNKNOWN, receiver.leaf)
        if attr in ("values", "items", "copy"):
            return GradFact(receiver.sources, CONTAINER, receiver.leaf)
    if not w.grad:
        return None
    joined = join(receiver, args) or receiver
    has_dim = bool(e.args) or _keyword(e, "dim") is not None
    if attr in ops.DIM_PAIR_REDUCTIONS and has_dim:
        first = e.args[0] if e.args else None
        if first is None or _is_int(first):
            return GradFact(joined.sources, CONTAINER)
        return GradFact(joined.sources, TENSOR)
    if attr in ops.CONTAINER_METHODS:
        return GradFact(joined.sources, CONTAINER)
    if attr == "to" and _integer_dtype(w, e):
        return None
    if attr in ops.REDUCTIONS and not has_dim:
        return GradFact(joined.sources, SCALAR)
    if attr in ops.TENSOR_METHODS:
        kind = SCALAR if receiver.kind == SCALAR and attr in (
            "float", "double", "half", "bfloat16", "to", "cpu", "cuda", "clone", "contiguous",
            "abs", "neg", "exp", "log", "sqrt", "pow", "mul", "div", "add", "sub") else TENSOR
        return GradFact(joined.sources, kind)
    return None


def _integer_dtype(w: FunctionFlow, e: ast.Call) -> bool:
    for node in [*e.args, *(k.value for k in e.keywords if k.arg == "dtype")]:
        if w.imports.qualify(node) in ops.TORCH_INTEGER_DTYPES:
            return True
    return False


def _keyword(call: ast.Call, name: str) -> Optional[ast.expr]:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


def _is_true(node: Optional[ast.AST]) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _is_int(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp):
        node = node.operand
    return isinstance(node, ast.Constant) and isinstance(node.value, int)


def _short(node: ast.AST) -> str:
    try:
        text = ast.unparse(node)
    except Exception:  # pragma: no cover
        return "tensor"
    return text if len(text) <= 60 else text[:57] + "..."
