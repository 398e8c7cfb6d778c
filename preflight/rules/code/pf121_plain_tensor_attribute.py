"""PF121 plain-tensor-attribute: a tensor kept as a plain attribute of an ``nn.Module`` and used
in ``forward``: ``.to()``/``.cuda()`` and ``state_dict`` skip it."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_FACTORIES = frozenset({
    "zeros", "ones", "arange", "tensor", "eye", "randn", "rand", "randint", "randperm", "linspace",
    "logspace", "empty", "full", "from_numpy", "as_tensor", "tril", "triu", "Tensor", "FloatTensor",
    "LongTensor", "BoolTensor", "IntTensor",
})
# methods whose result is no longer a (device-bound) tensor, or that already place it
_NOT_TENSOR = frozenset({
    "to", "cuda", "cpu", "numpy", "tolist", "item", "size", "dim", "numel", "type_as", "pin_memory",
    "register_buffer", "get_device",
})
# a use of the attribute that is harmless: placed, or a shape/metadata read
_SAFE_USES = frozenset({
    "to", "cuda", "cpu", "type_as", "size", "shape", "dim", "ndim", "numel", "device", "dtype", "item",
    "tolist", "numpy", "copy_", "fill_", "zero_", "data_ptr", "is_cuda", "get_device", "new_tensor",
})
_MOVERS = frozenset({"_apply", "to", "cuda", "setup", "on_fit_start", "on_train_start", "on_load_checkpoint"})
_DEPTH = 8


def _is_module_class(cls: ast.ClassDef) -> bool:
    for base in cls.bases:
        text = ast.unparse(base)
        if text.rsplit(".", 1)[-1] in ("Module", "LightningModule"):
            return True
    return False


def _self_attr(node: ast.AST) -> Optional[str]:
    if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id == "self"):
        return node.attr
    return None


class _Tensors:
    """Whether an expression of a class's method builds a CPU tensor (a torch factory without
    ``device=``, a chain of tensor methods on one, a local bound to one, a helper method of the
    class returning one)."""

    def __init__(self, ctx: FileContext, cls: ast.ClassDef) -> None:
        self.qualify = scope_index(ctx).imports.qualify
        self.methods = {f.name: f for f in cls.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}

    def is_tensor(self, expr: ast.AST, fn: ast.AST, depth: int = 0) -> bool:
        if depth > _DEPTH:
            return False
        if isinstance(expr, ast.Call):
            qual = self.qualify(expr.func) or ""
            if qual.startswith("torch.") and qual.rsplit(".", 1)[-1] in _FACTORIES and qual.count(".") == 1:
                if any(kw.arg == "device" or kw.arg is None for kw in expr.keywords):
                    return False
                # a 0-dim CPU tensor mixes with CUDA tensors
                return not (qual == "torch.tensor" and expr.args and self._scalar(expr.args[0]))
            func = expr.func
            if isinstance(func, ast.Attribute):
                if _self_attr(func) is not None and func.attr in self.methods:
                    return self._returns_tensor(self.methods[func.attr], depth + 1)
                if func.attr in _NOT_TENSOR:
                    return False
                return self.is_tensor(func.value, fn, depth + 1)
            return False
        if isinstance(expr, ast.BinOp):
            return self.is_tensor(expr.left, fn, depth + 1) or self.is_tensor(expr.right, fn, depth + 1)
        if isinstance(expr, ast.Subscript):
            return self.is_tensor(expr.value, fn, depth + 1)
        if isinstance(expr, ast.Name):
            values = [n.value for n in ast.walk(fn) if isinstance(n, ast.Assign)
                      and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets)]
            return bool(values) and all(self.is_tensor(v, fn, depth + 1) for v in values)
        return False

    def _returns_tensor(self, fn: ast.AST, depth: int) -> bool:
        returns = [n.value for n in ast.walk(fn) if isinstance(n, ast.Return)]
        return bool(returns) and all(r is not None and self.is_tensor(r, fn, depth) for r in returns)

    @staticmethod
    def _scalar(arg: ast.AST) -> bool:
        if isinstance(arg, ast.UnaryOp):
            arg = arg.operand
        if isinstance(arg, ast.Constant):
            return not isinstance(arg.value, (str, bytes))
        return isinstance(arg, (ast.Name, ast.Attribute, ast.Call, ast.BinOp))  # float(x), self.scale


def _registered(cls: ast.ClassDef, name: str) -> bool:
    """``name`` is registered as a buffer/parameter, or (re)bound outside ``__init__``."""
    for node in ast.walk(cls):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
                "register_buffer", "register_parameter", "setattr"):
            first = node.args[0] if node.args else None
            if node.func.attr == "setattr":
                first = node.args[1] if len(node.args) > 1 else None
            if not isinstance(first, ast.Constant) or first.value == name:
                return True  # a computed name may be this one
    for method in cls.body:
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) or method.name == "__init__":
            continue
        for node in ast.walk(method):
            targets: list[ast.AST] = []
            if isinstance(node, ast.Assign):
                targets = list(node.targets)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            for tgt in targets:
                for sub in ast.walk(tgt):
                    if _self_attr(sub) == name:
                        return True
    return False


def _moved_by_owner(ctx: FileContext, name: str) -> bool:
    """An ``_apply`` override elsewhere in the file re-binds ``<x>.<name>`` (YOLO's model class:
    ``m = self.model[-1]; m.stride = fn(m.stride)``): the owner moves the tensor with the module."""
    for fn in ctx.nodes(ast.FunctionDef):
        if fn.name != "_apply":
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Attribute) and t.attr == name for t in node.targets):
                return True
    return False


def _placed_later(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """The read is placed before it meets another tensor: ``self.m[:, :t].to(x.device)``,
    ``(self.r ** 2).to(d)``, ``self.m.float().cuda()``."""
    cur = node
    for _ in range(_DEPTH):
        parent = parents.get(id(cur))
        through = (
            (isinstance(parent, ast.Subscript) and parent.value is cur)
            or isinstance(parent, ast.UnaryOp)
            or (isinstance(parent, ast.BinOp)
                and isinstance(parent.right if parent.left is cur else parent.left, ast.Constant)))
        if through:
            cur = parent  # type: ignore[assignment]
        elif isinstance(parent, ast.Attribute) and parent.value is cur:
            if parent.attr in ("to", "cuda", "type_as"):
                return True
            call = parents.get(id(parent))
            if not (isinstance(call, ast.Call) and call.func is parent):
                return False
            cur = call
        else:
            return False
    return False


def _risky_use(fn: ast.AST, name: str) -> Optional[ast.AST]:
    """The first read of ``self.<name>`` in ``fn`` that feeds computation (not a placement, not a
    shape read, not an index into another tensor)."""
    parents: dict[int, ast.AST] = {}
    for node in ast.walk(fn):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    found = []
    for node in ast.walk(fn):
        if _self_attr(node) != name or not isinstance(node.ctx, ast.Load):  # type: ignore[attr-defined]
            continue
        parent = parents.get(id(node))
        if isinstance(parent, ast.Attribute) and parent.attr in _SAFE_USES:
            continue
        if _placed_later(node, parents):
            continue
        index = node
        while isinstance(parent, ast.Tuple):
            index, parent = parent, parents.get(id(parent))
        if isinstance(parent, ast.Subscript) and parent.slice is index:
            continue  # CPU indices into a CUDA tensor are moved by indexing
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in (
                "len", "isinstance", "print", "getattr", "hasattr", "id", "type"):
            continue
        found.append(node)
    return min(found, key=lambda n: (n.lineno, n.col_offset)) if found else None  # type: ignore[attr-defined]


@register
class PlainTensorAttribute(Rule):
    code = "PF121"
    name = "plain-tensor-attribute"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = "a tensor built in nn.Module.__init__ is a plain attribute, not a buffer: .to()/.cuda() and state_dict skip it"
    frameworks = ("pytorch", "lightning")
    needs_text = ("forward",)
    explanation = """
## What it finds

In a class deriving from `nn.Module` (or `LightningModule`), `__init__` assigns
`self.<name> = <tensor>`, where the tensor is built by a torch factory without
`device=` (`torch.zeros`, `torch.ones`, `torch.arange`, `torch.eye`, `torch.tensor([...])`,
...), a chain of tensor methods on one, a local bound to one, or a helper method of the
class that returns one; `forward` then reads `self.<name>` in a computation; and the
name is never registered (`register_buffer`, `register_parameter`, `nn.Parameter`) nor
re-bound in another method.

## Why it matters

`Module._apply`, behind `.to(device)`, `.cuda()`, `.half()` and the device placement of
Lightning and Accelerate, converts only `self._parameters`, `self._buffers` and the child
modules (torch/nn/modules/module.py); `state_dict()` saves only parameters and
persistent buffers. A plain tensor attribute stays on the CPU in its original dtype:
`forward` then mixes a CPU tensor with CUDA activations ("Expected all tensors to be on
the same device") and the value is missing from every checkpoint. Reported in
Lightning-AI/pytorch-lightning#3674 ("self.tem is not moved to GPU as expected"; fixed
with `register_buffer`).

## How to fix it

`self.register_buffer("<name>", tensor)` (add `persistent=False` to keep it out of the
checkpoint), or `nn.Parameter(tensor, requires_grad=False)`.

## When preflight stays silent

* The tensor is built with `device=`, placed with `.to(...)`/`.cuda()`, or is a 0-dim
  `torch.tensor(<scalar>)` (a CPU scalar tensor combines with CUDA tensors).
* Every read in `forward` places it (`self.x.to(h.device)`, `.type_as(h)`), reads its
  shape, or uses it as an index.
* The name is registered, set through `setattr`/`register_*` with a computed name, or
  re-bound in another method; the class overrides `_apply`, `to`, `cuda` or a Lightning
  `setup`/`on_fit_start` hook (it may move the tensor itself), or an `_apply` override in
  the same file re-binds an attribute of that name (a model moving its head's tensors:
  `m.stride = fn(m.stride)`).
* The class does not derive directly from `nn.Module`/`LightningModule`.
"""
    bad_examples = examples("preflight.rules.code._pf121_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf121_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for cls in ctx.nodes(ast.ClassDef):
            if not _is_module_class(cls):
                continue
            methods = {f.name: f for f in cls.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
            init, forward = methods.get("__init__"), methods.get("forward")
            if init is None or forward is None or _MOVERS & set(methods):
                continue
            tensors = _Tensors(ctx, cls)
            seen: set[str] = set()
            for node in ast.walk(init):
                if not isinstance(node, ast.Assign) or len(node.targets) != 1:
                    continue
                name = _self_attr(node.targets[0])
                if name is None or name in seen or ctx.enclosing_function(node) is not init:
                    continue
                seen.add(name)
                bound = [a.value for a in ast.walk(init) if isinstance(a, ast.Assign)
                         and any(_self_attr(t) == name for t in a.targets)]
                if not all(tensors.is_tensor(v, init) for v in bound) or _registered(cls, name) \
                        or _moved_by_owner(ctx, name):
                    continue
                use = _risky_use(forward, name)
                if use is None:
                    continue
                message = (
                    f"`self.{name}` is a tensor kept as a plain attribute of `{cls.name}` and used in "
                    f"`forward` (line {use.lineno}): `.to(device)`/`.cuda()` (and Lightning/Accelerate "  # type: ignore[attr-defined]
                    f"device placement) move only parameters and registered buffers, so it stays on "
                    f"the CPU (a device mismatch on GPU) and `state_dict` does not save it. Use "
                    f"`self.register_buffer({name!r}, ...)`")
                evidence = [ctx.evidence(use, "read here, on whatever device it was built on")]
                yield ctx.finding(self, node, message, evidence=evidence)
