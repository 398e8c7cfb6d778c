"""PF146 pos-weight-not-a-tensor: ``pos_weight`` of ``BCEWithLogitsLoss`` /
``binary_cross_entropy_with_logits`` given as a Python number, a list or a numpy value: the loss raises
TypeError when it is built or first called."""

from __future__ import annotations

import ast
from typing import Iterable, Optional, Union

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

# builtins whose result is never a tensor (sum/max/abs/round of tensors are tensors)
_PY_NUMBERS = frozenset({"float", "int", "len", "list", "tuple"})
_PY_METHODS = frozenset({"item", "tolist"})
_DEPTH = 8


def _numpy_names(ctx: FileContext) -> set[str]:
    names = set()
    for node in ctx.nodes(ast.Import):
        for alias in node.names:
            if alias.name == "numpy":
                names.add(alias.asname or "numpy")
    return names


def _root(node: ast.AST) -> Optional[str]:
    while isinstance(node, (ast.Attribute, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _scope(ctx: FileContext, node: ast.AST) -> ast.AST:
    return ctx.enclosing_function(node) or ctx.parsed.tree


class _Values:
    """What an expression surely is not: a tensor (a number, a list, a numpy value)."""

    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self.numpy = _numpy_names(ctx)
        self.functions: dict[str, list[ast.FunctionDef]] = {}
        for fn in ctx.nodes(ast.FunctionDef):
            self.functions.setdefault(fn.name, []).append(fn)

    def kind(self, expr: Optional[ast.AST], scope: ast.AST, depth: int = 0) -> Optional[str]:
        """``a Python number``/``a list``/``a numpy value`` when ``expr`` is surely that; None otherwise."""
        if expr is None or depth > _DEPTH:
            return None
        if isinstance(expr, ast.Constant) and isinstance(expr.value, (int, float)) \
                and not isinstance(expr.value, bool):
            return "a Python number"
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
            return self.kind(expr.operand, scope, depth)
        if isinstance(expr, (ast.List, ast.Tuple)):
            return "a list"
        if isinstance(expr, ast.Call):
            if isinstance(expr.func, ast.Name) and expr.func.id in _PY_NUMBERS:
                return "a list" if expr.func.id in ("list", "tuple") else "a Python number"
            if isinstance(expr.func, ast.Attribute) and expr.func.attr in _PY_METHODS and not expr.args:
                return "a list" if expr.func.attr == "tolist" else "a Python number"
            if _root(expr.func) in self.numpy:
                return "a numpy value"
            return None
        if isinstance(expr, ast.BinOp):
            left = self.kind(expr.left, scope, depth + 1)
            right = self.kind(expr.right, scope, depth + 1)
            if left is None or right is None:
                return None
            return "a numpy value" if "a numpy value" in (left, right) else left
        if isinstance(expr, ast.Name):
            return self._name(expr.id, scope, depth + 1)
        return None

    def _name(self, name: str, scope: ast.AST, depth: int) -> Optional[str]:
        values: list[ast.expr] = []
        for node in ast.walk(scope):
            if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
                return None
            if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
                parent = self.ctx.parent(node)
                if not (isinstance(parent, ast.Assign) and node in parent.targets):
                    return None  # a loop or with target, an augmented assignment, a tuple target...
                values.append(parent.value)
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            params = [a.arg for a in scope.args.posonlyargs + scope.args.args + scope.args.kwonlyargs]
            if name in params:
                return None if values else self._param(scope, name, depth)
        if not values and scope is not self.ctx.parsed.tree:
            return self._name(name, self.ctx.parsed.tree, depth)
        kinds = {self.kind(v, scope, depth) for v in values}
        return kinds.pop() if len(kinds) == 1 and None not in kinds else None

    def _param(self, fn: Union[ast.FunctionDef, ast.AsyncFunctionDef], name: str, depth: int) -> Optional[str]:
        """A parameter of a module-level function every call of which in the file passes such a value."""
        if len(self.functions.get(fn.name, [])) != 1 or self.ctx.enclosing(fn, ast.ClassDef) is not None \
                or fn.args.vararg or fn.args.kwarg or any(d for d in fn.decorator_list):
            return None
        positional = [a.arg for a in fn.args.posonlyargs + fn.args.args]
        kinds: set[Optional[str]] = set()
        callers = [c for c in self.ctx.nodes(ast.Call) if isinstance(c.func, ast.Name) and c.func.id == fn.name]
        if not callers:
            return None
        for call in callers:
            if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
                return None
            given = kwarg(call, name)
            if given is None and name in positional and positional.index(name) < len(call.args):
                given = call.args[positional.index(name)]
            kinds.add(self.kind(given, _scope(self.ctx, call), depth + 1))
        return kinds.pop() if len(kinds) == 1 and None not in kinds else None


@register
class PosWeightNotATensor(Rule):
    code = "PF146"
    name = "pos-weight-not-a-tensor"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = ("`pos_weight` of BCEWithLogitsLoss / binary_cross_entropy_with_logits is a Python number, a list "
               "or a numpy value: the loss raises TypeError when built or first called")
    needs_text = ("pos_weight",)
    explanation = """
## What it finds

`nn.BCEWithLogitsLoss(pos_weight=...)` or `F.binary_cross_entropy_with_logits(..., pos_weight=...)`
whose `pos_weight` is surely not a tensor: a number literal, `float(...)`/`int(...)`/`len(...)`,
`x.item()`, a list or tuple (`[3.0]`, `x.tolist()`), a call of numpy (`np.array(...)`,
`np.float32(...)`, `np.mean(...)`), arithmetic of those only, a name every binding of which in
its function (or the module) is one of those, or a parameter of a module-level function that
every call of it in the file passes one of those.

## Why it matters

`BCEWithLogitsLoss` stores `pos_weight` with `register_buffer`, which raises
"TypeError: cannot assign 'int' object to buffer 'pos_weight' (torch Tensor or None required)"
when the criterion is built (ludwig PR 1737), and the functional form passes it to the ATen
kernel, which raises "TypeError: binary_cross_entropy_with_logits(): argument 'pos_weight'
(position 4) must be Tensor, not numpy.float64" at the first loss (gae-pytorch issue 4). Either
way the job stops after its data loading and model set-up.

## How to fix it

Wrap it in a tensor on the loss's device: `pos_weight=torch.tensor([w], device=device)`
(one element, or one per class for a multi-label target).

## When preflight stays silent

* `pos_weight` is a tensor or may be one: `torch.tensor(...)`, `torch.from_numpy(...)`, a
  tensor method, arithmetic with a value preflight cannot type (`float(n) / y.sum()` is a
  tensor when `y` is one), an attribute, a subscript, a parameter of a method or of a function
  called with something else or not called in the file.
* The name is bound by a loop, a `with`, an augmented assignment or a tuple target.
"""
    bad_examples = examples("preflight.rules.code._pf146_examples", "PF146_BAD")
    good_examples = examples("preflight.rules.code._pf146_examples", "PF146_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        values: Optional[_Values] = None
        for call in ctx.nodes(ast.Call):
            if call_last(call) not in ("BCEWithLogitsLoss", "binary_cross_entropy_with_logits"):
                continue
            given = kwarg(call, "pos_weight")
            if given is None:
                continue
            values = values or _Values(ctx)
            kind = values.kind(given, _scope(ctx, call))
            if kind is None:
                continue
            built = call_last(call) == "BCEWithLogitsLoss"
            raised = ("TypeError: cannot assign ... to buffer 'pos_weight' (torch Tensor or None required)\" "
                      "when the criterion is built" if built else
                      "TypeError: binary_cross_entropy_with_logits(): argument 'pos_weight' must be Tensor\" at "
                      "the first loss")
            yield ctx.finding(
                self, call,
                f"`pos_weight={ast.unparse(given)}` is {kind}, not a tensor: this raises \"{raised}. "
                "Give it as `torch.tensor([...], device=...)`",
                evidence=[ctx.evidence(given, f"pos_weight: {kind}")])
