"""Gradient bookkeeping per function: backward, optimizer steps, gradient resets, scalers.

Built once per file (``grad_steps(ctx)``) from the shared call index; read by the
optimizer-step rules (PF102-PF107). Every call of the file is classified at most
once into a :class:`GradEvent`:

* ``backward``: ``x.backward()``, ``accelerator/fabric/engine.backward(x)``,
  ``scaler.scale(x).backward()``, ``self.manual_backward(x)``; ``grad``:
  ``torch.autograd.grad(...)``;
* ``step``: ``opt.step()`` on something bound to an optimizer, or ``scaler.step(opt)``
  on an optimizer or with a known scaler (then ``scaler`` names the scaler);
* ``zero``: ``opt.zero_grad(...)`` on a known optimizer; ``zero-model``:
  ``model.zero_grad()`` on a known module; ``reset``: a reset preflight cannot tie to
  one optimizer (``x.zero_grad()`` on an unknown receiver, ``p.grad = None``,
  ``p.grad.zero_()``, ``del p.grad``, a local helper that does one of these);
* ``unscale`` / ``update`` / ``scale``: ``GradScaler`` methods; ``clip``:
  ``torch.nn.utils.clip_grad_norm_`` / ``clip_grad_value_``;
* ``opaque``: a call preflight cannot see into that receives an optimizer or a
  scaler, or a local helper that receives a scaler (it may step, zero, unscale or
  update it).

Keys are the receiver's source text (``opt``, ``self.optimizer``); two keys name the
same optimizer when their text or their binding is the same.
"""

from __future__ import annotations

import ast
import bisect
from typing import TYPE_CHECKING, Iterable, Optional

from preflight._record import dataclass, field
from preflight.analysis.bindings import MODULE, OPTIMIZER, Binding
from preflight.analysis.scopes import FunctionInfo, LoopInfo, ScopeIndex, scope_index
from preflight.analysis.syntax import dotted_name
from preflight.analysis.training import backward_value

if TYPE_CHECKING:
    from preflight.analysis.context import FileContext

CLIP_FUNCTIONS = frozenset({
    "torch.nn.utils.clip_grad_norm_", "torch.nn.utils.clip_grad_value_",
    "torch.nn.utils.clip_grad.clip_grad_norm_", "torch.nn.utils.clip_grad.clip_grad_value_",
    "torch.nn.utils.clip_grad_norm", "torch.nn.utils.clip_grad.clip_grad_norm",
})
SCALER_CLASSES = ("GradScaler", "ShardedGradScaler")
_RESETS = frozenset({"reset", "zero", "zero-model"})
# the methods whose call the loop of ``_build`` may make an event of (any other attribute call
# can only be a helper call or an opaque call handed an optimizer)
_EVENT_METHODS = frozenset({"backward", "manual_backward", "step", "zero_grad", "zero_", "unscale_",
                            "update", "scale"})
# the last name component of every call preflight needs qualified
_QUALIFIED_LAST = frozenset({
    *(q.rsplit(".", 1)[-1] for q in CLIP_FUNCTIONS), *SCALER_CLASSES, "grad", "vjp"})


@dataclass(eq=False)
class GradEvent:
    kind: str
    node: ast.AST
    function: FunctionInfo
    loop: Optional[LoopInfo]
    key: Optional[str] = None  # the optimizer (step/zero/unscale) or module (zero-model)
    binding: Optional[Binding] = None
    scaler: Optional[str] = None  # scaler key of scaler.step/unscale_/update/scale
    value: Optional[ast.expr] = None  # what backward differentiates

    @property
    def pos(self) -> tuple[int, int]:
        return (getattr(self.node, "lineno", 0), getattr(self.node, "col_offset", 0))

    def in_loop(self, loop: LoopInfo) -> bool:
        cur = self.loop
        while cur is not None:
            if cur is loop:
                return True
            cur = cur.parent
        return False


@dataclass
class GradSteps:
    scopes: ScopeIndex
    events: list[GradEvent] = field(default_factory=list)
    by_function: dict[FunctionInfo, list[GradEvent]] = field(default_factory=dict)
    by_node: dict[ast.AST, GradEvent] = field(default_factory=dict)
    resetting: set[FunctionInfo] = field(default_factory=set)  # helpers that zero gradients
    backwarding: set[FunctionInfo] = field(default_factory=set)  # helpers that differentiate
    scalers: dict[str, ast.AST] = field(default_factory=dict)  # scaler key -> where created
    disabled_scalers: set[str] = field(default_factory=set)  # GradScaler(enabled=False)
    scaler_mentions: list[ast.AST] = field(default_factory=list)
    manual_lightning: set[object] = field(default_factory=set)  # ClassInfo with manual opt.
    optimizer_names: set[str] = field(default_factory=set)
    _positions: dict[FunctionInfo, tuple[list[tuple[int, int]], list[GradEvent]]] = field(
        default_factory=dict, repr=False)
    _by_loop: Optional[dict[LoopInfo, list[GradEvent]]] = field(default=None, repr=False)

    def of(self, fn: FunctionInfo) -> list[GradEvent]:
        return self.by_function.get(fn, [])

    def inside(self, fn: FunctionInfo, stmt: ast.AST) -> list[GradEvent]:
        """``fn``'s events that lie inside ``stmt``, in source order (binary search)."""
        index = self._positions.get(fn)
        if index is None:
            ordered = sorted(self.of(fn), key=lambda e: _position(e.node))
            index = ([_position(e.node) for e in ordered], ordered)
            self._positions[fn] = index
        keys, ordered = index
        start = (stmt.lineno, stmt.col_offset)  # type: ignore[attr-defined]
        end = (stmt.end_lineno, stmt.end_col_offset)  # type: ignore[attr-defined]
        return ordered[bisect.bisect_left(keys, start):bisect.bisect_left(keys, end)]

    def in_loop(self, loop: LoopInfo) -> Iterable[GradEvent]:
        """The events of ``loop.function`` inside ``loop`` (nested loops included), in order;
        indexed once per file, so n loops in one function cost n, not n * n."""
        index = self._by_loop
        if index is None:
            index = self._by_loop = {}
            for fn, events in self.by_function.items():
                for e in events:
                    cur = e.loop
                    while cur is not None:
                        if cur.function is fn:
                            index.setdefault(cur, []).append(e)
                        cur = cur.parent
        return iter(index.get(loop, ()))

    def same_optimizer(self, a: GradEvent, b: GradEvent) -> bool:
        if a.key is not None and a.key == b.key:
            return True
        return a.binding is not None and a.binding is b.binding

    def resets(self, event: GradEvent, step: GradEvent) -> bool:
        """Whether ``event`` zeroes (or may zero) the gradients ``step`` applies."""
        if event.kind == "reset":
            return True
        if event.kind == "zero":
            return self.same_optimizer(event, step)
        if event.kind == "zero-model":
            return True
        if event.kind == "opaque":
            return event.key is not None and event.key in (step.key, step.scaler)
        return False

    def model_of_optimizer(self, step: GradEvent, model_key: str) -> bool:
        """``model.zero_grad()`` clears ``step``'s optimizer: it was built on ``model``."""
        b = step.binding
        node = b.node if b is not None else None
        if not isinstance(node, ast.Call) or not node.args:
            return False
        wanted = model_key
        for sub in ast.walk(node.args[0]):
            if isinstance(sub, (ast.Name, ast.Attribute)) and _text(sub) == wanted:
                return True
        return False


def _text(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except Exception:  # pragma: no cover - defensive
        return ""


def is_scaler_class(qual: Optional[str]) -> bool:
    return bool(qual) and qual.rsplit(".", 1)[-1] in SCALER_CLASSES  # type: ignore[union-attr]


def _optimizer_arg(call: ast.Call) -> Optional[ast.expr]:
    """The one optimizer of ``scaler.step(opt)`` / ``scaler.unscale_(opt)``, positional or given as
    ``optimizer=opt`` (GradScaler's parameter name); None for any other argument list."""
    if len(call.args) == 1 and not call.keywords and not isinstance(call.args[0], ast.Starred):
        return call.args[0]
    if not call.args and len(call.keywords) == 1 and call.keywords[0].arg == "optimizer":
        return call.keywords[0].value
    return None


def _receiver_is_grad(node: ast.AST) -> bool:
    """``p.grad`` or ``p.grad.data``."""
    if isinstance(node, ast.Attribute) and node.attr == "data":
        node = node.value
    return isinstance(node, ast.Attribute) and node.attr == "grad"


def _build(ctx: FileContext) -> GradSteps:
    scopes = scope_index(ctx)
    bindings = scopes.bindings
    out = GradSteps(scopes)
    imports = scopes.imports

    def add(event: GradEvent) -> None:
        event.loop = scopes.loop_of(event.node)  # only for the few calls that matter
        out.events.append(event)
        out.by_node[event.node] = event

    for node in ctx.nodes(ast.Assign):
        if isinstance(node.value, ast.Call) and is_scaler_class(imports.qualify(node.value.func)):
            for t in node.targets:
                key = _text(t)
                out.scalers[key] = node
                enabled = next((k.value for k in node.value.keywords if k.arg == "enabled"), None)
                if isinstance(enabled, ast.Constant) and enabled.value is False:
                    out.disabled_scalers.add(key)
    for call, _ in bindings.call_functions:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "scale" and len(call.args) == 1:
            out.scalers.setdefault(_text(func.value), call)

    # last name components that some optimizer is bound to: a cheap pre-filter for _opaque
    out.optimizer_names = {name for (_, name), b in bindings.names.items() if b.kind == OPTIMIZER}
    out.optimizer_names.update(a for (_, a), b in bindings.attrs.items() if b.kind == OPTIMIZER)
    helper_calls: list[tuple[ast.Call, FunctionInfo, FunctionInfo]] = []
    resolved = bindings.calls  # call -> (local function it resolves to, ...): see target_of
    # ``_opaque`` needs an optimizer or a scaler some argument may be (most files have neither)
    may_hand = bool(out.optimizer_names or out.scalers)
    attribute = ast.Attribute
    for call, fn in bindings.call_functions:
        func = call.func
        loop = None  # set by add()
        is_attr = type(func) is attribute
        last = func.attr if is_attr else getattr(func, "id", None)  # type: ignore[attr-defined]
        if last in _QUALIFIED_LAST:
            qual = imports.qualify(func) or ""
            if is_scaler_class(qual):
                out.scaler_mentions.append(call)
            if qual in CLIP_FUNCTIONS:
                add(GradEvent("clip", call, fn, loop))
                continue
            if qual in ("torch.autograd.grad", "torch.autograd.functional.vjp"):
                add(GradEvent("grad", call, fn, loop))
                continue
        found_target = resolved.get(call)
        target = found_target[0] if found_target is not None else None
        if target is not None and target is not fn:
            helper_calls.append((call, fn, target))
            if out.scalers and (call.args or call.keywords):
                _opaque(out, call, fn, loop, bindings, add, scalers_only=True)
        if not is_attr:
            if target is None and may_hand:
                _opaque(out, call, fn, loop, bindings, add)
            continue
        if last not in _EVENT_METHODS:
            if target is None and may_hand:
                _opaque(out, call, fn, loop, bindings, add)
            continue
        attr = func.attr  # type: ignore[attr-defined]
        receiver = func.value  # type: ignore[attr-defined]
        if backward_value(call) is not None:
            scaler = None
            if isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Attribute) and (
                    receiver.func.attr == "scale"):
                scaler = _text(receiver.func.value)
            add(GradEvent("backward", call, fn, loop, scaler=scaler, value=backward_value(call)))
            continue
        if attr == "step":
            found = bindings.lookup(receiver, fn)
            if found is not None and found.kind == OPTIMIZER:
                add(GradEvent("step", call, fn, loop, _text(receiver), found))
                continue
            given = _optimizer_arg(call)
            if given is not None:
                arg = bindings.lookup(given, fn)
                if (arg is not None and arg.kind == OPTIMIZER) or _text(receiver) in out.scalers:
                    add(GradEvent("step", call, fn, loop, _text(given), arg,
                                  scaler=_text(receiver)))
                    continue
        elif attr == "zero_grad":
            found = bindings.lookup(receiver, fn)
            if found is not None and found.kind == OPTIMIZER:
                add(GradEvent("zero", call, fn, loop, _text(receiver), found))
            elif found is not None and found.kind == MODULE and not found.steps:
                add(GradEvent("zero-model", call, fn, loop, _text(receiver), found))
            else:
                add(GradEvent("reset", call, fn, loop, _text(receiver)))
            continue
        elif attr == "zero_" and _receiver_is_grad(receiver):
            add(GradEvent("reset", call, fn, loop))
            continue
        elif attr == "unscale_" and (unscaled := _optimizer_arg(call)) is not None:
            found = bindings.lookup(unscaled, fn)
            add(GradEvent("unscale", call, fn, loop, _text(unscaled), found,
                          scaler=_text(receiver)))
            continue
        elif attr == "update" and len(call.args) <= 1 and not call.keywords:
            add(GradEvent("update", call, fn, loop, scaler=_text(receiver)))
            continue
        elif attr == "scale" and len(call.args) == 1:
            add(GradEvent("scale", call, fn, loop, scaler=_text(receiver)))
            continue
        if target is None:
            _opaque(out, call, fn, loop, bindings, add)

    for stmt in ctx.nodes(ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete):
        targets = stmt.targets if isinstance(stmt, (ast.Assign, ast.Delete)) else [stmt.target]
        if any(_receiver_is_grad(t) for t in targets):
            fn = scopes.function_of(stmt)
            add(GradEvent("reset", stmt, fn, scopes.loop_of(stmt)))
    if ctx.mentions("GradScaler"):  # in every name below and in every import of one
        scaler_aliases = {name for name, target in imports.aliases.items() if is_scaler_class(target)}
        if scaler_aliases:
            names: list[ast.Name] = ctx.select(
                ast.Name, lambda n: n.id in scaler_aliases and isinstance(n.ctx, ast.Load))
            out.scaler_mentions.extend(names)
        attrs: list[ast.Attribute] = ctx.select(
            ast.Attribute, lambda a: a.attr in SCALER_CLASSES and isinstance(a.ctx, ast.Load))
        out.scaler_mentions.extend(attrs)

    _summaries(out, helper_calls, scopes, add)
    for cls in scopes.classes.values():
        if cls.is_lightning and manual_optimization(ctx, cls.node):
            out.manual_lightning.add(cls)
    out.events.sort(key=lambda e: e.pos)
    for event in out.events:
        out.by_function.setdefault(event.function, []).append(event)
    return out


# LightningModule methods handed an optimizer that neither clear its gradients nor step it:
# ``toggle_optimizer`` only sets ``requires_grad`` (it does not zero), ``untoggle_optimizer``
# restores it, ``clip_gradients`` clips.
_NEITHER_ZERO_NOR_STEP = frozenset({"toggle_optimizer", "untoggle_optimizer", "toggled_optimizer", "clip_gradients",
                                    "lr_schedulers"})


def _opaque(out: GradSteps, call: ast.Call, fn: FunctionInfo, loop: Optional[LoopInfo],
            bindings: object, add, scalers_only: bool = False) -> None:
    """A call preflight cannot see into that is handed an optimizer or a scaler (a local
    helper handed a scaler: it may unscale or update it under another name)."""
    if not out.optimizer_names and not out.scalers:
        return  # no argument can be an optimizer or a scaler (most model and pipeline files)
    lookup = bindings.lookup  # type: ignore[attr-defined]
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in _NEITHER_ZERO_NOR_STEP and isinstance(
            func.value, ast.Name) and func.value.id == "self":
        return
    for arg in [*call.args, *(k.value for k in call.keywords)]:
        if isinstance(arg, ast.Starred):
            arg = arg.value
        if not isinstance(arg, (ast.Name, ast.Attribute)):
            continue
        last = arg.id if isinstance(arg, ast.Name) else arg.attr
        if last not in out.optimizer_names and not out.scalers:
            continue
        key = dotted_name(arg)
        if key is None:
            continue
        found = None if key in out.scalers else lookup(arg, fn)
        if key in out.scalers or (not scalers_only and found is not None
                                  and found.kind == OPTIMIZER):
            if not scalers_only and (out.scopes.imports.qualify(call.func) or "").startswith(
                    "torch."):
                return  # torch's own functions (clip_grad_norm_, ...) neither zero nor step
            add(GradEvent("opaque", call, fn, loop, key, found))
            return


def _summaries(out: GradSteps, helper_calls: list[tuple[ast.Call, FunctionInfo, FunctionInfo]],
               scopes: ScopeIndex, add) -> None:
    """Helpers that (transitively) reset gradients or differentiate become events at their calls."""
    callers: dict[FunctionInfo, set[FunctionInfo]] = {}
    for _, fn, target in helper_calls:
        callers.setdefault(target, set()).add(fn)
    for flag, kinds in ((out.resetting, _RESETS), (out.backwarding, {"backward", "grad"})):
        queue = [e.function for e in out.events if e.kind in kinds]
        while queue:
            fn = queue.pop()
            if fn in flag:
                continue
            flag.add(fn)
            queue.extend(callers.get(fn, ()))
    for call, fn, target in helper_calls:
        loop = None  # set by add()
        if target in out.resetting:
            add(GradEvent("reset", call, fn, loop))
        if target in out.backwarding and call not in out.by_node:
            add(GradEvent("helper-backward", call, fn, loop))


def manual_optimization(ctx: FileContext, cls: ast.ClassDef) -> bool:
    for node in ast.walk(cls):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and (
                node.value.value is False):
            for t in node.targets:
                if isinstance(t, ast.Attribute) and t.attr == "automatic_optimization":
                    return True
        if isinstance(node, ast.FunctionDef) and node.name == "automatic_optimization":
            for sub in ast.walk(node):
                if isinstance(sub, ast.Return) and isinstance(sub.value, ast.Constant) and (
                        sub.value.value is False):
                    return True
    return False


def grad_steps(ctx: FileContext) -> GradSteps:
    """The file's gradient bookkeeping events, built once per file."""
    return ctx.cached("optimizers.grad_steps", lambda: _build(ctx))


def _position(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def statement_contains(stmt: ast.AST, node: ast.AST) -> bool:
    """Whether ``node`` lies inside ``stmt`` (by source range)."""
    start = (stmt.lineno, stmt.col_offset)  # type: ignore[attr-defined]
    end = (stmt.end_lineno, stmt.end_col_offset)  # type: ignore[attr-defined]
    pos = _position(node)
    return start <= pos and pos < end
