"""Calls of a job's helper-object method that keeps its argument (``meter.update(loss, n)``).

An ``AverageMeter``-style class the job defines (in the analysed file, or in a project module the
file imports with a module-level ``from M import C``) whose method accumulates or appends one of
its parameters into ``self`` (``self.sum += val * n``, ``self.sum = self.sum + val``,
``self.values.append(val)``) keeps whatever is passed for that parameter across calls: a
graph-carrying tensor passed to it keeps its graph. A method that rebinds the parameter first
(``val = val.item()``, ``val = float(val)``) or stores something computed from it by a call
(``self.sum += val.item() * n``) keeps no graph and is not a store. A library meter
(torchmetrics, ignite) is not the job's class and is never resolved. Nothing is imported or run.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Optional

from preflight._record import dataclass
from preflight.analysis.loop_calls import own_nodes
from preflight.analysis.rebinds import container_key_text

if TYPE_CHECKING:
    from preflight.analysis.context import FileContext

_ARITH = (ast.Add, ast.Sub, ast.Mult, ast.Div)
_APPEND = ("append", "extend", "appendleft")


@dataclass
class MeterStore:
    call: ast.Call  # ``meter.update(loss, n)`` in the analysed file
    receiver: ast.expr  # ``meter`` / ``self.meters[name]``
    value: ast.expr  # the argument kept
    cls: str  # the class name
    method: str
    attr: str  # ``self.sum``: where the method keeps it
    where: str  # ``utils.py:12``: the method's keeping line
    resets: frozenset  # methods of the class that plainly reassign ``attr`` (``reset``)


def arith_leaves(node: ast.expr) -> list[ast.expr]:
    """Operands of a tree of ``+ - * /`` (``0.9 * ema + 0.1 * loss`` -> four leaves)."""
    out: list[ast.expr] = []
    stack = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, ast.BinOp) and isinstance(cur.op, _ARITH):
            stack.extend((cur.left, cur.right))
        else:
            out.append(cur)
    return out


def _self_attr(node: ast.AST) -> Optional[str]:
    while isinstance(node, ast.Subscript):
        node = node.value
    key = container_key_text(node)
    return key if key is not None and key.startswith("self.") else None


def _kept_params(fn: ast.FunctionDef) -> dict[str, tuple[str, int]]:
    """parameter -> (``self.attr`` it is accumulated/appended into, line)."""
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args][1:]
    rebound = {t.id for node in own_nodes(fn) if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign))
               for tgt in (node.targets if isinstance(node, ast.Assign) else [node.target])
               for t in ast.walk(tgt) if isinstance(t, ast.Name)}
    out: dict[str, tuple[str, int]] = {}
    for node in own_nodes(fn):
        attr: Optional[str] = None
        kept: list[ast.expr] = []
        if isinstance(node, ast.AugAssign) and isinstance(node.op, (ast.Add, ast.Sub)):
            attr, kept = _self_attr(node.target), arith_leaves(node.value)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.BinOp):
            attr = _self_attr(node.targets[0])
            leaves = arith_leaves(node.value)
            if attr is None or not any(container_key_text(x) == attr for x in leaves):
                continue
            kept = leaves
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _APPEND \
                and len(node.args) == 1 and not node.keywords:
            attr, kept = _self_attr(node.func.value), [node.args[0]]
        if attr is None:
            continue
        for leaf in kept:
            if isinstance(leaf, ast.Name) and leaf.id in params and leaf.id not in rebound:
                out.setdefault(leaf.id, (attr, node.lineno))  # type: ignore[attr-defined]
    return out


def _plain_resets(cls: ast.ClassDef) -> dict[str, set[str]]:
    """method -> ``self.attr`` it assigns a plain value (``self.sum = 0``, ``self.values = []``)."""
    out: dict[str, set[str]] = {}
    for fn in cls.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        for node in own_nodes(fn):
            if isinstance(node, ast.Assign) and not isinstance(node.value, ast.BinOp):
                for tgt in node.targets:
                    key = container_key_text(tgt)
                    if key is not None and key.startswith("self."):
                        out.setdefault(fn.name, set()).add(key)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "clear":
                key = container_key_text(node.func.value)
                if key is not None and key.startswith("self."):
                    out.setdefault(fn.name, set()).add(key)
    return out


@dataclass
class _Summary:
    display: str
    methods: dict  # method -> (param index -> (attr, line))
    resets: dict  # method -> set of attrs


def _summary(ctx: FileContext, name: str) -> Optional[_Summary]:
    cache: dict = ctx.cached("meter-stores.classes", dict)
    if name in cache:
        return cache[name]
    cache[name] = None
    found: Optional[tuple[ast.ClassDef, str]] = None
    for node in ctx.tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            found = (node, "")  # the analysed file: its line alone
    if found is None:
        from preflight.analysis.project_imports import imported_class
        got = imported_class(ctx, name)
        if got is not None:
            found = (got[1], got[2])
    if found is None:
        return None
    cls, display = found
    methods: dict = {}
    for fn in cls.body:
        if isinstance(fn, ast.FunctionDef) and fn.name != "__init__" and not fn.name.startswith("__"):
            params = [a.arg for a in fn.args.posonlyargs + fn.args.args][1:]
            kept = _kept_params(fn)
            if kept:
                methods[fn.name] = {params.index(p): v for p, v in kept.items()}
    summary = _Summary(display, methods, _plain_resets(cls)) if methods else None
    cache[name] = summary
    return summary


def _class_of_value(value: ast.expr) -> Optional[str]:
    """``C`` for ``C()``; ``C`` for a dict/list of ``C()`` (``{k: C() for k in names}``, ``defaultdict(C)``)."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        if value.func.id == "defaultdict" and len(value.args) == 1 and isinstance(value.args[0], ast.Name):
            return "[]" + value.args[0].id
        if value.func.id in ("dict", "OrderedDict") and len(value.args) == 1:
            inner = _class_of_value(value.args[0])
            return inner
        return value.func.id
    if isinstance(value, ast.DictComp):
        inner = _class_of_value(value.value)
        return None if inner is None or inner.startswith("[]") else "[]" + inner
    if isinstance(value, ast.Dict) and value.values:
        names = {_class_of_value(v) for v in value.values if v is not None}
        if len(names) == 1:
            only = names.pop()
            return None if only is None or only.startswith("[]") else "[]" + only
    return None


def _bound_classes(ctx: FileContext) -> dict[str, set[str]]:
    """receiver text -> class names it is bound to in the file (``[]C``: a mapping of ``C``)."""
    cache: dict = ctx.cached("meter-stores.bound", dict)
    if cache:
        return cache
    for node in ctx.nodes(ast.Assign):
        if len(node.targets) != 1:
            continue
        name = _class_of_value(node.value)
        if name is None:
            continue
        tgt = node.targets[0]
        if isinstance(tgt, ast.Subscript):
            key = container_key_text(tgt.value)
            if key is None and isinstance(tgt.value, ast.Subscript):
                key = container_key_text(tgt.value.value)
            name = "[]" + name if not name.startswith("[]") else name
        else:
            key = container_key_text(tgt)
        if key is not None:
            cache.setdefault(key, set()).add(name)
    cache.setdefault("", set())
    return cache


def _receiver_class(receiver: ast.expr, bound: dict[str, set[str]]) -> Optional[str]:
    depth = 0
    node = receiver
    while isinstance(node, ast.Subscript):
        node, depth = node.value, depth + 1
    key = container_key_text(node)
    if key is None:
        return None
    names = {n.lstrip("[]") for n in bound.get(key, set()) if (n.startswith("[]") == (depth > 0))}
    return names.pop() if len(names) == 1 else None


def meter_stores(ctx: FileContext) -> list[MeterStore]:
    """Every call in the file of a job's class method that keeps one of its arguments in ``self``."""
    cache: dict = ctx.cached("meter-stores", dict)
    if "all" in cache:
        return cache["all"]
    out: list[MeterStore] = []
    cache["all"] = out
    bound = _bound_classes(ctx)
    if len(bound) <= 1:
        return out
    for call in ctx.nodes(ast.Call):
        func = call.func
        if not isinstance(func, ast.Attribute) or not call.args:
            continue
        name = _receiver_class(func.value, bound)
        if name is None:
            continue
        summary = _summary(ctx, name)
        if summary is None or func.attr not in summary.methods:
            continue
        for index, (attr, line) in summary.methods[func.attr].items():
            if index < len(call.args) and not isinstance(call.args[index], ast.Starred):
                resets = frozenset(m for m, attrs in summary.resets.items() if attr in attrs)
                where = f"{summary.display}:{line}" if summary.display else f"line {line}"
                out.append(MeterStore(call, func.value, call.args[index], name, func.attr, attr, where, resets))
    return out
