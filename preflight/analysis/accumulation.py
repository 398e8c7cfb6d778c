"""Gradient accumulation: who scales the loss, and by what.

For every backward call of the file (``scope_index(ctx).training_calls``) this
module answers, once per file (``accumulation(ctx)``):

* **The accumulation window.** An optimizer step guarded by ``if <...> % N ...:``
  in the loop that also runs the backward outside that guard steps once every N
  micro-batches (``AccumSite.guard`` / ``modulus``); gradients add up in between
  unless a ``zero_grad`` (or ``p.grad = None``) runs outside the guard.
* **The backward owner.** ``loss.backward()``, ``scaler.scale(loss).backward()``,
  ``torch.autograd.backward``, Fabric and Lightning ``manual_backward`` leave the
  scaling to the user; ``accelerator.backward`` divides by the
  ``Accelerator(gradient_accumulation_steps=...)`` it was built with (found
  statically, through parameters of in-file calls); a DeepSpeed engine scales
  itself; anything else is ``unknown``.
* **The scalings of the loss.** The backward value is traced back through the
  assignments of its function (flow-insensitive: every binding of a name counts)
  and through the returns of local helpers; ``/``, ``/=``, ``.div()``,
  ``torch.div``, ``* (1/N)``, ``*= 1/N`` and ``.mean()`` over a stacked window are
  scalings. A multiplication by something that is not a plain number, or an
  unresolved call that is handed the window size, is *opaque*: it might scale.
  Gradients divided in place (``p.grad /= N``, ``p.grad.div_(N)``) count too.
* Lightning: ``training_step`` return values of automatic-optimization modules
  (``LightningSite``), and the ``accumulate_grad_batches`` of a Lightning
  ``Trainer(...)`` constructed in the file (qualified through the imports: a
  local class named ``Trainer`` is not Lightning's).

Nothing here reads comments, strings or identifier words: "same window size"
means the same literal or the same expression (after following one plain
assignment of a name).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Optional

from preflight.analysis.accumulation_guards import (  # noqa: F401  (moved; re-exported)
    _batch_parameter,
    _bound_value,
    _counter_window,
    _in_body,
    _inside,
    _key,
    _modulus,
    _resets,
    _same_block,
    _zeroes_outside,
    is_number,
    same_value,
    text,
)
from preflight.analysis.accumulation_manual import manual_optimization
from preflight.analysis.accumulation_sites import (
    AccumSite,
    Accumulation,
    LightningSite,
    Owner,
    Scaling,
    Trace,
)
from preflight.analysis.bindings import MODULE, OPTIMIZER
from preflight.analysis.micro_steps import micro_step_window, range_count
from preflight.analysis.scopes import FunctionInfo, scope_index
from preflight.analysis.tensor_ops import TENSOR_METHODS

if TYPE_CHECKING:
    from preflight.analysis.context import FileContext

ACCELERATORS = frozenset({"accelerate.Accelerator", "accelerate.accelerator.Accelerator"})
FABRICS = frozenset({"lightning.Fabric", "lightning.fabric.Fabric", "lightning_fabric.Fabric",
                     "lightning.fabric.fabric.Fabric"})
LIGHTNING_TRAINERS = frozenset({
    "pytorch_lightning.Trainer", "pytorch_lightning.trainer.Trainer",
    "pytorch_lightning.trainer.trainer.Trainer", "lightning.Trainer", "lightning.pytorch.Trainer",
    "lightning.pytorch.trainer.Trainer", "lightning.pytorch.trainer.trainer.Trainer",
})
_DIV_METHODS = frozenset({"div", "div_", "true_divide", "true_divide_", "divide"})
_WINDOW_BUILDERS = frozenset({"stack", "cat", "tensor", "as_tensor", "hstack", "vstack"})
MAX_DEPTH = 24


class _Analysis:
    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self.scopes = scope_index(ctx)
        self.imports = self.scopes.imports
        # (function, key) -> values bound to it; key is a Name id or ``self.x``
        self.assigned: dict[tuple[FunctionInfo, str], list[ast.AST]] = {}
        self.attr_assigned: dict[str, list[ast.expr]] = {}
        for node in ctx.nodes(ast.Assign, ast.AugAssign, ast.AnnAssign, ast.withitem, ast.For,
                              ast.AsyncFor, ast.NamedExpr, ast.comprehension):
            fn = self.scopes.function_of(node)
            if isinstance(node, ast.withitem):
                if node.optional_vars is None:
                    continue
                targets = [node.optional_vars]
            elif isinstance(node, ast.Assign):
                targets = node.targets
            else:
                targets = [node.target]
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                # ``logits, loss = model(X, Y)``: each plain name unpacked from a call
                targets = [*targets, *(e for t in node.targets if isinstance(t, (ast.Tuple, ast.List))
                                       for e in t.elts if isinstance(e, ast.Name))]
            for target in targets:
                key = _key(target)
                if key is None:
                    continue
                if key.startswith("self."):
                    if isinstance(node, ast.Assign):
                        self.attr_assigned.setdefault(key, []).append(node.value)
                    continue
                scope = self.scopes.scope_of_name(key, fn)
                self.assigned.setdefault((scope, key), []).append(node)
        self.returns: dict[FunctionInfo, list[ast.expr]] = {}
        for ret in ctx.nodes(ast.Return):
            if ret.value is not None:
                self.returns.setdefault(self.scopes.function_of(ret), []).append(ret.value)
        self.grad_scalings: dict[FunctionInfo, Scaling] = {}
        self._traces: dict[tuple[str, str, FunctionInfo], Trace] = {}
        self._expanded: dict[tuple[FunctionInfo, str, FunctionInfo], tuple[Optional[ast.AST]]] = {}
        for node in ctx.nodes(ast.AugAssign):
            if isinstance(node.op, (ast.Div, ast.Mult)) and ".grad" in text(node.target):
                self.grad_scalings.setdefault(self.scopes.function_of(node),
                                              Scaling(node, "grad", node.value))
        for call in ctx.nodes(ast.Call):
            func = call.func
            if isinstance(func, ast.Attribute) and func.attr in ("div_", "mul_") and (
                    ".grad" in text(func.value) or text(func.value).endswith("grad")):
                self.grad_scalings.setdefault(self.scopes.function_of(call),
                                              Scaling(call, "grad", call.args[0] if call.args else None))

    # -- tracing the loss --------------------------------------------------
    def trace(self, value: ast.expr, fn: FunctionInfo) -> Trace:
        # The trace of a name depends on the name and its function only (flow-insensitive),
        # so every backward of ``loss`` in one function shares it: a script of n training
        # loops costs n bindings, not n traces of n bindings each.
        key = ("name", value.id, fn) if isinstance(value, ast.Name) else None
        done = self._traces.get(key) if key is not None else None
        if done is None:
            done = Trace()
            self._expanded = {}
            self._trace(value, fn, done, set(), 0, True)
            if key is not None:
                self._traces[key] = done
        return Trace(list(done.scalings), done.opaque, list(done.helpers), set(done.batch_unpacks))

    def _trace(self, node: ast.AST, fn: FunctionInfo, out: Trace, seen: set[int], depth: int,
               inline: bool) -> None:
        if depth > MAX_DEPTH or id(node) in seen:
            return
        seen.add(id(node))
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Div):
                if not is_number(node.right, 1):
                    out.scalings.append(Scaling(node, "/", node.right, inline, node.left))
                self._trace(node.left, fn, out, seen, depth + 1, inline)
                return
            if isinstance(node.op, ast.Mult):
                for side, other in ((node.left, node.right), (node.right, node.left)):
                    recip = self._reciprocal(side, fn)
                    if recip is not None:
                        out.scalings.append(Scaling(node, "* (1/N)", recip, inline, other))
                        self._trace(other, fn, out, seen, depth + 1, inline)
                        return
                for side in (node.left, node.right):
                    weight = is_number(side) and 0 < abs(side.value) < 1  # type: ignore[attr-defined]
                    if weight or (not is_number(side) and not self._tensorish(side, fn)):
                        out.opaque = out.opaque or side
                    self._operand(side, fn, out, seen, depth, inline)
                return
            if isinstance(node.op, (ast.Add, ast.Sub)):
                self._operand(node.left, fn, out, seen, depth, inline)
                self._operand(node.right, fn, out, seen, depth, inline)
            return
        if isinstance(node, ast.UnaryOp):
            self._trace(node.operand, fn, out, seen, depth + 1, inline)
            return
        if isinstance(node, ast.Name):
            scope = self.scopes.scope_of_name(node.id, fn)
            bound_to = self.assigned.get((scope, node.id), ())
            if not bound_to:
                out.opaque = out.opaque or node  # a parameter, loop variable, import...
                return
            # A name read again in one trace (also while its own values are being traced, as in
            # ``loss = loss + ...``): another pass adds only what the bindings themselves say
            # (their scalings are in the trace already; an opaque binding still marks this part
            # of the trace), and the values are traced once, by the first pass. Without this a
            # name bound n times and read n times costs n * n. A first pass cut short by the
            # depth limit is forgotten, so a later read nearer the root may go further.
            key = (scope, node.id, fn)
            summary = self._expanded.get(key)
            if summary is not None:
                out.opaque = out.opaque or summary[0]
                return
            self._expanded[key] = (self._binding_opaque(bound_to, fn),)
            for bound in bound_to:
                self._trace_binding(bound, fn, out, seen, depth)
            if not all(v is None or id(v) in seen for v in map(_bound_value, bound_to)):
                del self._expanded[key]
            return
        if isinstance(node, ast.Subscript):
            self._trace(node.value, fn, out, seen, depth + 1, inline)
            return
        if isinstance(node, ast.Attribute):
            self._trace(node.value, fn, out, seen, depth + 1, inline)
            return
        if isinstance(node, ast.Call):
            self._trace_call(node, fn, out, seen, depth, inline)

    def _operand(self, node: ast.AST, fn: FunctionInfo, out: Trace, seen: set[int], depth: int,
                 inline: bool) -> None:
        """An operand of ``+ - *``: its scalings count; an untraceable name in it (a label,
        a target) is data, not a hidden scaling."""
        side = Trace()
        self._trace(node, fn, side, seen, depth + 1, inline)
        out.scalings.extend(side.scalings)
        if side.opaque is not None and not isinstance(side.opaque, ast.Name):
            out.opaque = out.opaque or side.opaque

    def _foreign_call(self, value: ast.AST, fn: FunctionInfo) -> bool:
        """A call of something the file does not define (``model(X, Y)`` of an imported model):
        unpacking its result hides no division by the window unless it is handed the window,
        which the trace's helpers check; a local function's tuple stays opaque."""
        if not isinstance(value, ast.Call):
            return False
        found = self.scopes.bindings.resolve_call(value, fn)
        return found is None

    def _binding_opaque(self, bound_to: list[ast.AST], fn: FunctionInfo) -> Optional[ast.AST]:
        """The first binding that makes a trace opaque by itself (what `_trace_binding` marks
        before it follows the bound value)."""
        for bound in bound_to:
            if isinstance(bound, ast.AugAssign):
                if isinstance(bound.op, ast.Mult) and self._reciprocal(bound.value, fn) is None and (
                        not self._tensorish(bound.value, fn)):
                    return bound
            elif isinstance(bound, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and bound.value is not None:
                if isinstance(bound, ast.Assign) and any(
                        isinstance(t, (ast.Tuple, ast.List)) for t in bound.targets) and not self._foreign_call(
                        bound.value, fn):
                    return bound
            elif not isinstance(bound, ast.withitem):
                return bound
        return None

    def _trace_binding(self, bound: ast.AST, fn: FunctionInfo, out: Trace, seen: set[int],
                       depth: int) -> None:
        if isinstance(bound, ast.AugAssign):
            if isinstance(bound.op, ast.Div):
                out.scalings.append(Scaling(bound, "/=", bound.value))
            elif isinstance(bound.op, ast.Mult):
                recip = self._reciprocal(bound.value, fn)
                if recip is not None:
                    out.scalings.append(Scaling(bound, "* (1/N)", recip))
                elif not self._tensorish(bound.value, fn):
                    out.opaque = out.opaque or bound
            self._trace(bound.value, fn, out, seen, depth + 1, False)
        elif isinstance(bound, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and bound.value is not None:
            if isinstance(bound, ast.Assign) and any(
                    isinstance(t, (ast.Tuple, ast.List)) for t in bound.targets) and not self._foreign_call(
                    bound.value, fn):
                out.opaque = out.opaque or bound  # unpacked from something: cannot follow one part
            self._trace(bound.value, fn, out, seen, depth + 1, False)
        elif isinstance(bound, ast.withitem):
            self._trace(bound.context_expr, fn, out, seen, depth + 1, False)
        else:
            out.opaque = out.opaque or bound  # a loop or comprehension variable

    def _trace_call(self, call: ast.Call, fn: FunctionInfo, out: Trace, seen: set[int], depth: int,
                    inline: bool) -> None:
        func = call.func
        qual = self.imports.qualify(func) or ""
        if isinstance(func, ast.Attribute):
            if func.attr in _DIV_METHODS and len(call.args) == 1:
                out.scalings.append(Scaling(call, ".div()", call.args[0], inline, func.value))
                self._trace(func.value, fn, out, seen, depth + 1, inline)
                return
            if func.attr == "mean" and self._window(func.value):
                out.scalings.append(Scaling(call, "mean over a stacked window", None, inline))
                return
            if qual in ("torch.div", "torch.true_divide") and len(call.args) == 2:
                out.scalings.append(Scaling(call, ".div()", call.args[1], inline, call.args[0]))
                self._trace(call.args[0], fn, out, seen, depth + 1, inline)
                return
            if qual == "torch.mean" and call.args and self._window(call.args[0]):
                out.scalings.append(Scaling(call, "mean over a stacked window", None, inline))
                return
            if func.attr in ("mul", "mul_") and len(call.args) == 1:
                recip = self._reciprocal(call.args[0], fn)
                if recip is not None:
                    out.scalings.append(Scaling(call, "* (1/N)", recip, inline, func.value))
                elif not self._tensorish(call.args[0], fn):
                    out.opaque = out.opaque or call
                self._trace(func.value, fn, out, seen, depth + 1, inline)
                return
        found = self.scopes.bindings.resolve_call(call, fn)
        if found is not None and not found[1]:
            callee = found[0]
            for ret in self.returns.get(callee, ()):
                self._trace(ret, callee, out, seen, depth + 1, False)
            return
        member = found is None and self._member_call(call)
        if member:
            # ``self.model.compute_loss(batch)`` / ``self.model(batch)`` of a member built
            # where the file cannot see (``hydra.utils.instantiate(cfg.policy)``): a model or
            # helper, not a tensor method; like an unseen helper it hides a division only
            # when it is handed the window
            out.helpers.append(call)
            out.batch_unpacks.update(self._batch_unpacks(call))
        elif isinstance(func, ast.Attribute) and self.scopes.bindings.lookup(func.value, fn) is None and (
                not qual.startswith("torch.")) and not (
                isinstance(func.value, ast.Name) and func.value.id in self.imports.aliases):
            # a method of a tensor (``loss.sum()``) or of something unknown: follow the receiver
            self._trace(func.value, fn, out, seen, depth + 1, inline)
        if found is None and (self.scopes.bindings.lookup(func, fn) is None if isinstance(
                func, (ast.Name, ast.Attribute)) else True):
            side = Trace()  # arguments: only their scalings count (labels are loop variables)
            for arg in call.args:  # ``amp.scale_loss(loss, opt)``, ``torch.stack(...)``
                if not isinstance(arg, ast.Starred):
                    self._trace(arg, fn, side, seen, depth + 1, False)
            out.scalings.extend(side.scalings)
        binding = self.scopes.bindings.lookup(func, fn) if isinstance(
            func, (ast.Name, ast.Attribute)) else None
        if binding is None and not qual.startswith("torch.") and call.args + [
                k.value for k in call.keywords] and found is None and isinstance(func, ast.Name):
            out.helpers.append(call)  # an unseen helper: it may scale if handed the window
            out.batch_unpacks.update(self._batch_unpacks(call))

    def _batch_unpacks(self, call: ast.Call) -> set[int]:
        """The ``**batch`` keywords of ``call`` whose name is the target of a loop around it
        (``for step, batch in enumerate(loader): model(**batch)``)."""
        found: set[int] = set()
        for kw in call.keywords:
            if kw.arg is not None or not isinstance(kw.value, ast.Name):
                continue
            for anc in self.ctx.ancestors(call):
                if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef)) and _batch_parameter(anc, kw.value.id):
                    found.add(id(kw))  # ``def gen_helper(self, batch): self.model(**batch)``
                if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                    break
                if isinstance(anc, (ast.For, ast.AsyncFor)) and any(
                        isinstance(n, ast.Name) and n.id == kw.value.id for n in ast.walk(anc.target)):
                    found.add(id(kw))
                    break
        return found

    def _member_call(self, call: ast.Call) -> bool:
        """``self.<a>(...)`` / ``self.<a>.<b>(...)`` given arguments, unresolved in the file and not
        a tensor method (``self.total.sum(dim=0)``): a call of a member the object holds."""
        func = call.func
        if not isinstance(func, ast.Attribute) or func.attr in TENSOR_METHODS or not (
                call.args or call.keywords):
            return False
        root: ast.AST = func.value
        while isinstance(root, ast.Attribute):
            root = root.value
        return isinstance(root, ast.Name) and root.id == "self"

    def _window(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Call):
            qual = self.imports.qualify(node.func) or ""
            return qual.startswith("torch.") and qual.rsplit(".", 1)[-1] in _WINDOW_BUILDERS
        return False

    def _reciprocal(self, node: ast.AST, fn: FunctionInfo) -> Optional[ast.expr]:
        """N for ``1 / N`` (or a name bound only to that), else None."""
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and is_number(node.left, 1):
            return node.right
        if isinstance(node, ast.Name):
            bound = self.assigned.get((self.scopes.scope_of_name(node.id, fn), node.id), [])
            if len(bound) == 1 and isinstance(bound[0], ast.Assign):
                value = bound[0].value
                if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Div) and is_number(
                        value.left, 1):
                    return value.right
        return None

    def _tensorish(self, node: ast.AST, fn: FunctionInfo) -> bool:
        """A factor that is itself a loss-like tensor expression (``loss * mask``)."""
        if isinstance(node, ast.Call):
            binding = self.scopes.bindings.lookup(node.func, fn) if isinstance(
                node.func, (ast.Name, ast.Attribute)) else None
            return binding is not None and binding.kind == MODULE
        return False

    # -- owners ------------------------------------------------------------
    def owner(self, call: ast.Call, fn: FunctionInfo) -> Owner:
        func = call.func
        assert isinstance(func, ast.Attribute)
        if func.attr == "manual_backward":
            return Owner("plain")
        if not call.args:
            return Owner("plain")  # loss.backward(), scaler.scale(loss).backward()
        receiver = func.value
        if self.imports.qualify(receiver) in ("torch.autograd",):
            return Owner("plain")
        binding = self.scopes.bindings.lookup(receiver, fn)
        if binding is not None and binding.steps:
            return Owner("deepspeed")
        ctor = self.constructor(receiver, fn, 0)
        if ctor is None:
            return Owner("unknown")
        qual = self.imports.qualify(ctor.func) or ""
        if qual in FABRICS:
            return Owner("fabric", ctor)
        if any(k.arg is None or k.arg in ("gradient_accumulation_plugin", "deepspeed_plugin")
               for k in ctor.keywords):
            return Owner("accelerate", ctor, None, False)
        ga = next((k.value for k in ctor.keywords if k.arg == "gradient_accumulation_steps"), None)
        return Owner("accelerate", ctor, ga)

    def constructor(self, receiver: ast.AST, fn: FunctionInfo, depth: int) -> Optional[ast.Call]:
        """The ``Accelerator(...)`` / ``Fabric(...)`` call ``receiver`` is bound to, if unique."""
        if depth > 3:
            return None
        key = _key(receiver)
        if key is None:
            return None
        if key.startswith("self."):
            values = self.attr_assigned.get(key, [])
            calls = [v for v in values if self._is_ctor(v)]
            return calls[0] if len(calls) == 1 and len(values) == 1 else None  # type: ignore[return-value]
        scope = self.scopes.scope_of_name(key, fn)
        bound = self.assigned.get((scope, key), [])
        if bound:
            if len(bound) == 1 and isinstance(bound[0], ast.Assign) and self._is_ctor(bound[0].value):
                return bound[0].value  # type: ignore[return-value]
            return None
        if key in scope.params and scope.call_sites:
            found: Optional[ast.Call] = None
            for site in scope.call_sites:
                arg = dict(self.scopes.bindings.iter_arg_params(site.call, scope)).get(key)
                ctor = self.constructor(arg, site.caller, depth + 1) if arg is not None else None
                if ctor is None or (found is not None and ctor is not found):
                    return None
                found = ctor
            return found
        return None

    def _is_ctor(self, value: ast.AST) -> bool:
        if not isinstance(value, ast.Call):
            return False
        qual = self.imports.qualify(value.func) or ""
        return qual in ACCELERATORS or qual in FABRICS

    # -- the window ---------------------------------------------------------
    def guards(self) -> list[tuple[ast.Call, ast.If, ast.expr, FunctionInfo]]:
        out = []
        for tc in self.scopes.training_calls:
            if tc.kind != "step":
                continue
            for anc in self.ctx.ancestors(tc.call):
                if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.For, ast.While,
                                    ast.AsyncFor, ast.Lambda)):
                    break
                if isinstance(anc, ast.If):
                    modulus = _modulus(anc.test)
                    if modulus is None:
                        modulus = _counter_window(self.ctx, anc, tc.function)
                    if modulus is not None and _in_body(self.ctx, tc.call, anc):
                        out.append((tc.call, anc, modulus, tc.function))
                        break
        return out

    def optimizer_of(self, step: ast.Call, fn: FunctionInfo) -> Optional[ast.AST]:
        func = step.func
        if not isinstance(func, ast.Attribute):
            return None
        for candidate in (func.value, *(step.args[:1])):
            binding = self.scopes.bindings.lookup(candidate, fn)
            if binding is not None and binding.kind == OPTIMIZER:
                return binding.node
        return None


def _build(ctx: FileContext) -> Accumulation:
    scopes = scope_index(ctx)
    result = Accumulation([], [], [], scopes)
    has_backward = any(tc.kind == "backward" for tc in scopes.training_calls)
    lightning = [f for f in scopes.functions.values() if f.hook == "lightning-train"]
    if not has_backward and not lightning:
        return result
    an = _Analysis(ctx)
    result.assigned = an.assigned
    guards: dict[FunctionInfo, list[tuple[ast.Call, ast.If, ast.expr]]] = {}
    for step_call, guard_if, modulus_expr, step_fn in an.guards():
        guards.setdefault(step_fn, []).append((step_call, guard_if, modulus_expr))
    resets: Optional[dict[FunctionInfo, list[ast.AST]]] = _resets(ctx, scopes) if guards else None
    for tc in scopes.training_calls:
        if tc.kind != "backward" or tc.value is None:
            continue
        call, fn = tc.call, tc.function
        site = AccumSite(call, tc.value, fn, an.owner(call, fn), an.trace(tc.value, fn))
        if fn in an.grad_scalings:
            site.trace.scalings.append(an.grad_scalings[fn])
        loop = scopes.loop_of(call)
        # the guard beside the backward first (``if fp16: ... else: loss.backward(); if ...``)
        near = sorted(guards.get(fn, ()), key=lambda g: not _same_block(ctx, g[1], call))
        for step, guard, modulus in near:
            if _inside(ctx, call, guard):
                continue
            guard_loop = scopes.loop_of(guard)
            if guard_loop is None and fn.hook != "lightning-train":
                continue
            if guard_loop is not None and (loop is None or all(lp is not guard_loop
                                                                for lp in loop.chain())):
                continue
            site.loop, site.guard, site.modulus, site.step = guard_loop, guard, modulus, step
            site.zeroed_every_micro_batch = _zeroes_outside(ctx, guard_loop, fn, guard, resets or {})
            site.optimizer = an.optimizer_of(step, fn)
            break
        if site.guard is None and loop is not None and isinstance(loop.node, ast.For) and range_count(
                loop.node.iter) is not None:
            if resets is None:
                resets = _resets(ctx, scopes)
            micro_step_window(ctx, scopes, an, site, loop, resets)
        result.sites.append(site)
    for fn in lightning:
        cls = fn.method_class()
        if cls is None or manual_optimization(ctx, scopes, cls):
            continue
        for ret in ctx.nodes(ast.Return):
            if ret.value is None or scopes.function_of(ret) is not fn:
                continue
            value: Optional[ast.expr] = ret.value
            if isinstance(value, ast.Dict):
                value = next((v for k, v in zip(value.keys, value.values)
                              if isinstance(k, ast.Constant) and k.value == "loss"), None)
            if value is not None:
                result.lightning.append(LightningSite(ret, value, fn, an.trace(value, fn)))
    for call in ctx.nodes(ast.Call):
        if (scopes.imports.qualify(call.func) or "") in LIGHTNING_TRAINERS:
            for kw in call.keywords:
                if kw.arg == "accumulate_grad_batches":
                    result.trainer_accumulation.append(kw.value)
    return result


def accumulation(ctx: FileContext) -> Accumulation:
    """The file's accumulation facts, computed once per file."""
    return ctx.cached("accumulation", lambda: _build(ctx))

