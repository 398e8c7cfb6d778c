"""Evaluation facts: model mode switches, forwards, and who needs gradients.

Built once per file (``evaluation(ctx)``), linear in the file:

* **Mode events.** ``m.eval()``, ``m.train()``, ``m.train(True/False)`` (a
  non-constant ``train(flag)`` is ``unknown``), keyed per model *object*: the
  binding from :mod:`preflight.analysis.bindings` (wrappers resolved to the
  module they wrap) or, for models preflight cannot bind, the expression text
  in its scope. A call to a local helper contributes the helper's first and
  last mode per object (``Summary``), with the helper's parameters mapped to the
  caller's arguments, so ``evaluate(model)`` that calls ``model.eval()`` is an
  eval event at the call (FN-10).
* **Forwards.** Calls of something bound to a module with parameters
  (``model(x)``, ``self.model(x)``, ``model.forward(x)``), or of an object the
  same function switched with ``.eval()`` (it is a module even when preflight
  cannot bind it).
* **Needs gradients.** A function that differentiates (``backward``,
  ``torch.autograd.grad``, ``torch.func``, ``requires_grad_``, ``.grad``,
  ``enable_grad``, ``create_graph``), directly or through local helpers.
"""

from __future__ import annotations

import ast
import bisect
from typing import TYPE_CHECKING, Optional

from preflight._record import dataclass, field
from preflight.analysis.bindings import MODULE, Binding
from preflight.analysis.scopes import FunctionInfo, ScopeIndex, scope_index
from preflight.analysis.syntax import dotted_name

if TYPE_CHECKING:
    from preflight.analysis.context import FileContext

EVAL, TRAIN, UNKNOWN = "eval", "train", "unknown"
_GRAD_QUALS = ("torch.autograd.grad", "torch.autograd.functional.", "torch.func.",
               "torch.autograd.backward", "functorch.")
_GRAD_ATTRS = frozenset({"backward", "manual_backward", "requires_grad_", "retain_grad",
                         "register_hook"})

Key = tuple


@dataclass(frozen=True)
class ModeEvent:
    node: ast.Call  # the ``.eval()`` call, or the call of a helper that switches
    key: Key
    first: str  # the mode the object is put in first (a helper may switch twice)
    last: str  # the mode it is left in
    origin: ast.Call  # the ``.eval()`` / ``.train()`` call itself
    helper: Optional[FunctionInfo] = None


@dataclass
class Evaluation:
    scopes: ScopeIndex
    events: dict[FunctionInfo, list[ModeEvent]] = field(default_factory=dict)
    forwards: dict[FunctionInfo, list[tuple[ast.Call, Key]]] = field(default_factory=dict)
    needs_grad: dict[FunctionInfo, ast.AST] = field(default_factory=dict)  # fn -> evidence node
    frozen: set[Key] = field(default_factory=set)  # objects ``requires_grad_(False)`` was called on
    # functions that call ``torch.autograd.grad`` / ``torch.func`` themselves (saliency, penalties)
    input_grads: set[FunctionInfo] = field(default_factory=set)

    _timelines: dict[FunctionInfo, dict[Key, tuple[list[tuple[int, int]], list[ModeEvent]]]] = (
        field(default_factory=dict))
    _loop_ends: Optional[dict[FunctionInfo, int]] = None

    def key_of(self, expr: ast.AST, fn: FunctionInfo) -> Optional[Key]:
        return _key(self.scopes, expr, fn)

    def latest_before(self, fn: FunctionInfo, key: Key, node: ast.AST) -> Optional[ModeEvent]:
        """The last mode event of ``fn`` for one object before ``node`` (per-function index)."""
        per_fn = self._timelines.get(fn)
        if per_fn is None:
            per_fn = self._timelines[fn] = {}
            for ev in self.events.get(fn, ()):  # already in source order
                positions, evs = per_fn.setdefault(ev.key, ([], []))
                positions.append((ev.node.lineno, ev.node.col_offset))
                evs.append(ev)
        found = per_fn.get(key)
        if found is None:
            return None
        index = bisect.bisect_left(found[0], (getattr(node, "lineno", 0),
                                              getattr(node, "col_offset", 0)))
        return found[1][index - 1] if index else None

    def first_training_loop_end(self, fn: FunctionInfo) -> Optional[int]:
        """The last line of the earliest-ending training loop of ``fn``."""
        if self._loop_ends is None:
            ends: dict[FunctionInfo, int] = {}
            for loop in self.scopes.loops.values():
                if loop.training:
                    end = loop.node.end_lineno or loop.node.lineno
                    ends[loop.function] = min(end, ends.get(loop.function, end))
            self._loop_ends = ends
        return self._loop_ends.get(fn)


def _innermost(binding: Binding) -> Binding:
    while binding.inner is not None:
        binding = binding.inner
    return binding


_SAME_OBJECT = frozenset({"to", "cuda", "cpu", "half", "float", "double", "bfloat16", "train",
                          "eval", "requires_grad_"})


def _key(scopes: ScopeIndex, expr: ast.AST, fn: FunctionInfo) -> Optional[Key]:
    while isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and (
            expr.func.attr in _SAME_OBJECT):
        expr = expr.func.value  # ``model.to(device).train()`` switches ``model``
    binding = scopes.bindings.lookup(expr, fn)
    if binding is not None:
        if binding.kind != MODULE:
            return None
        return ("b", id(_innermost(binding)))
    name = dotted_name(expr)
    if name is None:
        return None
    name = _strip_wrapper(name)
    root, _, rest = name.partition(".")
    if root in ("self", "cls"):
        cls = fn.method_class()
        return ("t", id(cls) if cls is not None else id(fn), name)
    if root in fn.params and not fn.is_module_scope:
        return ("p", id(fn), root, rest)
    scope = scopes.scope_of_name(root, fn)
    if scopes.imports.aliases.get(root) is not None and scope.is_module_scope:
        return None  # a module attribute (``torch.eval``)
    return ("t", id(scope), name)


def mode_of(call: ast.Call) -> Optional[str]:
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    if func.attr == "eval" and not call.args and not call.keywords:
        return EVAL
    if func.attr == "train":
        arg = call.args[0] if call.args else next(
            (k.value for k in call.keywords if k.arg == "mode"), None)
        if arg is None:
            return TRAIN
        if isinstance(arg, ast.Constant) and isinstance(arg.value, bool):
            return TRAIN if arg.value else EVAL
        return UNKNOWN
    return None


def _build(ctx: FileContext) -> Evaluation:
    scopes = scope_index(ctx)
    out = Evaluation(scopes)
    bindings = scopes.bindings
    direct: dict[FunctionInfo, list[tuple[ast.Call, Key, str]]] = {}
    helper_calls: dict[FunctionInfo, list[tuple[ast.Call, FunctionInfo]]] = {}
    needs_direct: dict[FunctionInfo, ast.AST] = {}
    eval_texts: dict[FunctionInfo, set[str]] = {}
    for call, fn in bindings.call_functions:
        func = call.func
        mode = mode_of(call)
        if mode is not None and isinstance(func, ast.Attribute):
            key = _key(scopes, func.value, fn)
            if key is not None:
                direct.setdefault(fn, []).append((call, key, mode))
                if mode == EVAL:
                    eval_texts.setdefault(fn, set()).add(_strip_wrapper(dotted_name(func.value)))
        if isinstance(func, ast.Attribute) and func.attr == "requires_grad_" and (
                call.args and _is_false(call.args[0])):
            frozen_key = _key(scopes, func.value, fn)
            if frozen_key is not None:
                out.frozen.add(frozen_key)
        target = bindings.target_of(call)
        if target is not None and target is not fn and not target.is_module_scope:
            helper_calls.setdefault(fn, []).append((call, target))
        qual = scopes.imports.qualify(func) or ""
        differentiates = qual.startswith(_GRAD_QUALS) or qual in (
            "torch.enable_grad", "torch.set_grad_enabled")
        if isinstance(func, ast.Attribute) and func.attr in _GRAD_ATTRS:
            differentiates = differentiates or not (
                func.attr == "requires_grad_" and call.args and _is_false(call.args[0]))
        differentiates = differentiates or any(
            k.arg in ("create_graph", "retain_graph") or (
                k.arg == "requires_grad" and not _is_false(k.value)) for k in call.keywords)
        if differentiates:
            needs_direct.setdefault(fn, call)
            if qual.startswith(_GRAD_QUALS) and qual != "torch.autograd.backward":
                out.input_grads.add(fn)
    # reading ``.grad`` / ``.requires_grad``, or setting ``requires_grad``
    for attr in ctx.select(ast.Attribute, _grad_attribute):
        needs_direct.setdefault(scopes.function_of(attr), attr)
    # needs-grad propagates from callees to callers
    callers: dict[FunctionInfo, list[FunctionInfo]] = {}
    for fn, calls in helper_calls.items():
        for _, target in calls:
            callers.setdefault(target, []).append(fn)
    out.needs_grad = dict(needs_direct)
    queue = list(needs_direct)
    while queue:
        fn = queue.pop()
        for caller in callers.get(fn, ()):
            if caller not in out.needs_grad:
                out.needs_grad[caller] = out.needs_grad[fn]
                queue.append(caller)
    # forwards
    for call, fn in bindings.call_functions:
        func = call.func
        module = func
        if isinstance(func, ast.Attribute) and func.attr == "forward":
            module = func.value
        if not isinstance(module, (ast.Name, ast.Attribute)):
            continue
        binding = bindings.lookup(module, fn)
        if binding is not None:
            if binding.kind != MODULE or binding.input_dependent() or binding.steps:
                continue
        elif _strip_wrapper(dotted_name(module)) not in eval_texts.get(fn, ()) and not _switched_by_a_caller(
                scopes, module, fn, eval_texts):
            continue
        key = _key(scopes, module, fn)
        if key is not None and key not in out.frozen:
            out.forwards.setdefault(fn, []).append((call, key))
    # mode summaries, callees first (memoised, cycles cut)
    summaries: dict[FunctionInfo, dict[Key, tuple[str, str, ast.Call]]] = {}
    active: set[FunctionInfo] = set()

    def events_of(fn: FunctionInfo) -> list[ModeEvent]:
        found = out.events.get(fn)
        if found is not None:
            return found
        active.add(fn)
        evs = [ModeEvent(c, k, m, m, c) for c, k, m in direct.get(fn, ())]
        for call, target in helper_calls.get(fn, ()):
            if target in active:
                continue
            summary = summary_of(target)
            if not summary:
                continue
            args = dict(bindings.iter_arg_params(call, target))
            for key, (first, last, origin) in summary.items():
                mapped = _map_key(scopes, key, target, args, call, fn)
                if mapped is not None:
                    evs.append(ModeEvent(call, mapped, first, last, origin, target))
        evs.sort(key=lambda e: (e.node.lineno, e.node.col_offset))
        active.discard(fn)
        out.events[fn] = evs
        return evs

    def summary_of(fn: FunctionInfo) -> dict[Key, tuple[str, str, ast.Call]]:
        found = summaries.get(fn)
        if found is not None:
            return found
        result: dict[Key, tuple[str, str, ast.Call]] = {}
        for ev in events_of(fn):
            if ev.key in result:
                first, _, origin = result[ev.key]
                result[ev.key] = (first, ev.last, ev.origin if ev.last == EVAL else origin)
            else:
                result[ev.key] = (ev.first, ev.last, ev.origin)
        summaries[fn] = result
        return result

    for fn in scopes.functions.values():
        if fn in direct or fn in helper_calls:
            events_of(fn)
    # the two closures refer to each other: a cycle that would hold the file's tree
    summary_of = None  # type: ignore[assignment]  # noqa: F811
    return out


def _switched_by_a_caller(scopes: ScopeIndex, module: ast.AST, fn: FunctionInfo,
                          eval_texts: dict[FunctionInfo, set[str]]) -> bool:
    """``module`` is a parameter of ``fn`` (``def propagate(model, ...)``) and a caller passes it
    an object that the caller itself switches with ``.eval()``: a module, even unbound."""
    if not isinstance(module, ast.Name) or module.id not in fn.params or fn.is_module_scope:
        return False
    for site in fn.call_sites:
        if site.constructor:
            continue
        switched = eval_texts.get(site.caller)
        if not switched:
            continue
        for param, arg in scopes.bindings.iter_arg_params(site.call, fn):
            if param == module.id and _strip_wrapper(dotted_name(arg)) in switched:
                return True
    return False


def _map_key(scopes: ScopeIndex, key: Key, callee: FunctionInfo, args: dict[str, ast.expr],
             call: ast.Call, caller: FunctionInfo) -> Optional[Key]:
    if key[0] == "b":
        return key
    if key[0] == "p":
        arg = args.get(key[2])
        if arg is None:
            return None
        if key[3]:
            text = dotted_name(arg)
            if text is None:
                return None
            try:
                arg = ast.parse(f"{text}.{key[3]}", mode="eval").body
            except SyntaxError:  # pragma: no cover - dotted names always parse
                return None
            # attributes of an argument are keyed by their text in the caller
            return _text_key(scopes, arg, caller)
        return _key(scopes, arg, caller)
    if key[0] == "t" and isinstance(key[2], str) and key[2].startswith(("self.", "cls.")):
        func = call.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in (
                "self", "cls") and caller.method_class() is callee.method_class():
            return key
        return None
    # a global is the same object in the caller; so is a closure variable of a function enclosing both
    # (``model`` of ``main`` read by its nested ``_train_epoch`` and ``_eval_epoch``: texar-pytorch
    # PR 311); a local of the helper is not visible there
    if key[0] != "t" or not isinstance(key[2], str):
        return None
    if key[1] == id(scopes.module):
        return key
    if key[1] == id(callee):
        return None
    return key if id(scopes.scope_of_name(key[2].split(".")[0], caller)) == key[1] else None


def map_key(scopes: ScopeIndex, key: Key, callee: FunctionInfo, args: dict[str, ast.expr],
            call: ast.Call, caller: FunctionInfo) -> Optional[Key]:
    """The caller's key for an object a callee knows by ``key`` (a parameter, ``self.x``,
    a global), through the arguments of one call; None when the caller cannot see it."""
    return _map_key(scopes, key, callee, args, call, caller)


def _text_key(scopes: ScopeIndex, expr: ast.AST, fn: FunctionInfo) -> Optional[Key]:
    name = dotted_name(expr)
    if name is None:
        return None
    root = name.split(".")[0]
    if root in ("self", "cls"):
        cls = fn.method_class()
        return ("t", id(cls) if cls is not None else id(fn), name)
    return ("t", id(scopes.scope_of_name(root, fn)), name)


def _strip_wrapper(name: Optional[str]) -> str:
    """``model.module`` -> ``model``: a wrapper switches (and forwards) what it wraps."""
    if name is None:
        return "?"
    while name.endswith((".module", "._orig_mod")):
        name = name.rsplit(".", 1)[0]
    return name


def _is_false(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def evaluation(ctx: FileContext) -> Evaluation:
    """The file's evaluation facts, computed once per file."""
    return ctx.cached("evaluation", lambda: _build(ctx))


def may_matter(ctx: FileContext) -> bool:
    """Whether the evaluation facts can hold anything a rule reports: a mode switch
    (``x.eval()``, ``x.train(...)``) or a training call somewhere in the file. Every mode
    event comes from a switch, and every training loop from a training call; without
    either, a model file or an inference pipeline skips building the facts."""

    def compute() -> bool:
        if scope_index(ctx).training_calls:
            return True
        return any(type(call.func) is ast.Attribute and call.func.attr in ("eval", "train")
                   and mode_of(call) is not None for call in ctx.nodes(ast.Call))

    return bool(ctx.cached("evaluation.may-matter", compute))


def _grad_attribute(attr: ast.Attribute) -> bool:
    return attr.attr == "requires_grad" or (attr.attr == "grad" and isinstance(attr.ctx, ast.Load))
