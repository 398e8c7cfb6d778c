"""The structure of one file: imports, classes, functions, loops, grad mode.

Built once per file (``scope_index(ctx)``) from one top-down walk over the
statements; expressions are reached through the context's node index, never
by re-walking a function per node. What other analyses read here:

* ``imports.qualify(expr)``: the dotted name of ``expr`` with import aliases
  resolved (``F.cross_entropy`` -> ``torch.nn.functional.cross_entropy``).
* ``function_of(node)`` / ``loop_of(node)``: the innermost function (the
  module is a pseudo-function) and loop (in that function) holding a node.
* ``FunctionInfo``: parameters, locally bound names, its class, Lightning hook
  kind, and, once :mod:`preflight.analysis.training` has run, whether it trains,
  whether it runs inside training, and its grad mode.
* ``LoopInfo``: loop nesting, names unconditionally rebound in each iteration,
  and whether it is a training loop (with the call that makes it one).
* ``lexical_grad(node)``: what the innermost ``with torch.no_grad()`` /
  ``enable_grad()`` / ``set_grad_enabled(...)`` block around a node says.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Iterator, Optional, TypeVar, Union

from preflight._record import dataclass, field
from preflight.analysis.import_table import ImportTable
from preflight.analysis.rebinds import unconditional_rebinds
from preflight.analysis.syntax import is_true

if TYPE_CHECKING:
    from preflight.analysis.bindings import Bindings
    from preflight.analysis.context import FileContext

FuncNode = Union[ast.FunctionDef, ast.AsyncFunctionDef, ast.Module]
LoopNode = Union[ast.For, ast.AsyncFor, ast.While]

N = TypeVar("N", bound=ast.AST)


def _project_no_grad_decorator(target: ast.expr) -> bool:
    """A project's own wrapper named for no-grad (YOLOv5's ``@smart_inference_mode()``, which applies
    ``torch.inference_mode`` or ``torch.no_grad``; ``@torch_no_grad``): its name says what it does."""
    name = target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else ""
    name = name.lower()
    return name.endswith(("inference_mode", "no_grad")) and not name.startswith(("enable", "set"))


NO_GRAD_CONTEXTS = frozenset({
    "torch.no_grad", "torch.inference_mode", "torch.autograd.no_grad",
    "torch.autograd.inference_mode", "torch.autograd.grad_mode.no_grad",
    "torch.autograd.grad_mode.inference_mode",
})
ENABLE_GRAD_CONTEXTS = frozenset({
    "torch.enable_grad", "torch.autograd.enable_grad", "torch.autograd.grad_mode.enable_grad",
})
SET_GRAD_ENABLED = frozenset({
    "torch.set_grad_enabled", "torch.autograd.set_grad_enabled",
    "torch.autograd.grad_mode.set_grad_enabled",
})
LIGHTNING_MODULES = frozenset({
    "pytorch_lightning.LightningModule", "pytorch_lightning.core.LightningModule",
    "pytorch_lightning.core.module.LightningModule", "lightning.LightningModule",
    "lightning.pytorch.LightningModule", "lightning.pytorch.core.LightningModule",
    "lightning.pytorch.core.module.LightningModule",
})
# Lightning runs these hooks with gradients disabled (its evaluation and
# prediction loops wrap them in torch.no_grad / inference_mode).
LIGHTNING_NO_GRAD_HOOKS = frozenset({
    "validation_step", "test_step", "predict_step",
    "validation_step_end", "test_step_end", "validation_epoch_end", "test_epoch_end",
    "on_validation_batch_end", "on_test_batch_end", "on_predict_batch_end",
    "on_validation_epoch_end", "on_test_epoch_end", "on_predict_epoch_end",
})
LIGHTNING_TRAIN_HOOK = "training_step"


@dataclass(eq=False)
class ClassInfo:
    node: ast.ClassDef
    name: str
    bases: list[str]
    local_bases: list[ClassInfo] = field(default_factory=list)
    methods: dict[str, FunctionInfo] = field(default_factory=dict)
    is_module: bool = False  # an nn.Module subclass (directly or through local bases)
    is_lightning: bool = False

    def mro(self) -> Iterator[ClassInfo]:
        seen: set[int] = set()
        stack: list[ClassInfo] = [self]
        while stack:
            cls = stack.pop(0)
            if id(cls) in seen:
                continue
            seen.add(id(cls))
            yield cls
            stack.extend(cls.local_bases)

    def method(self, name: str) -> Optional[FunctionInfo]:
        for cls in self.mro():
            found = cls.methods.get(name)
            if found is not None:
                return found
        return None


@dataclass(eq=False)
class FunctionInfo:
    node: FuncNode
    name: str
    parent: Optional[FunctionInfo]  # lexically enclosing function (None for the module)
    cls: Optional[ClassInfo] = None  # set for methods
    params: list[str] = field(default_factory=list)
    bound: set[str] = field(default_factory=set)  # names bound in this scope
    declared_global: set[str] = field(default_factory=set)
    declared_nonlocal: set[str] = field(default_factory=set)
    defs: dict[str, FunctionInfo] = field(default_factory=dict)  # nested defs by name
    decorator_grad: Optional[bool] = None  # False: @torch.no_grad(); True: @enable_grad
    hook: Optional[str] = None  # "lightning-eval" | "lightning-train"
    # Filled by preflight.analysis.training:
    trains: bool = False  # calls backward/step, directly or through helpers
    in_training: bool = False  # runs inside a training loop or training function
    grad_enabled: bool = True  # False: every in-file caller runs it without grad
    no_grad_reason: str = ""
    call_sites: list[CallSite] = field(default_factory=list)

    @property
    def is_module_scope(self) -> bool:
        return isinstance(self.node, ast.Module)

    @property
    def line(self) -> int:
        return getattr(self.node, "lineno", 1)

    def method_class(self) -> Optional[ClassInfo]:
        """The class whose ``self`` this function sees (methods and their closures)."""
        fn: Optional[FunctionInfo] = self
        while fn is not None:
            if fn.cls is not None:
                return fn.cls
            fn = fn.parent
        return None


@dataclass(eq=False)
class CallSite:
    call: ast.Call
    caller: FunctionInfo
    constructor: bool = False  # ``Cls(...)`` calling ``__init__``


@dataclass(eq=False)
class TrainingCall:
    """A call that makes its loop a training loop."""

    call: ast.Call
    kind: str  # "backward" | "step" | "helper"
    function: FunctionInfo
    value: Optional[ast.expr] = None  # the tensor backward runs on
    helper: Optional[FunctionInfo] = None

    def describe(self) -> str:
        if self.kind == "helper" and self.helper is not None:
            return f"calls `{self.helper.name}()`, which runs backward or an optimizer step"
        text = ast.unparse(self.call)
        if len(text) > 60:
            text = ast.unparse(self.call.func) + "(...)"
        return f"calls `{text}`"


@dataclass(eq=False)
class LoopInfo:
    node: LoopNode
    parent: Optional[LoopInfo]
    function: FunctionInfo
    depth: int
    rebinds: set[str] = field(default_factory=set)  # names/`self.x` rebound every iteration
    training: bool = False
    evidence: Optional[TrainingCall] = None

    @property
    def line(self) -> int:
        return self.node.lineno

    def chain(self) -> Iterator[LoopInfo]:
        loop: Optional[LoopInfo] = self
        while loop is not None:
            yield loop
            loop = loop.parent


# statements that hold no statements (the most common ones: nothing under them to walk)
_LEAF_STATEMENTS = frozenset({
    ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Import, ast.ImportFrom,
    ast.Pass, ast.Break, ast.Continue, ast.Raise, ast.Assert, ast.Delete, ast.Global, ast.Nonlocal,
})


@dataclass
class _StmtInfo:
    function: FunctionInfo
    loop: Optional[LoopInfo]
    grad: Optional[bool]  # lexical grad mode inside this function (None: not set here)
    grad_node: Optional[ast.AST] = None


class ScopeIndex:
    """Structure of one file; see the module docstring."""

    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self._parents = ctx._parents
        # names bound or deleted (a tenth of all names): read once, by the imports and by
        # each function's bound names
        load = ast.Load  # ast.parse makes no subclasses of the context types
        self._stored_names = [n for n in ctx.unordered(ast.Name) if type(n.ctx) is not load]
        self.imports = ImportTable.build(ctx, self._stored_names)
        self.module = FunctionInfo(node=ctx.tree, name="<module>", parent=None)
        self.functions: dict[ast.AST, FunctionInfo] = {ctx.tree: self.module}
        self.classes: dict[ast.ClassDef, ClassInfo] = {}
        self.classes_by_name: dict[str, ClassInfo] = {}
        self.loops: dict[ast.AST, LoopInfo] = {}
        self._stmts: dict[ast.stmt, _StmtInfo] = {}
        self.bindings: Bindings  # set by build()
        self.training_calls: list[TrainingCall] = []
        self._walk_block(ctx.tree.body, self.module, None, None, None, None)
        self._bound_names()
        self._resolve_classes()

    def release(self) -> None:
        """Break the cycles among functions, classes, loops and call sites (see
        ``FileContext.release``); the index is unusable afterwards."""
        for fn in self.functions.values():
            fn.parent = fn.cls = None
            fn.defs.clear()
            fn.call_sites.clear()
        for cls in self.classes.values():
            cls.methods.clear()
            cls.local_bases.clear()
        for loop in self.loops.values():
            loop.parent = loop.evidence = None
        self.training_calls.clear()
        self._stmts.clear()
        self._stored_names.clear()

    # -- construction ------------------------------------------------------
    def _walk_block(self, body: list[ast.stmt], fn: FunctionInfo, cls: Optional[ClassInfo],
                    loop: Optional[LoopInfo], grad: Optional[bool],
                    grad_node: Optional[ast.AST]) -> None:
        shared = _StmtInfo(fn, loop, grad, grad_node)  # one per block: never changed once made
        stmts = self._stmts
        for stmt in body:
            stmts[stmt] = shared
            if type(stmt) in _LEAF_STATEMENTS:
                continue
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._function(stmt, fn, cls)
            elif isinstance(stmt, ast.ClassDef):
                info = ClassInfo(node=stmt, name=stmt.name,
                                 bases=[self.imports.qualify(b) or "" for b in stmt.bases])
                self.classes[stmt] = info
                self.classes_by_name[stmt.name] = info
                self._walk_block(stmt.body, fn, info, loop, grad, grad_node)
            elif isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
                inner = LoopInfo(node=stmt, parent=loop, function=fn,
                                 depth=(loop.depth + 1) if loop else 1)
                inner.rebinds = unconditional_rebinds(stmt.body)
                self.loops[stmt] = inner
                self._walk_block(stmt.body, fn, None, inner, grad, grad_node)
                self._walk_block(stmt.orelse, fn, None, loop, grad, grad_node)
            elif isinstance(stmt, (ast.With, ast.AsyncWith)):
                inner_grad, inner_node = grad, grad_node
                for item in stmt.items:
                    mode = self.context_grad_mode(item.context_expr)
                    if mode is not None:
                        inner_grad, inner_node = mode, item.context_expr
                self._walk_block(stmt.body, fn, None, loop, inner_grad, inner_node)
            else:
                for name in ("body", "orelse", "finalbody"):
                    sub = getattr(stmt, name, None)
                    if isinstance(sub, list) and sub and isinstance(sub[0], ast.stmt):
                        self._walk_block(sub, fn, None, loop, grad, grad_node)
                for handler in getattr(stmt, "handlers", ()) or ():
                    self._walk_block(handler.body, fn, None, loop, grad, grad_node)
                for case in getattr(stmt, "cases", ()) or ():
                    self._walk_block(case.body, fn, None, loop, grad, grad_node)

    def _function(self, node: Union[ast.FunctionDef, ast.AsyncFunctionDef], outer: FunctionInfo,
                  cls: Optional[ClassInfo]) -> None:
        args = node.args
        params = [a.arg for a in [*getattr(args, "posonlyargs", []), *args.args, *args.kwonlyargs]]
        if args.vararg:
            params.append(args.vararg.arg)
        if args.kwarg:
            params.append(args.kwarg.arg)
        info = FunctionInfo(node=node, name=node.name, parent=outer, cls=cls, params=params)
        info.bound.update(params)
        for dec in node.decorator_list:
            target = dec.func if isinstance(dec, ast.Call) else dec
            qual = self.imports.qualify(target)
            if qual in NO_GRAD_CONTEXTS or _project_no_grad_decorator(target):
                info.decorator_grad = False
            elif qual in ENABLE_GRAD_CONTEXTS:
                info.decorator_grad = True
        self.functions[node] = info
        if cls is not None:
            cls.methods[node.name] = info
        else:
            outer.defs[node.name] = info
        self._walk_block(node.body, info, None, None, None, None)

    def _bound_names(self) -> None:
        for name, fn in self.functions_of(self._stored_names):  # into sets: order does not matter
            fn.bound.add(name.id)
        for node in self.ctx.nodes(ast.Import, ast.ImportFrom):
            fn = self.function_of(node)
            for alias in node.names:
                fn.bound.add((alias.asname or alias.name).split(".")[0])
        for decl in self.ctx.nodes(ast.Global, ast.Nonlocal):
            fn = self.function_of(decl)
            target = fn.declared_global if isinstance(decl, ast.Global) else fn.declared_nonlocal
            target.update(decl.names)
        for info in self.functions.values():
            if info.cls is None and info.parent is not None:
                info.parent.bound.add(info.name)
        for cls in self.classes.values():
            self.function_of(cls.node).bound.add(cls.name)

    def _resolve_classes(self) -> None:
        for cls in self.classes.values():
            for base in cls.bases:
                local = self.classes_by_name.get(base)
                if local is not None and local is not cls:
                    cls.local_bases.append(local)
        changed = True
        rounds = 0
        while changed and rounds < 20:
            changed, rounds = False, rounds + 1
            for cls in self.classes.values():
                module = cls.is_module or any(_is_module_base(b) for b in cls.bases) or any(
                    b.is_module for b in cls.local_bases)
                lightning = cls.is_lightning or any(_is_lightning_base(b) for b in cls.bases) or any(
                    b.is_lightning for b in cls.local_bases)
                if module != cls.is_module or lightning != cls.is_lightning:
                    cls.is_module, cls.is_lightning, changed = module, lightning, True
        for cls in self.classes.values():
            if not cls.is_lightning:
                continue
            cls.is_module = True
            for name, method in cls.methods.items():
                if name in LIGHTNING_NO_GRAD_HOOKS:
                    method.hook = "lightning-eval"
                elif name == LIGHTNING_TRAIN_HOOK:
                    method.hook = "lightning-train"

    # -- grad-mode contexts ------------------------------------------------
    def context_grad_mode(self, expr: ast.expr) -> Optional[bool]:
        """False for ``torch.no_grad()``-like contexts, True for ``enable_grad()``."""
        if not isinstance(expr, ast.Call):
            qual = self.imports.qualify(expr)
            if qual in NO_GRAD_CONTEXTS:
                return False
            return True if qual in ENABLE_GRAD_CONTEXTS else None
        qual = self.imports.qualify(expr.func)
        if qual in NO_GRAD_CONTEXTS:
            if qual.endswith("inference_mode"):
                mode = expr.args[0] if expr.args else next(
                    (k.value for k in expr.keywords if k.arg == "mode"), None)
                if mode is not None and not is_true(mode):
                    return None if not isinstance(mode, ast.Constant) else True
            return False
        if qual in ENABLE_GRAD_CONTEXTS:
            return True
        if qual in SET_GRAD_ENABLED and expr.args:
            arg = expr.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, bool):
                return arg.value
        return None

    def set_grad_statement(self, stmt: ast.stmt) -> Optional[bool]:
        """``torch.set_grad_enabled(False)`` used as a statement: the new mode."""
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            call = stmt.value
            if self.imports.qualify(call.func) in SET_GRAD_ENABLED and call.args:
                arg = call.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, bool):
                    return arg.value
        return None

    # -- queries -----------------------------------------------------------
    def statement_of(self, node: ast.AST) -> Optional[ast.stmt]:
        parents = self._parents  # the context's parent map, read directly: this runs per node
        cur: Optional[ast.AST] = node
        while cur is not None and not isinstance(cur, ast.stmt):
            cur = parents.get(cur)
        return cur

    def _info(self, node: ast.AST) -> Optional[_StmtInfo]:
        parents = self._parents
        cur: Optional[ast.AST] = node
        while cur is not None and not isinstance(cur, ast.stmt):
            cur = parents.get(cur)
        return self._stmts.get(cur) if cur is not None else None

    def function_of(self, node: ast.AST) -> FunctionInfo:
        """Innermost function holding ``node`` (the module pseudo-function at top level)."""
        parents = self._parents
        cur: Optional[ast.AST] = node
        while cur is not None and not isinstance(cur, ast.stmt):
            cur = parents.get(cur)
        info = self._stmts.get(cur) if cur is not None else None
        return info.function if info is not None else self.module

    def functions_of(self, nodes: list[N]) -> list[tuple[N, FunctionInfo]]:
        """``(node, function_of(node))`` for each node: one loop, the lookups bound once (every
        call of a file is asked this)."""
        parents_get = self._parents.get
        stmts_get = self._stmts.get
        module = self.module
        stmt_type = ast.stmt
        out: list[tuple[N, FunctionInfo]] = []
        append = out.append
        for node in nodes:
            cur: Optional[ast.AST] = node
            while cur is not None and not isinstance(cur, stmt_type):
                cur = parents_get(cur)
            info = stmts_get(cur) if cur is not None else None
            append((node, info.function if info is not None else module))
        return out

    def loop_of(self, node: ast.AST) -> Optional[LoopInfo]:
        """Innermost loop (inside the same function) whose body holds ``node``."""
        info = self._info(node)
        if info is None:
            return None
        loop = info.loop
        stmt = self.statement_of(node)
        # A loop's own header (iterable, test) runs outside its body.
        if stmt is not None and stmt in self.loops and self.loops[stmt] is loop:
            return loop.parent if loop else None
        return loop

    def lexical_grad(self, node: ast.AST) -> tuple[Optional[bool], Optional[ast.AST]]:
        """Grad mode set by the innermost grad-mode ``with`` block in the same function."""
        info = self._info(node)
        if info is None:
            return None, None
        return info.grad, info.grad_node

    def grad_enabled(self, node: ast.AST) -> bool:
        """Whether ``node`` runs with autograd on, as far as the file shows."""
        lexical, _ = self.lexical_grad(node)
        if lexical is not None:
            return lexical
        return self.function_of(node).grad_enabled

    def resolve_function(self, name: str, fn: FunctionInfo) -> Optional[FunctionInfo]:
        """The local ``def`` a plain name refers to from inside ``fn``."""
        scope: Optional[FunctionInfo] = fn
        while scope is not None:
            found = scope.defs.get(name)
            if found is not None:
                return found
            if name in scope.bound and not scope.is_module_scope:
                return None
            scope = scope.parent
        return None

    def scope_of_name(self, name: str, fn: FunctionInfo) -> FunctionInfo:
        """The function (or module) whose binding of ``name`` ``fn`` sees."""
        if name in fn.declared_global:
            return self.module
        scope: Optional[FunctionInfo] = fn
        first = True
        while scope is not None:
            if name in scope.bound and not (first and name in fn.declared_nonlocal):
                return scope
            first = False
            scope = scope.parent
        return self.module


def _is_module_base(qual: str) -> bool:
    if qual in LIGHTNING_MODULES or qual.endswith(".LightningModule"):
        return True
    if qual.startswith("torch.nn.") and qual.rsplit(".", 1)[-1][:1].isupper():
        return not qual.endswith(("Loss", "Parameter"))
    last = qual.rsplit(".", 1)[-1]
    if last in {"PreTrainedModel", "ModelMixin", "PeftModel"}:
        return True
    # a transformers model class (``RobertaPreTrainedModel``, ``BertModel``, ``LlamaForCausalLM``): every
    # one is a ``PreTrainedModel``, an ``nn.Module``; the TensorFlow and Flax twins are not
    return qual.startswith("transformers.") and _HF_TORCH_MODEL.match(last) is not None


_HF_TORCH_MODEL = re.compile(r"(?!TF|Flax|Auto)[A-Z]\w*(PreTrainedModel|Model|For[A-Z]\w*)$")


def _is_lightning_base(qual: str) -> bool:
    """A LightningModule, or any class imported from Lightning (BoringModel, callbacks):
    their ``validation_step``-style hooks run under Lightning's no-grad loops."""
    return qual in LIGHTNING_MODULES or qual.endswith(".LightningModule") or qual.startswith(
        ("lightning.pytorch.", "pytorch_lightning."))


def scope_index(ctx: FileContext) -> ScopeIndex:
    """The file's scope index with bindings and training facts, built once per file."""

    def build() -> ScopeIndex:
        from preflight.analysis.bindings import Bindings
        from preflight.analysis.training import analyse_training

        index = ScopeIndex(ctx)
        index.bindings = Bindings(index)
        analyse_training(index)
        return index

    return ctx.cached("scopes", build)
