"""PF169 loss-weight-not-a-tensor: a loss's class/element ``weight`` given as a Python number, a list or a
numpy array (the loss modules register it as a buffer, the functional ops take only a Tensor); ``pos_weight``
is PF146's."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls
from preflight.rules.base import Rule, examples

# loss modules whose first positional parameter is ``weight`` (kept with register_buffer)
_MODULES = {"BCEWithLogitsLoss": ("weight",), "BCELoss": ("weight",),
            "CrossEntropyLoss": ("weight",), "NLLLoss": ("weight",), "MultiLabelSoftMarginLoss": ("weight",)}
_FUNCTIONS = {"binary_cross_entropy_with_logits": ("weight",), "binary_cross_entropy": ("weight",),
              "cross_entropy": ("weight",), "nll_loss": ("weight",)}
_NUMBER, _LIST, _ARRAY = "a Python number", "a Python list", "a numpy value"
_ARRAY_MAKERS = ("numpy.", "sklearn.utils.class_weight.compute_class_weight", "sklearn.utils.compute_class_weight")


def _target(qual: str) -> Optional[tuple[str, bool]]:
    """(loss name, is a module) for a torch loss the rule reads."""
    last = qual.rsplit(".", 1)[-1]
    if qual in (f"torch.nn.{last}", f"torch.nn.modules.loss.{last}") and last in _MODULES:
        return last, True
    if qual == f"torch.nn.functional.{last}" and last in _FUNCTIONS:
        return last, False
    return None


class _Kinds:
    """What a value is when it is provably not a Tensor: a Python number, a list or a numpy value."""

    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self.quals = dict((id(c), q) for c, q in calls(ctx))

    def of(self, node: ast.AST, scope: ast.AST, depth: int = 0) -> Optional[str]:
        if depth > 4:
            return None
        if isinstance(node, ast.Constant):
            return _NUMBER if isinstance(node.value, (int, float)) and not isinstance(node.value, bool) else None
        if isinstance(node, (ast.List, ast.Tuple)):
            return _LIST if node.elts else None
        if isinstance(node, ast.UnaryOp):
            return self.of(node.operand, scope, depth + 1)
        if isinstance(node, ast.BinOp):
            left, right = self.of(node.left, scope, depth + 1), self.of(node.right, scope, depth + 1)
            if left is None or right is None:
                return None
            return _ARRAY if _ARRAY in (left, right) else left
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, ast.Name):
            return self._name(node, scope, depth)
        return None

    def _call(self, call: ast.Call) -> Optional[str]:
        func = call.func
        if isinstance(func, ast.Name) and func.id in ("float", "int", "len") and func.id not in self._defined():
            return _NUMBER
        if isinstance(func, ast.Attribute) and not call.args:
            if func.attr == "item":
                return _NUMBER
            if func.attr == "tolist":
                return _LIST
            if func.attr == "numpy":
                return _ARRAY
        qual = self.quals.get(id(call)) or ""
        return _ARRAY if qual.startswith(_ARRAY_MAKERS) else None

    def _defined(self) -> set[str]:
        return self.ctx.cached("pf169.defined", lambda: {n.name for n in self.ctx.nodes(ast.FunctionDef)})

    def _name(self, name: ast.Name, scope: ast.AST, depth: int) -> Optional[str]:
        kinds: list[Optional[str]] = []
        for node in ast.walk(scope):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and node is not scope:
                continue
            if isinstance(node, ast.Assign) and self.ctx.enclosing_function(node) is _fn(scope):
                for target in node.targets:
                    if isinstance(target, ast.Name) and target.id == name.id:
                        kinds.append(self.of(node.value, scope, depth + 1))
                    elif any(isinstance(t, ast.Name) and t.id == name.id for t in ast.walk(target)):
                        kinds.append(None)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.With, ast.NamedExpr)):
                targets = [node.target] if not isinstance(node, ast.With) else [
                    i.optional_vars for i in node.items if i.optional_vars is not None]
                if any(isinstance(t, ast.Name) and t.id == name.id for tg in targets for t in ast.walk(tg)):
                    kinds.append(None)
        if kinds:
            return kinds[-1] if all(k is not None for k in kinds) else None
        if isinstance(scope, ast.FunctionDef):
            return self._parameter(scope, name.id, depth)
        return None

    def _parameter(self, fn: ast.FunctionDef, param: str, depth: int) -> Optional[str]:
        """The kind every call of ``fn`` in the file passes for ``param`` (positional or keyword)."""
        params = [a.arg for a in [*fn.args.posonlyargs, *fn.args.args]]
        if param not in params or fn.args.vararg is not None:
            return None
        index = params.index(param)
        kinds = []
        for call in self.ctx.nodes(ast.Call):
            if not (isinstance(call.func, ast.Name) and call.func.id == fn.name):
                continue
            arg = next((k.value for k in call.keywords if k.arg == param), None)
            if arg is None and index < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args):
                arg = call.args[index]
            if arg is None:
                return None
            caller = self.ctx.enclosing_function(call) or self.ctx.tree
            kinds.append(self.of(arg, caller, depth + 1))
        return kinds[0] if kinds and all(k is not None for k in kinds) else None


def _fn(scope: ast.AST) -> Optional[ast.AST]:
    return scope if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


@register
class LossWeightNotATensor(Rule):
    code = "PF169"
    name = "loss-weight-not-a-tensor"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    summary = ("A loss's class `weight` is a Python number, a list or a numpy array (sklearn's class weights): the "
               "loss modules register it as a buffer and the functional losses take only a Tensor: TypeError")
    frameworks = ("pytorch",)
    needs_text = ("weight",)
    explanation = """
## What it finds

`weight=` (or the first positional argument of the module) of
`nn.BCEWithLogitsLoss`, `nn.BCELoss`, `nn.CrossEntropyLoss`, `nn.NLLLoss`,
`nn.MultiLabelSoftMarginLoss`, or of `F.binary_cross_entropy_with_logits`,
`F.binary_cross_entropy`, `F.cross_entropy`, `F.nll_loss`, whose value is provably not a
Tensor: a number literal, `float(...)`/`int(...)`, a list or tuple, a `numpy` call (sklearn's
`compute_class_weight` included), `.item()`/`.tolist()`/`.numpy()`, arithmetic of those, or a
name every assignment of which in the function is one of those. A name that is a parameter
of a function of the same file is followed to the function's calls there.

## Why it matters

The loss modules keep the weight with `register_buffer`, which refuses anything but a Tensor
or None at construction ("TypeError: cannot assign 'numpy.ndarray' object to buffer 'weight'
(torch Tensor or None required)", the same refusal ludwig PR 1737 met for `pos_weight`); the
functional losses raise at the first call ("argument 'weight' ... must be Tensor"). The
usual source is sklearn's `compute_class_weight(...)`, which returns a numpy array.

## How to fix it

`weight=torch.tensor(class_weights, dtype=torch.float32, device=device)`.

## When preflight stays silent

* The value is a Tensor or may be one: `torch.tensor(...)`/`torch.from_numpy(...)`, tensor
  arithmetic (`(y == 0).sum() / (y == 1).sum()`), a name with any assignment preflight
  cannot type (a helper's return value, an attribute), or a function parameter whose
  callers are not all in the file.
* `weight=None`.
* `pos_weight` (PF146 reads it).
"""
    bad_examples = examples("preflight.rules.code._pf169_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf169_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        kinds: Optional[_Kinds] = None
        for call, qual in calls(ctx):
            found = _target(qual)
            if found is None:
                continue
            loss, module = found
            params = _MODULES[loss] if module else _FUNCTIONS[loss]
            args = [(k.arg, k.value) for k in call.keywords if k.arg in params]
            if module and call.args:
                args.append(("weight", call.args[0]))
            for param, value in args:
                kinds = kinds or _Kinds(ctx)
                scope = ctx.enclosing_function(call) or ctx.tree
                kind = kinds.of(value, scope)
                if kind is None:
                    continue
                if module:
                    where = (f"`nn.{loss}` keeps `{param}` with register_buffer, which raises TypeError at "
                             "construction (\"cannot assign ... object to buffer\")")
                else:
                    where = (f"`F.{loss}` takes `{param}` only as a Tensor and raises TypeError at the first call "
                             f"(\"argument '{param}' ... must be Tensor\")")
                yield ctx.finding(
                    self, value,
                    f"`{param}={ast.unparse(value)}` is {kind}, not a Tensor: {where}. Build it with "
                    f"`torch.tensor(..., dtype=torch.float32)` on the loss's device")
