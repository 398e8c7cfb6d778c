"""A name that is None because the launch line picks the branch binding it to None (PF627): ``if args.val_size
> 0: ..., eval_data = ...`` / ``else: eval_data = None`` with ``--val_size 0`` on the line (LlamaFactory issue
744), or the field's dataclass default when the line leaves it out."""

from __future__ import annotations

import ast
import operator
from typing import Any, Optional

_OPS = {ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Lt: operator.lt, ast.LtE: operator.le,
        ast.Eq: operator.eq, ast.NotEq: operator.ne}


def _number(value: Any) -> Optional[float]:
    if isinstance(value, bool):
        return float(value)
    try:
        return float(str(value))
    except ValueError:
        return None


def _stores(node: ast.AST, name: str) -> list[tuple[ast.stmt, Optional[ast.expr]]]:
    """(statement, value) of each binding of ``name`` under ``node``; value None when not a plain
    ``name = v`` or ``a, name = x, v`` of the same length."""
    out: list[tuple[ast.stmt, Optional[ast.expr]]] = []
    for stmt in ast.walk(node):
        if not isinstance(stmt, ast.stmt):
            continue
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                if isinstance(target, ast.Name) and target.id == name:
                    out.append((stmt, stmt.value))
                elif isinstance(target, ast.Tuple) and any(isinstance(t, ast.Name) and t.id == name
                                                           for t in target.elts):
                    i = next(i for i, t in enumerate(target.elts) if isinstance(t, ast.Name) and t.id == name)
                    same = isinstance(stmt.value, ast.Tuple) and len(stmt.value.elts) == len(target.elts)
                    out.append((stmt, stmt.value.elts[i] if same else None))  # type: ignore[attr-defined]
        elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign, ast.For, ast.With)):
            targets = [stmt.target] if not isinstance(stmt, ast.With) else [i.optional_vars for i in stmt.items]
            if any(isinstance(n, ast.Name) and n.id == name for t in targets if t is not None for n in ast.walk(t)):
                out.append((stmt, None))
    return out


def _default(tree: ast.AST, field: str) -> Any:
    """The literal default of ``field`` in a dataclass-like class of the script (``val_size: float =
    field(default=0.0)`` or ``= 0.0``); None when there is not exactly one."""
    found = []
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        for stmt in cls.body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == field \
                    and stmt.value is not None:
                value: Optional[ast.expr] = stmt.value
                if isinstance(value, ast.Call) and getattr(value.func, "id", getattr(value.func, "attr", "")) == "field":
                    value = next((k.value for k in value.keywords if k.arg == "default"), None)
                found.append(value.value if isinstance(value, ast.Constant) else None)
    return found[0] if len(found) == 1 else None


def _test_value(test: ast.expr, tree: ast.AST, values: dict[str, Any]) -> Optional[tuple[bool, str, Any]]:
    """(truth, field, its value) of ``args.field OP number`` or ``args.field`` under the launch values."""
    attr: Optional[ast.Attribute] = None
    op: Any = None
    bound: Optional[float] = None
    if isinstance(test, ast.Attribute):
        attr = test
    elif isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _OPS \
            and isinstance(test.left, ast.Attribute) and isinstance(test.comparators[0], ast.Constant):
        attr, op, bound = test.left, _OPS[type(test.ops[0])], _number(test.comparators[0].value)
        if bound is None:
            return None
    if attr is None or not isinstance(attr.value, ast.Name):
        return None
    field = attr.attr
    value = values[field] if field in values else _default(tree, field)
    number = _number(value) if value is not None else None
    if number is None:
        return None
    truth = bool(number) if op is None else bool(op(number, bound))
    return truth, field, value


def launch_branch_none(tree: ast.AST, name: str, values: dict[str, Any]) -> Optional[tuple[ast.If, str, Any]]:
    """(the ``if``, the field, its value) when every binding of ``name`` in ``tree`` is a plain statement of
    one ``if``/``else`` on a launch argument, the branch the launch values select binds it to None and the
    other branch to something else."""
    stores = _stores(tree, name)
    if len(stores) < 2:
        return None
    for node in ast.walk(tree):
        if not isinstance(node, ast.If) or not node.orelse:
            continue
        body = [(s, v) for s, v in stores if s in node.body]
        orelse = [(s, v) for s, v in stores if s in node.orelse]
        if len(body) != 1 or len(orelse) != 1 or len(body) + len(orelse) != len(stores):
            continue
        picked = _test_value(node.test, tree, values)
        if picked is None:
            return None
        truth, field, value = picked
        taken, other = (body[0][1], orelse[0][1]) if truth else (orelse[0][1], body[0][1])
        if isinstance(taken, ast.Constant) and taken.value is None and other is not None \
                and not (isinstance(other, ast.Constant) and other.value is None):
            return node, field, value
        return None
    return None
