"""What names and ``self.`` attributes are bound to: models, losses, optimizers.

Flow-insensitive per scope: a name is a model if any assignment in its scope
binds it to one (``Net()``, ``nn.Linear(...)``, ``X.from_pretrained(...)``,
``DDP(model)``, ``torch.compile(model)``, ``accelerator.prepare(model, ...)``,
``model.to(device)``...). Attributes assigned on ``self`` in any method become
class attributes, so ``self.q_net(state)`` resolves in every method. Function
parameters take the kind of what in-file call sites pass (and of ``nn.Module`` /
``Optimizer`` annotations); constructor calls ``Agent(QNet())`` bind the
``__init__`` parameters. A bounded number of rounds reaches a fixed point, each
round linear in the file.

``Bindings.resolve_call(call, fn)`` maps a call to the local function it runs
(plain names, ``self.m()``, ``obj.m()`` on an instance of a local class,
``super().m()``, ``Cls(...)`` to ``__init__``); resolved call sites are stored
on the callee's ``FunctionInfo.call_sites``.

What one expression is (``classify``, ``lookup``) is in :mod:`preflight.analysis.binding_classify`,
split by concern; the fixed point and the call resolution are here.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Optional

from preflight.analysis.binding_classify import AttrKey, BindingClassifier, NameKey
from preflight.analysis.binding_kinds import (
    CRITERION,
    INSTANCE,
    MODULE,
    MODULE_CONTAINER,
    OPTIMIZER,
    PARAMETER,
    Binding,
    optimizer_param_name,
)
from preflight.analysis.binding_syntax import (
    binding_deps,
    is_staticmethod,
    may_bind,
    may_unpack,
    sets_requires_grad_false,
)
from preflight.analysis.bindings_optimized import optimized_models
from preflight.analysis.scopes import CallSite, ClassInfo, FunctionInfo, ScopeIndex

if TYPE_CHECKING:
    from collections.abc import Iterator

# the names callers import from here (the binding kinds are defined in binding_kinds, the
# classification of one expression in binding_classify)
__all__ = ["CRITERION", "INSTANCE", "MODULE", "MODULE_CONTAINER", "OPTIMIZER", "PARAMETER", "AttrKey", "Binding",
           "Bindings", "NameKey"]


class Bindings(BindingClassifier):
    """See the module docstring; what one expression is bound to is :class:`BindingClassifier`'s."""

    def __init__(self, scopes: ScopeIndex, max_rounds: int = 6) -> None:
        self.scopes = scopes
        self.imports = scopes.imports
        self.names: dict[NameKey, Binding] = {}
        self.attrs: dict[AttrKey, Binding] = {}
        self.calls: dict[ast.Call, tuple[FunctionInfo, bool]] = {}
        self._has_params: Optional[dict[ClassInfo, bool]] = None
        # every call with the function it sits in, computed once for all analyses
        self.call_functions: list[tuple[ast.Call, FunctionInfo]] = scopes.functions_of(scopes.ctx.nodes(ast.Call))
        self._events = [e for e in self._collect_events() if may_bind(e[3]) and (
            not isinstance(e[2], (ast.Tuple, ast.List)) or may_unpack(e[3]))]
        self._unresolved = list(self.call_functions)
        # unresolved ``obj.m()`` calls by the receiver key a new binding would resolve
        self._waiting: dict[object, list[tuple[ast.Call, FunctionInfo]]] = {}
        self._rounds = 0
        # names/attributes that got a local-class binding since calls were last resolved
        self._fresh: set[object] = set()
        # identifiers bound in this round (the next round revisits what reads them)
        self._touched: set[str] = set()
        self._deps_cache: dict[ast.AST, set[str]] = {}
        self._resolved: list[tuple[ast.Call, FunctionInfo, FunctionInfo, list[tuple[str, ast.expr]]]] = []
        # what a call can resolve to at all: the file's own defs, classes and methods
        self._local_names = {name for f in scopes.functions.values() for name in f.defs}
        self._local_names.update(scopes.classes_by_name)
        self._method_names = {name for c in scopes.classes.values() for name in c.methods}
        self._annotations()
        optimized_models(self)
        for _ in range(max_rounds):
            if not self._round():
                break
        self._finish()

    # -- collection --------------------------------------------------------
    def _collect_events(self) -> Iterator[tuple[FunctionInfo, Optional[ClassInfo], ast.AST, ast.AST]]:
        """(function, class-body, target, value) for every binding statement."""
        scopes = self.scopes
        ctx = scopes.ctx
        parents_get = ctx._parents.get
        stmt_info = scopes._stmts.get
        classes_get = scopes.classes.get
        function_of = scopes.function_of
        class_def = ast.ClassDef
        assign = ast.Assign
        for node in ctx.nodes(ast.Assign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.withitem,
                              ast.NamedExpr):
            kind = type(node)
            if kind is assign:
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AnnAssign):
                if node.value is None:
                    continue
                targets, value = [node.target], node.value
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                targets, value = [node.target], ast.Starred(value=node.iter)  # element marker
            elif isinstance(node, ast.withitem):
                if node.optional_vars is None:
                    continue
                targets, value = [node.optional_vars], node.context_expr
            else:
                targets, value = [node.target], node.value
            if isinstance(node, ast.stmt):  # function_of(node), read directly for a statement
                info = stmt_info(node)
                fn = info.function if info is not None else scopes.module
                parent = parents_get(node)
                class_body = classes_get(parent) if type(parent) is class_def else None
            else:
                fn = function_of(node)
                class_body = None
            for target in targets:
                yield fn, class_body, target, value

    def _annotations(self) -> None:
        for fn in self.scopes.functions.values():
            node = fn.node
            if isinstance(node, ast.Module):
                continue
            args = node.args
            for arg in [*getattr(args, "posonlyargs", []), *args.args, *args.kwonlyargs]:
                if arg.annotation is None:
                    # `def train(model, loader, optimizer)`: a parameter named as an optimizer is one
                    if optimizer_param_name(arg.arg):
                        self.names.setdefault((fn, arg.arg), Binding(OPTIMIZER, arg, f"the parameter `{arg.arg}`"))
                    continue
                qual = self.imports.qualify(arg.annotation) or ""
                last = qual.rsplit(".", 1)[-1]
                binding: Optional[Binding] = None
                if qual in ("torch.nn.Module", "torch.nn.modules.module.Module") or last in (
                        "PreTrainedModel", "LightningModule"):
                    binding = Binding(MODULE, arg, f"`{arg.arg}: {last}`")
                elif last == "Optimizer" and qual.startswith(("torch.", "Optimizer")):
                    binding = Binding(OPTIMIZER, arg, f"`{arg.arg}: {last}`")
                else:
                    cls = self.scopes.classes_by_name.get(last)
                    if cls is not None and cls.is_module:
                        binding = Binding(MODULE, arg, f"`{arg.arg}: {last}`", cls=cls)
                if binding is not None:
                    self.names.setdefault((fn, arg.arg), binding)

    # -- fixed point -------------------------------------------------------
    def _round(self) -> bool:
        """One pass; after the first, only what reads a newly bound name is looked at again."""
        first = self._rounds == 0
        self._rounds += 1
        touched, self._touched = self._touched, set()
        changed = False
        pending = []
        # after the first round an event is looked at again only if it reads a newly bound name
        events = self._events if first or touched else ()
        if not events:
            pending = self._events
        for event in events:
            fn, class_body, target, value = event
            if not first and not (self._deps_of(value) & touched):
                pending.append(event)
                continue
            if isinstance(value, ast.Starred):  # a for loop: the element of the iterable
                bound = self._bind(target, self._element(value.value, fn), fn, class_body)
            elif isinstance(target, (ast.Tuple, ast.List)):
                parts = self._unpack(value, fn, len(target.elts))
                bound = False
                for elt, found in zip(target.elts, parts):
                    bound |= self._bind(elt, found, fn, class_body)
            else:
                bound = self._bind(target, self.classify(value, fn), fn, class_body)
            changed |= bound
            if not bound or isinstance(target, (ast.Tuple, ast.List)):
                pending.append(event)
        self._events = pending
        fresh, self._fresh = self._fresh, set()
        new_calls: set[ast.Call] = set()
        if first:
            # only a call of a local def or class, or of a method name some class of the file
            # defines, can ever resolve (both sets are fixed): the others are not looked at, nor
            # kept waiting for a receiver binding that could not resolve them either
            local_names, method_names = self._local_names, self._method_names
            candidates = [(call, caller) for call, caller in self._unresolved
                          if (isinstance(call.func, ast.Name) and call.func.id in local_names)
                          or (isinstance(call.func, ast.Attribute) and call.func.attr in method_names)]
            self._unresolved = []
        else:
            candidates = [c for key in fresh for c in self._waiting.pop(key, ())]
        for call, caller in candidates:
            resolved = self.resolve_call(call, caller)
            if resolved is None:
                key = self._receiver_key(call, caller)
                if key is not None:  # an instance binding of the receiver may resolve it later
                    self._waiting.setdefault(key, []).append((call, caller))
                continue
            self.calls[call] = resolved
            # the (parameter, argument) pairs an argument's binding may flow through: fixed once
            # the call is resolved, so mapped once, not once per round
            pairs = [(param, arg) for param, arg in self._map_args(call, resolved[0]) if may_bind(arg)]
            self._resolved.append((call, caller, resolved[0], pairs))
            new_calls.add(call)
            changed = True
        for call, caller, callee, pairs in self._resolved:
            fresh_call = call in new_calls
            if not fresh_call and not touched:
                continue
            for param, arg in pairs:
                if (callee, param) in self.names:
                    continue
                if not fresh_call and not (self._deps_of(arg) & touched):
                    continue
                found = self.classify(arg, caller)
                if found is not None:
                    self.names[(callee, param)] = found
                    self._touched.add(param)
                    if found.cls is not None:
                        self._fresh.add((callee, param))
                    changed = True
        return changed

    def _deps_of(self, node: ast.AST) -> set[str]:
        found = self._deps_cache.get(node)
        if found is None:
            found = self._deps_cache[node] = binding_deps(node)
        return found

    def _receiver_key(self, call: ast.Call, caller: FunctionInfo) -> Optional[object]:
        """The key in ``_fresh`` whose new binding could resolve ``obj.m()`` later."""
        base = call.func.value if isinstance(call.func, ast.Attribute) else None
        if isinstance(base, ast.Name):
            return (self.scopes.scope_of_name(base.id, caller), base.id)
        if isinstance(base, ast.Attribute):
            return base.attr
        return None

    def _bind(self, target: ast.AST, found: Optional[Binding], fn: FunctionInfo,
              class_body: Optional[ClassInfo]) -> bool:
        if found is None:
            return False
        if isinstance(target, ast.Name):
            if class_body is not None:
                key_a: AttrKey = (class_body, target.id)
                if key_a in self.attrs:
                    return False
                self.attrs[key_a] = found
                self._touched.add(target.id)
                return True
            key: NameKey = (self.scopes.scope_of_name(target.id, fn), target.id)
            if key in self.names:
                return False
            self.names[key] = found
            self._touched.add(target.id)
            if found.cls is not None:
                self._fresh.add(key)
            return True
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            owner = self._owner_class(target.value, fn)
            if owner is not None and (owner, target.attr) not in self.attrs:
                self.attrs[(owner, target.attr)] = found
                self._touched.add(target.attr)
                if found.cls is not None:
                    self._fresh.add(target.attr)
                return True
        return False

    def _owner_class(self, name: ast.Name, fn: FunctionInfo) -> Optional[ClassInfo]:
        if name.id in ("self", "cls"):
            return fn.method_class()
        found = self.lookup(name, fn)
        return found.cls if found is not None and found.kind in (MODULE, INSTANCE) else None

    def _finish(self) -> None:
        has_params: dict[ClassInfo, bool] = {}
        for (cls, _), b in self.attrs.items():
            if b.kind in (MODULE, MODULE_CONTAINER, PARAMETER):
                has_params[cls] = True
        plain = {"torch.nn.Module", "torch.nn.modules.module.Module"}
        for cls in self.scopes.classes.values():
            local = {c.name for c in cls.local_bases}
            for base in cls.bases:
                if cls.is_module and base and base not in local and base not in plain and not (
                        base.endswith("LightningModule")):
                    has_params[cls] = True  # a subclass of a library layer or model
        self._has_params = has_params
        for b in [*self.names.values(), *self.attrs.values()]:
            if b.kind == MODULE and b.cls is not None and b.inner is None and b.cls.is_module:
                b.param_free = not self._class_has_params(b.cls)
        self._frozen()
        for call, caller, callee, _pairs in self._resolved:
            callee.call_sites.append(CallSite(call, caller, self.calls[call][1]))

    def _frozen(self) -> None:
        ctx = self.scopes.ctx
        for call, caller in self.call_functions:
            func = call.func
            if not (isinstance(func, ast.Attribute) and func.attr == "requires_grad_"):
                continue
            flag = call.args[0] if call.args else next(
                (k.value for k in call.keywords if k.arg == "requires_grad"), None)
            if isinstance(flag, ast.Constant) and flag.value is False:
                found = self.lookup(func.value, caller)
                if found is not None and found.kind == MODULE:
                    found.frozen = True
        for loop in ctx.nodes(ast.For):
            it = loop.iter
            if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute)
                    and it.func.attr in ("parameters", "named_parameters")):
                continue
            if not sets_requires_grad_false(loop.body):
                continue
            found = self.lookup(it.func.value, self.scopes.function_of(loop))
            if found is not None and found.kind == MODULE:
                found.frozen = True

    # -- calls -------------------------------------------------------------
    def resolve_call(self, call: ast.Call, fn: FunctionInfo) -> Optional[tuple[FunctionInfo, bool]]:
        """(local function, is-constructor) that ``call`` runs, if the file shows it."""
        func = call.func
        if isinstance(func, ast.Name):
            if func.id not in self._local_names:
                return None  # print(), torch.zeros(): neither a local def nor a local class
            found = self.scopes.resolve_function(func.id, fn)
            if found is not None:
                return found, False
            if not self._shadowed(func.id, fn):
                called = self.scopes.classes_by_name.get(func.id)
                if called is not None:
                    init = called.method("__init__")
                    return (init, True) if init is not None else None
            return None
        if not isinstance(func, ast.Attribute) or func.attr not in self._method_names:
            return None  # only a method of a class of the file can be resolved
        base = func.value
        cls: Optional[ClassInfo] = None
        if isinstance(base, ast.Name) and base.id in ("self", "cls"):
            cls = fn.method_class()
        elif isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "super":
            own = fn.method_class()
            if own is not None:
                for parent in own.local_bases:
                    method = parent.method(func.attr)
                    if method is not None:
                        return method, False
            return None
        elif isinstance(base, ast.Name) and base.id in self.scopes.classes_by_name and not (
                self._shadowed(base.id, fn)):
            cls = self.scopes.classes_by_name[base.id]
        else:
            bound = self.lookup(base, fn)
            if bound is not None and bound.kind in (MODULE, INSTANCE):
                cls = bound.cls
        if cls is None:
            return None
        method = cls.method(func.attr)
        return (method, False) if method is not None else None

    def _map_args(self, call: ast.Call, callee: FunctionInfo) -> Iterator[tuple[str, ast.expr]]:
        node = callee.node
        if isinstance(node, ast.Module):
            return
        args = node.args
        positional = [a.arg for a in [*getattr(args, "posonlyargs", []), *args.args]]
        if callee.cls is not None and not is_staticmethod(node) and positional:
            positional = positional[1:]
        for param, arg in zip(positional, call.args):
            if isinstance(arg, ast.Starred):
                break
            yield param, arg
        known = {a.arg for a in [*args.args, *args.kwonlyargs]}
        for kw in call.keywords:
            if kw.arg is not None and kw.arg in known:
                yield kw.arg, kw.value

    def iter_arg_params(self, call: ast.Call, callee: FunctionInfo) -> list[tuple[str, ast.expr]]:
        """(parameter name, argument expression) pairs of a resolved call."""
        return list(self._map_args(call, callee))

    def target_of(self, call: ast.Call) -> Optional[FunctionInfo]:
        found = self.calls.get(call)
        return found[0] if found is not None else None
