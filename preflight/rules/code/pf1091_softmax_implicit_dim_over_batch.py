"""PF1091 softmax-implicit-dim-over-batch: ``F.softmax(x)`` without ``dim`` on a tensor the file shows is 3-D:
the implicit dimension is then 0, the batch, not the last (or the time) axis."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_SOFTMAX_FUNCS = frozenset({"softmax", "log_softmax", "softmin"})
_SOFTMAX_ROOTS = frozenset({"F", "torch", "functional", "nn.functional", "torch.nn.functional"})
_SOFTMAX_MODULES = frozenset({"Softmax", "LogSoftmax", "Softmin"})
_RNN_MODULES = frozenset({"LSTM", "GRU", "RNN"})
# modules / functions whose output has the rank of their (first) input
_SAME_RANK_MODULES = frozenset({
    "Linear", "Dropout", "LayerNorm", "Tanh", "ReLU", "GELU", "Sigmoid", "LeakyReLU", "ELU", "SiLU", "Identity",
})
_SAME_RANK_FUNCS = frozenset({
    "tanh", "sigmoid", "relu", "gelu", "elu", "silu", "leaky_relu", "dropout", "exp", "abs", "neg", "layer_norm",
})
_SAME_RANK_METHODS = frozenset({
    "masked_fill", "masked_fill_", "contiguous", "float", "double", "half", "to", "clone", "tanh", "exp", "sigmoid",
    "relu", "transpose", "clamp", "clamp_min", "mul", "div", "add", "sub", "type_as", "detach", "cuda",
})
_MAX_DEPTH = 12


def _softmax_call(node: ast.Call, implicit_modules: set[str]) -> Optional[str]:
    """The name of a softmax called without ``dim`` (``F.softmax(x)``, ``self.softmax(x)`` of an
    ``nn.Softmax()``), else None."""
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in _SOFTMAX_FUNCS \
            and ast.unparse(func.value) in _SOFTMAX_ROOTS:
        if len(node.args) != 1 or any(kw.arg in {"dim", "_stacklevel"} or kw.arg is None for kw in node.keywords):
            return None
        if isinstance(node.args[0], ast.Starred):
            return None
        return f"{ast.unparse(func.value)}.{func.attr}"
    if isinstance(func, ast.Call) and not func.args and not func.keywords and len(node.args) == 1 \
            and not node.keywords and isinstance(func.func, ast.Attribute) and func.func.attr in _SOFTMAX_MODULES:
        return f"{ast.unparse(func)}"  # nn.Softmax()(x)
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self" \
            and func.attr in implicit_modules and len(node.args) == 1 and not node.keywords:
        return f"self.{func.attr}"
    return None


def _module_kinds(cls: Optional[ast.ClassDef]) -> dict[str, str]:
    """``self.x = nn.Linear(...)`` in the class: attribute -> class name; ``nn.Softmax()`` without dim as
    ``"Softmax()"``."""
    out: dict[str, str] = {}
    if cls is None:
        return out
    for node in ast.walk(cls):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call)):
            continue
        target = node.targets[0]
        if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"):
            continue
        func = node.value.func
        kind = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if kind in _SOFTMAX_MODULES and not node.value.args and not node.value.keywords:
            kind += "()"
        if target.attr in out and out[target.attr] != kind:
            out[target.attr] = "?"  # bound to different things: unknown
        else:
            out[target.attr] = kind
    return out


class _Rank:
    """The number of dimensions of an expression of one function, where its statements show it."""

    def __init__(self, fn: ast.AST, modules: dict[str, str]) -> None:
        self.modules = modules
        self.assigns: list[tuple[int, ast.expr, ast.expr]] = []  # (line, target, value)
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                self.assigns.append((node.lineno, node.targets[0], node.value))
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.With, ast.NamedExpr)):
                target = getattr(node, "target", None)
                for name in ast.walk(target) if target is not None else []:
                    if isinstance(name, ast.Name):
                        self.assigns.append((node.lineno, name, ast.Constant(None)))  # unknown value
        self.params = {a.arg for a in ast.walk(fn) if isinstance(a, ast.arg)}

    def of(self, expr: ast.expr, line: int, depth: int = 0) -> Optional[int]:
        if depth > _MAX_DEPTH:
            return None
        if isinstance(expr, ast.Name):
            return self._name(expr.id, line, depth)
        if isinstance(expr, ast.BinOp):
            left, right = self.of(expr.left, line, depth + 1), self.of(expr.right, line, depth + 1)
            if _scalar(expr.right):
                return left
            if _scalar(expr.left):
                return right
            return left if left is not None and left == right else None
        if not isinstance(expr, ast.Call):
            return None
        func = expr.func
        if isinstance(func, ast.Attribute):
            root = ast.unparse(func.value)
            if func.attr in {"bmm", "baddbmm"} and (root == "torch" or not expr.args or len(expr.args) == 1):
                return 3
            if root in _SOFTMAX_ROOTS and func.attr in _SAME_RANK_FUNCS and expr.args:
                return self.of(expr.args[0], line, depth + 1)
            if root == "self" and expr.args and self.modules.get(func.attr) in _SAME_RANK_MODULES:
                return self.of(expr.args[0], line, depth + 1)
            if func.attr in {"view", "reshape"} and expr.args:
                if len(expr.args) == 1 and isinstance(expr.args[0], (ast.Tuple, ast.List)):
                    elts = expr.args[0].elts
                    return None if any(isinstance(e, ast.Starred) for e in elts) else len(elts)
                if len(expr.args) >= 2 and not any(isinstance(a, ast.Starred) for a in expr.args):
                    return len(expr.args)
                return None
            if func.attr == "permute" and len(expr.args) >= 2 \
                    and not any(isinstance(a, ast.Starred) for a in expr.args):
                return len(expr.args)
            if func.attr == "unsqueeze":
                base = self.of(func.value, line, depth + 1)
                return base + 1 if base is not None else None
            if func.attr in _SAME_RANK_METHODS:
                return self.of(func.value, line, depth + 1)
        return None

    def _name(self, name: str, line: int, depth: int) -> Optional[int]:
        if name in self.params and not any(
                isinstance(t, ast.Name) and t.id == name for ln, t, _ in self.assigns if ln < line):
            return None
        latest: Optional[tuple[int, ast.expr, ast.expr]] = None
        for ln, target, value in self.assigns:
            if ln < line and any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(target)) \
                    and (latest is None or ln >= latest[0]):
                latest = (ln, target, value)
        if latest is None:
            return None
        ln, target, value = latest
        if isinstance(target, ast.Name):
            return self.of(value, ln, depth + 1)
        if isinstance(target, ast.Tuple) and target.elts and isinstance(target.elts[0], ast.Name) \
                and target.elts[0].id == name and isinstance(value, ast.Call):
            func = value.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self" \
                    and self.modules.get(func.attr) in _RNN_MODULES:
                return 3  # the output sequence of a recurrent layer run on a batch
        return None


def _scalar(expr: ast.expr) -> bool:
    """A plain number: a constant, ``math.sqrt(d)``, ``self.scale``, ``d ** 0.5``."""
    if isinstance(expr, ast.Constant):
        return isinstance(expr.value, (int, float))
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "sqrt" \
            and ast.unparse(expr.func.value) in {"math", "np", "numpy"}:
        return True
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Pow):
        return isinstance(expr.right, ast.Constant)
    return False


@register
class SoftmaxImplicitDimOverBatch(Rule):
    code = "PF1091"
    name = "softmax-implicit-dim-over-batch"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    needs_text = ("softmax", "Softmax", "softmin", "Softmin")
    summary = ("`F.softmax(x)` (or an `nn.Softmax()`) without `dim` on a tensor the file shows is 3-D: the "
               "implicit dimension is 0, so it normalises across the batch")
    explanation = """
## What it finds

A `softmax` / `log_softmax` / `softmin` called without `dim` (`F.softmax(scores)`,
`torch.softmax(x)`, `nn.Softmax()(x)`, or a `self.softmax = nn.Softmax()` module) on an expression the same
function shows is 3-D: the result of `torch.bmm`, a `view`/`reshape`/`permute` to three sizes,
the output sequence of the module's `nn.LSTM`/`GRU`/`RNN`, followed only by rank-keeping steps
(`nn.Linear`, activations, `masked_fill`, division by a constant, `unsqueeze` counted).

## Why it matters

Without `dim`, PyTorch picks the dimension from the input's rank (and warns "Implicit
dimension choice for softmax has been deprecated"): 0 for 0-, 1- and 3-D inputs, 1 otherwise.
For a (batch, time, 1) attention score or a (batch, query, key) attention matrix that is the
batch: each position's weights are normalised across the examples of the batch, not over its
own sequence. Nothing fails; the model trains on batch-dependent, wrong weights (pytorch
issue 1020 "Ambiguous docs+confusing behavior of softmax for 3+ dimensions";
PetrochukM/PyTorch-NLP issue 2; jadore801120/attention-is-all-you-need-pytorch issue 52).

## How to fix it

Name the axis: `F.softmax(scores, dim=1)` over the time steps, `dim=-1` over the keys.

## When preflight stays silent

* `dim` is given (by keyword or as the second argument).
* The input's rank is not shown by the function (a parameter, a `squeeze()` that may or may not
  drop an axis, a subscript): 2-D logits, where the implicit dimension 1 is right, are the
  common case.
* The input is 1-D (dimension 0 is its only axis) or 4-D and more (dimension 1, the channels).
"""
    bad_examples = examples("preflight.rules.code._pf1091_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf1091_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for fn in ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
            cls = ctx.parent(fn)
            modules = _module_kinds(cls if isinstance(cls, ast.ClassDef) else None)
            implicit = {attr for attr, kind in modules.items() if kind.endswith("()")}
            rank: Optional[_Rank] = None
            for node in ast.walk(fn):
                if not isinstance(node, ast.Call) or ctx.enclosing_function(node) is not fn:
                    continue
                what = _softmax_call(node, implicit)
                if what is None:
                    continue
                if rank is None:
                    rank = _Rank(fn, modules)
                if rank.of(node.args[0], node.lineno) != 3:
                    continue
                yield ctx.finding(
                    self, node,
                    f"`{what}` is called without `dim` on a 3-D tensor: the implicit dimension is 0, so the "
                    "weights are normalised across the batch, not over each example's own positions. Name "
                    "the axis (`dim=1` over the time steps, `dim=-1` over the keys)")
