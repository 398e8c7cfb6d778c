"""What one expression is bound to: a model, a loss, a module container, a parameter, an optimizer
or an instance of a local class. The classification half of
:class:`preflight.analysis.bindings.Bindings`, split by concern: that module runs the fixed point
that binds names and ``self.`` attributes and resolves calls; the methods here read the bindings
found so far (``names``, ``attrs``) to classify ``Net()``, ``nn.Linear(...)``,
``X.from_pretrained(...)``, ``DDP(model)``, ``accelerator.prepare(model)``, ``model.to(device)``,
``build_model(cfg)`` (a local factory), ``deepspeed.initialize(...)`` unpacked, ...
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Optional

from preflight.analysis import tensor_ops as tables
from preflight.analysis.binding_kinds import (
    CRITERION,
    INSTANCE,
    MODULE,
    MODULE_CONTAINER,
    OPTIMIZER,
    PARAMETER,
    Binding,
    hydra_optimizer,
)
from preflight.analysis.bindings_optimized import (
    optimizer_class_parameter,
    optimizer_over_parameters,
    torch_optimizer_class,
)
from preflight.analysis.scopes import ClassInfo, FunctionInfo, ScopeIndex

if TYPE_CHECKING:
    from preflight.analysis.scopes import ImportTable

NameKey = tuple[FunctionInfo, str]
AttrKey = tuple[ClassInfo, str]


class BindingClassifier:
    """The classification methods of :class:`~preflight.analysis.bindings.Bindings`, which sets the
    state declared here."""

    scopes: ScopeIndex
    imports: ImportTable
    names: dict[NameKey, Binding]
    attrs: dict[AttrKey, Binding]
    _has_params: Optional[dict[ClassInfo, bool]]  # None until the fixed point is reached

    def _class_has_params(self, cls: ClassInfo) -> bool:
        known = self._has_params or {}
        return any(known.get(c, False) for c in cls.mro())

    def lookup(self, expr: ast.AST, fn: FunctionInfo) -> Optional[Binding]:
        """The binding a Name, ``self.attr`` or ``obj.attr`` refers to, if known."""
        if isinstance(expr, ast.Name):
            if expr.id == "self":
                cls = fn.method_class()
                if cls is not None and cls.is_module:
                    return self._self_binding(cls)
                if cls is not None:
                    return None
            scope = self.scopes.scope_of_name(expr.id, fn)
            return self.names.get((scope, expr.id))
        if isinstance(expr, ast.Attribute):
            base = expr.value
            if isinstance(base, ast.Name) and base.id in ("self", "cls"):
                cls = fn.method_class()
                return self._attr(cls, expr.attr) if cls is not None else None
            owner = self.lookup(base, fn)
            if owner is None:
                return None
            if owner.kind == MODULE and expr.attr in ("module", "_orig_mod"):
                return owner.inner or owner
            if owner.cls is not None:
                return self._attr(owner.cls, expr.attr)
        return None

    def _attr(self, cls: ClassInfo, attr: str) -> Optional[Binding]:
        for c in cls.mro():
            found = self.attrs.get((c, attr))
            if found is not None:
                return found
        return None

    def _self_binding(self, cls: ClassInfo) -> Binding:
        key = (cls, "<self>")
        found = self.attrs.get(key)
        if found is None:
            found = Binding(MODULE, cls.node, "`self`", cls=cls)
            if self._has_params is not None:
                found.param_free = not self._class_has_params(cls)
            self.attrs[key] = found
        return found

    def classify(self, expr: ast.AST, fn: FunctionInfo) -> Optional[Binding]:
        if isinstance(expr, (ast.Name, ast.Attribute)):
            found = self.lookup(expr, fn)
            if found is not None or isinstance(expr, ast.Name):
                return found
            return None
        if isinstance(expr, ast.Subscript):
            found = self.classify(expr.value, fn)
            if found is not None and found.kind == MODULE_CONTAINER:
                return Binding(MODULE, found.node, found.label)
            return found if found is not None and found.kind == OPTIMIZER else None
        if isinstance(expr, ast.IfExp):
            return self.classify(expr.body, fn) or self.classify(expr.orelse, fn)
        if isinstance(expr, ast.Await):
            return self.classify(expr.value, fn)
        if isinstance(expr, ast.Call):
            return self._classify_call(expr, fn)
        return None

    def _classify_call(self, call: ast.Call, fn: FunctionInfo) -> Optional[Binding]:
        func = call.func
        qual = self.imports.qualify(func) or ""
        last = qual.rsplit(".", 1)[-1]
        if isinstance(func, ast.Name) and not self._shadowed(func.id, fn):
            cls = self.scopes.classes_by_name.get(func.id)
            if cls is not None:
                kind = MODULE if cls.is_module else INSTANCE
                return Binding(kind, call, cls=cls)
            factory = self._factory(func.id, fn)
            if factory is not None:
                return factory
        if qual.startswith("torch.nn.") and not qual.startswith(
                ("torch.nn.functional.", "torch.nn.init.", "torch.nn.utils.")):
            if last.endswith("Loss"):
                return Binding(CRITERION, call, tensor_out=True)
            if last in tables.NN_CONTAINERS:
                return Binding(MODULE_CONTAINER, call, None)
            if last == "Parameter":
                return Binding(PARAMETER, call, None)
            if last in ("DataParallel",) or last in tables.WRAPPERS:
                return self._wrap(call, fn)
            if last[:1].isupper() and last not in tables.NN_NOT_MODULES:
                return Binding(MODULE, call, tensor_out=last in tables.SINGLE_TENSOR_LAYERS,
                               param_free=last in tables.PARAM_FREE_LAYERS)
            return None
        if last in tables.WRAPPERS or qual in tables.QUALIFIED_WRAPPERS:
            return self._wrap(call, fn)
        if isinstance(func, ast.Attribute):
            attr = func.attr
            if attr == "from_pretrained":
                receiver = (self.imports.qualify(func.value) or "").rsplit(".", 1)[-1]
                if receiver and not any(w in receiver for w in tables.NOT_MODELS) and any(
                        h in receiver for h in tables.MODEL_HINTS):
                    return Binding(MODULE, call, f"`{receiver}.from_pretrained(...)`")
                return None
            if attr in tables.MODULE_CHAIN:
                inner = self.classify(func.value, fn)
                if inner is not None and inner.kind == MODULE:
                    return inner
                return None
            if attr in tables.PREPARE and len(call.args) == 1:
                return self.classify(call.args[0], fn)
            if attr == "optimizers" and isinstance(func.value, ast.Name) and func.value.id == "self":
                return Binding(OPTIMIZER, call, "`self.optimizers()`")
            if attr == "configure_optimizers" and not (isinstance(func.value, ast.Name) and func.value.id in (
                    "self", "super")) and not isinstance(func.value, ast.Call):
                # nanoGPT / minGPT: `optimizer = model.configure_optimizers(...)` returns the optimizer
                return Binding(OPTIMIZER, call, None)
        if qual.startswith("torchvision.models.") and last[:1].islower() and last != "get_weight":
            return Binding(MODULE, call, None)
        if qual in ("timm.create_model", "torch.hub.load"):
            return Binding(MODULE, call, None)
        if last == "instantiate" and (qual.startswith("hydra.") or qual == "instantiate") and call.args \
                and hydra_optimizer(call):
            return Binding(OPTIMIZER, call, "`instantiate(...)` of an optimizer config")
        if last in tables.OPTIMIZERS or (torch_optimizer_class(qual) and last != "Optimizer") or (
                isinstance(func, ast.Name) and optimizer_class_parameter(fn.node, func.id, self.imports.qualify)):
            return Binding(OPTIMIZER, call, None)  # the last: ``optimizer_klass(...)``, a parameter defaulting to Adam
        if optimizer_over_parameters(last, call):
            # a third-party optimizer named after a torch one (aihwkit's `AnalogSGD`, `Adam8bit`
            # variants) built over a module's parameters
            return Binding(OPTIMIZER, call, None)
        return None

    def _factory(self, name: str, fn: FunctionInfo) -> Optional[Binding]:
        """``model = build_model(cfg)``: a local function whose every ``return`` builds a
        module (``return Net(n)``, ``model = Net(n); return model``) makes a module too."""
        target = self.scopes.resolve_function(name, fn)
        if target is None or target.is_module_scope or target.cls is not None:
            return None
        active = self.__dict__.setdefault("_factories_active", set())
        if id(target) in active:
            return None
        active.add(id(target))
        try:
            found: Optional[Binding] = None
            for node in ast.walk(target.node):
                if not isinstance(node, ast.Return) or self.scopes.function_of(node) is not target:
                    continue
                if node.value is None:
                    return None
                value = node.value
                if isinstance(value, ast.Name):
                    binding = self.lookup(value, target)
                elif isinstance(value, ast.Call):
                    binding = self._classify_call(value, target)
                else:
                    return None
                if binding is None or binding.kind != MODULE:
                    return None
                found = found or binding
            return found
        finally:
            active.discard(id(target))

    def _wrap(self, call: ast.Call, fn: FunctionInfo) -> Optional[Binding]:
        arg = call.args[0] if call.args else next(
            (k.value for k in call.keywords if k.arg in ("module", "model")), None)
        if arg is None:
            return None
        inner = self.classify(arg, fn)
        if inner is None or inner.kind != MODULE:
            return None
        return Binding(MODULE, call, cls=inner.cls, tensor_out=inner.tensor_out,
                       inner=inner)

    def _shadowed(self, name: str, fn: FunctionInfo) -> bool:
        scope = self.scopes.scope_of_name(name, fn)
        return not scope.is_module_scope

    def _element(self, iterable: ast.AST, fn: FunctionInfo) -> Optional[Binding]:
        found = self.classify(iterable, fn)
        if found is not None and found.kind == MODULE_CONTAINER:
            return Binding(MODULE, found.node, found.label)
        return None

    def _unpack(self, value: ast.AST, fn: FunctionInfo, n: int) -> list[Optional[Binding]]:
        if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == n:
            return [self.classify(v, fn) for v in value.elts]
        if isinstance(value, ast.Call):
            func = value.func
            qual = self.imports.qualify(func) or ""
            if isinstance(func, ast.Attribute) and func.attr in tables.PREPARE:
                return [self.classify(a, fn) for a in value.args[:n]] + [None] * max(
                    0, n - len(value.args))
            if qual.endswith("deepspeed.initialize"):
                out: list[Optional[Binding]] = [None] * n
                engine = Binding(MODULE, value, "`deepspeed.initialize(...)`", steps=True)
                model = next((k.value for k in value.keywords if k.arg == "model"), None)
                inner = self.classify(model, fn) if model is not None else None
                engine.inner = inner if inner is not None and inner.kind == MODULE else None
                out[0] = engine
                if n > 1:
                    out[1] = Binding(OPTIMIZER, value, "`deepspeed.initialize(...)`")
                return out
            if isinstance(func, ast.Attribute) and func.attr == "optimizers":
                return [Binding(OPTIMIZER, value, "`self.optimizers()`") for _ in range(n)]
        return [None] * n
