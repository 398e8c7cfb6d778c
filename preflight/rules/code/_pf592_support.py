"""PF592's second shape: ``compute_metrics`` uses the evaluation predictions as one array when no
``preprocess_logits_for_metrics`` takes the logits out of the outputs' tuple first."""

from __future__ import annotations

import ast
from typing import Optional, Union

from preflight.analysis.context import FileContext
from preflight.rules._pf414_support import call_last

MetricFn = Union[ast.FunctionDef, ast.Lambda]

# numpy/torch/scipy functions that fail on (or silently misread) a tuple of differently shaped arrays
_ARRAY_FUNCS = frozenset({"argmax", "argmin", "softmax", "log_softmax", "sigmoid", "expit", "topk"})
_ARRAY_METHODS = frozenset({"argmax", "argmin", "softmax", "sigmoid", "reshape", "squeeze", "topk"})


def _first_param(fn: ast.FunctionDef) -> Optional[str]:
    args = fn.args.posonlyargs + fn.args.args
    if args and args[0].arg == "self":
        args = args[1:]
    return args[0].arg if args else None


def _whole(node: ast.AST, param: str) -> bool:
    """``eval_pred.predictions`` or ``eval_pred[0]``: the predictions as the Trainer passes them."""
    if isinstance(node, ast.Attribute) and node.attr == "predictions" and isinstance(node.value, ast.Name):
        return node.value.id == param
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == param:
        return isinstance(node.slice, ast.Constant) and node.slice.value == 0
    return False


def _prediction_names(fn: ast.FunctionDef, param: str) -> Optional[set[str]]:
    """The local names bound to the whole predictions (``logits, labels = eval_pred``,
    ``preds = eval_pred.predictions``); None when one of them is bound more than once."""
    names: dict[str, int] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names[node.id] = names.get(node.id, 0) + 1
    out: set[str] = set()
    for node in ast.walk(fn):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target, value = node.targets[0], node.value
        if isinstance(target, ast.Tuple) and target.elts and isinstance(target.elts[0], ast.Name):
            unpacked = isinstance(value, ast.Name) and value.id == param  # logits, labels = eval_pred
            paired = isinstance(value, ast.Tuple) and bool(value.elts) and _whole(value.elts[0], param)
            if unpacked or paired:
                out.add(target.elts[0].id)
        elif isinstance(target, ast.Name) and _whole(value, param):
            out.add(target.id)
    if any(names.get(n, 0) > 1 for n in out):
        return None  # rebound (`logits = logits[0]`): the function takes the tuple apart
    return out


def predictions_used_whole(fn: ast.FunctionDef) -> Optional[ast.AST]:
    """Where ``compute_metrics`` uses its predictions as one array (``np.argmax(logits, axis=-1)``),
    when it never looks inside a tuple (``isinstance``, ``len``, ``preds[0]``, a rebinding)."""
    param = _first_param(fn)
    if param is None:
        return None
    names = _prediction_names(fn, param)
    if names is None:
        return None

    def is_pred(node: ast.AST) -> bool:
        return (isinstance(node, ast.Name) and node.id in names) or _whole(node, param)

    use: Optional[ast.AST] = None
    for node in ast.walk(fn):
        if isinstance(node, ast.Subscript) and is_pred(node.value):
            return None  # preds[0] / preds[:, 0]: indexed by the author, who knows its shape
        if not isinstance(node, ast.Call):
            continue
        name = call_last(node)
        if name in ("isinstance", "type", "len") and node.args and is_pred(node.args[0]):
            return None
        function = name in _ARRAY_FUNCS and bool(node.args) and is_pred(node.args[0])
        method = isinstance(node.func, ast.Attribute) and node.func.attr in _ARRAY_METHODS and is_pred(node.func.value)
        if function or method:
            use = use or node
    return use


def resolve_metric_fn(ctx: FileContext, expr: ast.expr, at: ast.AST) -> Optional[MetricFn]:
    """The function given as ``preprocess_logits_for_metrics``: a lambda, a function of the file, or
    one element of a tuple a factory of the file returns (``pre, compute = build(metric)``)."""
    if isinstance(expr, ast.Lambda):
        return expr
    if not isinstance(expr, ast.Name):
        return None
    defs = {d.name: d for d in ctx.nodes(ast.FunctionDef)}
    for node in ctx.nodes(ast.Assign):
        if node.lineno >= getattr(at, "lineno", 0) or len(node.targets) != 1:
            continue
        target, value = node.targets[0], node.value
        if isinstance(target, ast.Tuple) and isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
            names = [t.id if isinstance(t, ast.Name) else None for t in target.elts]
            factory = defs.get(value.func.id)
            if expr.id not in names or factory is None:
                continue
            index = names.index(expr.id)
            inner = {d.name: d for d in factory.body if isinstance(d, ast.FunctionDef)}
            for ret in ast.walk(factory):
                if isinstance(ret, ast.Return) and isinstance(ret.value, ast.Tuple) and \
                        len(ret.value.elts) == len(names):
                    elt = ret.value.elts[index]
                    if isinstance(elt, ast.Name) and elt.id in inner:
                        return inner[elt.id]
            return None
    return defs.get(expr.id)
