"""Tensors, devices and the training step: shared facts for the PF30x rules.

Built once per file (``device_facts(ctx)``) on top of :mod:`scopes`,
:mod:`bindings` and :mod:`dataflow`:

* ``is_tensor(expr, fn)``: the expression is known to evaluate to a
  ``torch.Tensor`` -- it carries an autograd graph (from a forward in this file)
  as a tensor, comes from a ``torch.<factory>()``, ``torch.nn.functional.*``, ``torch.tensor``/``from_numpy``, a tensor method of a
  known tensor, or is a field unpacked from a batch of a ``DataLoader`` (default
  collation). A name is a tensor only if *every* binding of it in its scope is
  one (flow-insensitive and conservative: unknown means "not a tensor").
* ``host_tensor(name, fn)``: every binding of the name builds a tensor on the
  host (a factory without ``device=``, ``torch.tensor``, ``from_numpy``, ``.cpu()``).
* ``bind_lines(name, fn)``: where a name is bound, for loop invariance.
* ``cuda_evidence``: the first node that really puts work on CUDA (``.cuda()``,
  ``.to("cuda")``, ``torch.device("cuda")``, ``device = "cuda" if ... else``,
  ``device="cuda"``), never a substring of a comment or an identifier.
* ``step_loop(node)``: the innermost *training* loop around a node, the
  non-training loops and comprehensions in between (per-element loops), and
  whether an ``if``/``try`` branch sits in between (the code runs only on some
  steps).
* ``device_target(call)``: for ``x.to(...)`` / ``x.cuda()``, whether it moves
  data to an accelerator (not a dtype cast, not ``"cpu"``).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Optional

from preflight._record import dataclass, field
from preflight.analysis import tensor_ops as tables
from preflight.analysis.bindings import MODULE
from preflight.analysis.dataflow import GradFlow, grad_flow
from preflight.analysis.scopes import FunctionInfo, LoopInfo, ScopeIndex, scope_index

if TYPE_CHECKING:
    from preflight.analysis.context import FileContext

# torch.<fn> calls that return one tensor (besides the factories).
_TORCH_TENSOR_FUNCS = frozenset({
    "tensor", "as_tensor", "from_numpy", "stack", "cat", "concat", "randint", "randperm",
    "zeros_like", "ones_like", "full_like", "empty_like", "rand_like", "randn_like",
    "randint_like", "bernoulli", "multinomial", "where", "matmul", "mm", "bmm", "exp", "log",
    "sigmoid", "tanh", "softmax", "log_softmax", "clamp", "abs", "sqrt", "argmax", "argmin",
    "eq", "ne", "gt", "lt", "ge", "le", "isnan", "isinf", "flatten", "reshape", "squeeze",
    "unsqueeze", "einsum", "sum", "mean", "LongTensor", "FloatTensor", "Tensor",
    "BoolTensor", "IntTensor",
}) | tables.TORCH_FACTORIES
# Methods of a tensor that return one tensor.
_TENSOR_RESULT = (tables.TENSOR_METHODS | {
    "argmax", "argmin", "eq", "ne", "lt", "le", "gt", "ge", "long", "int", "bool", "byte",
    "detach", "isnan", "isinf", "nonzero", "all", "any", "sign",
}) - {"values", "items", "rsample", "log_prob", "entropy", "cdf", "icdf"}
DEVICE_MOVES = frozenset({"to", "cuda"})
_DTYPE_NAMES = frozenset({
    "float", "float16", "float32", "float64", "half", "double", "bfloat16", "long", "int",
    "int8", "int16", "int32", "int64", "uint8", "bool", "short", "complex64", "complex128",
    "cfloat", "cdouble", "float8_e4m3fn", "float8_e5m2",
})
_LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
_ITER_WRAPPERS = frozenset({"enumerate", "tqdm", "iter", "tqdm.tqdm", "tqdm.auto.tqdm",
                            "tqdm.notebook.tqdm", "tqdm.rich.tqdm"})
BRANCHES = (ast.If, ast.IfExp, ast.ExceptHandler)

Key = tuple[FunctionInfo, str]


@dataclass
class StepPlace:
    """Where a node sits relative to the innermost training loop around it."""

    loop: LoopInfo
    inner: list[ast.AST] = field(default_factory=list)  # per-element loops in between
    guard: Optional[ast.AST] = None  # an if/try branch in between


def _cuda_string(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and (
        node.value == "cuda" or node.value.startswith("cuda:"))


def _strings_in(node: ast.AST) -> list[ast.AST]:
    """The string constants an expression can evaluate to (``a if c else b``)."""
    if isinstance(node, ast.IfExp):
        return [*_strings_in(node.body), *_strings_in(node.orelse)]
    if isinstance(node, ast.BoolOp):
        out: list[ast.AST] = []
        for value in node.values:
            out.extend(_strings_in(value))
        return out
    return [node]


class DeviceFacts:
    """See the module docstring."""

    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self.scopes: ScopeIndex = scope_index(ctx)
        self._flow: Optional[GradFlow] = None  # built on first need: most questions are settled without it
        self.imports = self.scopes.imports
        # (scope, name) -> [(binding node, value or marker)]; the value is None when unknown
        self.binds: dict[Key, list[tuple[ast.AST, Optional[ast.AST]]]] = {}
        self._batch_fields: set[int] = set()  # id() of loop targets that are batch fields
        self._tensor_cache: dict[Key, bool] = {}
        self._evaluating: list[Key] = []
        self._collect()
        self.cuda_evidence: Optional[ast.AST] = self._find_cuda()

    @property
    def flow(self) -> GradFlow:
        if self._flow is None:
            self._flow = grad_flow(self.ctx)
        return self._flow

    # -- collection --------------------------------------------------------
    def _add(self, target: ast.AST, value: Optional[ast.AST], node: ast.AST,
             fn: FunctionInfo) -> None:
        if isinstance(target, ast.Name):
            key = (self.scopes.scope_of_name(target.id, fn), target.id)
            self.binds.setdefault(key, []).append((target, value))
        elif isinstance(target, (ast.Tuple, ast.List)):
            values: list[Optional[ast.AST]] = [None] * len(target.elts)
            if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts):
                values = list(value.elts)
            for elt, val in zip(target.elts, values):
                self._add(elt, val, node, fn)
        elif isinstance(target, ast.Starred):
            self._add(target.value, None, node, fn)

    def _collect(self) -> None:
        ctx = self.ctx
        for node in ctx.nodes(ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr):
            fn = self.scopes.function_of(node)
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    self._add(target, node.value, node, fn)
            elif isinstance(node, ast.AugAssign):
                self._add(node.target, node, node, fn)  # a tensor if ``target op value`` is
            elif node.value is not None:
                self._add(node.target, node.value, node, fn)
        for loop in ctx.nodes(ast.For, ast.AsyncFor, ast.comprehension, ast.withitem):
            fn = self.scopes.function_of(loop)
            if isinstance(loop, ast.withitem):
                if loop.optional_vars is not None:
                    self._add(loop.optional_vars, None, loop, fn)
                continue
            fields = self._batch_targets(loop.target, loop.iter, fn)
            for field_node in fields:
                self._batch_fields.add(id(field_node))
            self._add(loop.target, None, loop, fn)
        for fn in self.scopes.functions.values():
            defn = fn.node
            if isinstance(defn, ast.Module):
                continue
            args = defn.args
            for arg in [*getattr(args, "posonlyargs", []), *args.args, *args.kwonlyargs,
                        *([args.vararg] if args.vararg else []),
                        *([args.kwarg] if args.kwarg else [])]:
                ann = arg.annotation
                tensor = ann is not None and self.imports.qualify(ann) == "torch.Tensor"
                self.binds.setdefault((fn, arg.arg), []).append(
                    (arg, ast.Name(id="<tensor>") if tensor else None))
        for named in ctx.nodes(ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef,
                               ast.AsyncFunctionDef):
            fn = self.scopes.function_of(named)
            names = [a.asname or a.name.split(".")[0] for a in named.names] if isinstance(
                named, (ast.Import, ast.ImportFrom)) else [named.name]
            for name in names:
                key = (self.scopes.scope_of_name(name, fn), name)
                self.binds.setdefault(key, []).append((named, None))

    def _batch_targets(self, target: ast.AST, it: ast.AST, fn: FunctionInfo) -> list[ast.AST]:
        """Names a ``for`` target unpacks from a default-collated DataLoader batch."""
        enumerated = False
        while isinstance(it, ast.Call) and it.args and (
                self.imports.qualify(it.func) or "") in _ITER_WRAPPERS:
            enumerated |= self.imports.qualify(it.func) == "enumerate"
            it = it.args[0]
        if enumerated:
            if not (isinstance(target, ast.Tuple) and len(target.elts) == 2):
                return []
            target = target.elts[1]
        if not isinstance(target, (ast.Tuple, ast.List)) or not self.is_loader(it, fn):
            return []
        return [e for e in target.elts if isinstance(e, ast.Name)]

    def loader_call(self, expr: ast.AST, fn: FunctionInfo) -> Optional[ast.Call]:
        """The ``DataLoader(...)`` call a name is bound to (its only binding)."""
        if isinstance(expr, ast.Call):
            qual = self.imports.qualify(expr.func) or ""
            return expr if qual in _LOADERS else None
        if isinstance(expr, ast.Name):
            found = self.binds.get((self.scopes.scope_of_name(expr.id, fn), expr.id), [])
            if len(found) == 1 and isinstance(found[0][1], ast.Call):
                return self.loader_call(found[0][1], fn)
        return None

    def is_loader(self, expr: ast.AST, fn: FunctionInfo) -> bool:
        call = self.loader_call(expr, fn)
        return call is not None and not any(
            k.arg in ("collate_fn", None) for k in call.keywords)

    def _find_cuda(self) -> Optional[ast.AST]:
        for call, _fn in self.scopes.bindings.call_functions:
            func = call.func
            qual = self.imports.qualify(func) or ""
            if isinstance(func, ast.Attribute) and func.attr == "cuda" and not qual.startswith(
                    "torch.cuda") and qual != "torch.cuda":
                return call
            if (isinstance(func, ast.Attribute) and func.attr == "to") or qual == "torch.device":
                for arg in [*call.args[:1], *(k.value for k in call.keywords if k.arg == "device")]:
                    if any(_cuda_string(s) for s in _strings_in(arg)):
                        return call
            if qual == "torch.cuda.set_device":
                return call
            for kw in call.keywords:
                if kw.arg == "device" and any(_cuda_string(s) for s in _strings_in(kw.value)):
                    return call
        for node in self.ctx.nodes(ast.Assign):
            if any(_cuda_string(s) for s in _strings_in(node.value)):
                return node
        return None

    # -- tensors -----------------------------------------------------------
    def name_bindings(self, name: str, fn: FunctionInfo) -> list[tuple[ast.AST, Optional[ast.AST]]]:
        return self.binds.get((self.scopes.scope_of_name(name, fn), name), [])

    def is_module(self, expr: ast.AST, fn: FunctionInfo) -> bool:
        found = self.scopes.bindings.lookup(expr, fn)
        return found is not None and found.kind == MODULE

    def is_tensor(self, expr: ast.AST, fn: FunctionInfo, depth: int = 0) -> bool:
        if depth > 12:
            return False
        fact = self.flow.fact(expr)
        if fact is not None and fact.is_tensor and fact.real:
            return True  # a graph from a forward or a grad leaf built in this file
        if isinstance(expr, ast.Name):
            if expr.id == "<tensor>":
                return True
            scope = self.scopes.scope_of_name(expr.id, fn)
            key = (scope, expr.id)
            if key in self._tensor_cache:
                return self._tensor_cache[key]
            if key in self._evaluating:
                # ``x = x.view(...)`` refers to the name being decided: it is a tensor if
                # the other bindings are; longer cycles resolve to "unknown"
                return self._evaluating[-1] == key
            self._evaluating.append(key)
            found = self.binds.get(key, [])
            ok = bool(found) and not self.is_module(expr, fn) and all(
                id(target) in self._batch_fields or (
                    value is not None and self._value_is_tensor(value, scope, depth + 1))
                for target, value in found)
            self._evaluating.pop()
            self._tensor_cache[key] = ok
            return ok
        if isinstance(expr, ast.Call):
            return self._call_is_tensor(expr, fn, depth)
        if isinstance(expr, ast.Subscript):
            sl = expr.slice
            if isinstance(sl, ast.Constant) and isinstance(sl.value, str):
                return False
            return self.is_tensor(expr.value, fn, depth + 1)
        if isinstance(expr, ast.BinOp):
            return self.is_tensor(expr.left, fn, depth + 1) or self.is_tensor(
                expr.right, fn, depth + 1)
        if isinstance(expr, ast.Compare) and len(expr.ops) == 1 and not isinstance(
                expr.ops[0], (ast.Is, ast.IsNot, ast.In, ast.NotIn)):
            return self.is_tensor(expr.left, fn, depth + 1) or self.is_tensor(
                expr.comparators[0], fn, depth + 1)
        if isinstance(expr, ast.UnaryOp) and not isinstance(expr.op, ast.Not):
            return self.is_tensor(expr.operand, fn, depth + 1)
        if isinstance(expr, ast.Attribute) and expr.attr in ("T", "mT", "data", "grad"):
            return self.is_tensor(expr.value, fn, depth + 1)
        return False

    def _value_is_tensor(self, value: ast.AST, fn: FunctionInfo, depth: int) -> bool:
        if isinstance(value, ast.AugAssign):
            return self.is_tensor(value.value, fn, depth)
        return self.is_tensor(value, fn, depth)

    def _call_is_tensor(self, call: ast.Call, fn: FunctionInfo, depth: int) -> bool:
        func = call.func
        qual = self.imports.qualify(func) or ""
        if qual.startswith("torch.") and qual.count(".") == 1:
            return qual[6:] in _TORCH_TENSOR_FUNCS
        if qual.startswith("torch.nn.functional.") and qual.count(".") == 3:
            # one tensor, except the tuple-returning attention and return_indices forms
            return "multi_head" not in qual and not any(
                k.arg in ("return_indices", None) for k in call.keywords)
        if isinstance(func, ast.Attribute) and func.attr in _TENSOR_RESULT:
            if func.attr in tables.DIM_PAIR_REDUCTIONS and (call.args or call.keywords):
                return False
            if isinstance(func.value, ast.Name) and func.value.id in self.imports.aliases:
                return False
            return self.is_tensor(func.value, fn, depth + 1)
        return False

    def host_tensor(self, name: ast.Name, fn: FunctionInfo) -> Optional[ast.AST]:
        """The binding that builds ``name`` on the host, if every binding of it does."""
        found = self.name_bindings(name.id, fn)
        if not found or self.is_module(name, fn):
            return None
        first: Optional[ast.AST] = None
        for _target, value in found:
            if not isinstance(value, ast.Call) or not self._host_built(value):
                return None
            first = first or value
        return first

    def _host_built(self, call: ast.Call) -> bool:
        qual = self.imports.qualify(call.func) or ""
        if qual.startswith("torch.") and qual.count(".") == 1 and qual[6:] in (
                tables.TORCH_FACTORIES | {"tensor", "as_tensor", "from_numpy", "randint",
                                          "randperm", "LongTensor", "FloatTensor", "Tensor"}):
            device = next((k.value for k in call.keywords if k.arg == "device"), None)
            if any(k.arg is None for k in call.keywords):
                return False
            return device is None or (isinstance(device, ast.Constant) and device.value == "cpu")
        func = call.func
        return isinstance(func, ast.Attribute) and func.attr == "cpu" and not call.args

    def is_batch_field(self, target: ast.AST) -> bool:
        """A ``for`` target unpacked from a default-collated DataLoader batch."""
        return id(target) in self._batch_fields

    def bind_lines(self, name: str, fn: FunctionInfo) -> list[int]:
        return [getattr(t, "lineno", 0) for t, _ in self.name_bindings(name, fn)]

    # -- devices -----------------------------------------------------------
    def device_target(self, call: ast.Call) -> Optional[ast.AST]:
        """For ``x.to(dev)`` / ``x.cuda()``: the device expression (the call for ``.cuda()``),
        or None when it is a dtype cast, a move to the CPU, or cannot be told."""
        func = call.func
        if not isinstance(func, ast.Attribute) or func.attr not in DEVICE_MOVES:
            return None
        if func.attr == "cuda":
            return call
        target = call.args[0] if call.args else next(
            (k.value for k in call.keywords if k.arg == "device"), None)
        if target is None or isinstance(target, ast.Starred):
            return None
        if isinstance(target, ast.Constant):
            return target if _cuda_string(target) else None
        qual = self.imports.qualify(target) or ""
        if qual.startswith("torch.") and qual[6:] in _DTYPE_NAMES:
            return None
        if isinstance(target, ast.Attribute) and target.attr == "dtype":
            return None
        return target

    # -- place in the training step -----------------------------------------
    def step_place(self, node: ast.AST) -> Optional[StepPlace]:
        loop = self.scopes.loop_of(node)
        while loop is not None and not loop.training:
            loop = loop.parent
        if loop is None:
            return None
        place = StepPlace(loop)
        child: ast.AST = node
        for anc in self.ctx.ancestors(node):
            if anc is loop.node:
                if child not in loop.node.body:
                    return None  # the header or the else-branch
                break
            if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                return None
            if isinstance(anc, (ast.For, ast.AsyncFor)):
                if child in anc.body:
                    place.inner.append(anc)
                elif child in anc.orelse and place.guard is None:
                    place.guard = anc
            elif isinstance(anc, ast.While):
                if child in anc.body or child is anc.test:
                    place.inner.append(anc)
                elif place.guard is None:
                    place.guard = anc
            elif isinstance(anc, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                place.inner.append(anc)
            elif isinstance(anc, BRANCHES):
                is_test = isinstance(anc, (ast.If, ast.IfExp)) and child is anc.test
                if not is_test and place.guard is None:
                    place.guard = anc
            child = anc
        return place


def device_facts(ctx: FileContext) -> DeviceFacts:
    return ctx.cached("devices", lambda: DeviceFacts(ctx))
