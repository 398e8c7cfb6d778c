"""Small, pure helpers over ``ast`` nodes used by every rule."""

from __future__ import annotations

import ast
from typing import Iterator, Optional

# fields that hold shared singleton nodes (expression contexts, operators), and fields that hold
# a name, a number or a flag in every node type that has them (never a node)
_SINGLETON_FIELDS = frozenset({"ctx", "op", "ops"})
_SCALAR_FIELDS = frozenset({"id", "attr", "arg", "name", "asname", "module", "level", "kind",
                            "type_comment", "conversion", "is_async", "simple", "tag"})


def child_fields(kind: type) -> tuple[str, ...]:
    """The fields of an ``ast`` node type that may hold nodes of the file's own tree, in order:
    not the shared singletons, not names or flags, not ``Constant.value``."""
    skipped = _SINGLETON_FIELDS | _SCALAR_FIELDS
    if kind is ast.Constant:
        skipped = skipped | {"value"}
    return tuple(f for f in getattr(kind, "_fields", ()) if f not in skipped)


# fields that hold an identifier or a number in every node type that has them (``name`` is not
# here: ``TypeAlias.name`` is a node)
_NEVER_NODE_FIELDS = frozenset({"id", "attr", "arg", "asname", "module", "level", "conversion",
                                "is_async", "simple", "type_comment"})
_WALK_FIELDS: dict[type, tuple[str, ...]] = {}


def walk(node: ast.AST) -> list[ast.AST]:
    """``list(ast.walk(node))``: the same nodes in the same order (breadth first, each node's
    fields in order), several times faster, without a generator per node; fields that never hold
    a node are not read."""
    out = [node]
    append = out.append
    fields_of = _WALK_FIELDS
    ast_type = ast.AST
    for cur in out:  # grows while it is read: breadth first, as ast.walk's queue
        kind = type(cur)
        fields = fields_of.get(kind)
        if fields is None:
            fields = fields_of[kind] = tuple(
                f for f in getattr(kind, "_fields", ())
                if f not in _NEVER_NODE_FIELDS and not (kind is ast.Constant and f in ("value", "kind")))
        for name in fields:
            value = getattr(cur, name, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast_type):
                        append(item)
            elif isinstance(value, ast_type):
                append(value)
    return out


_STATEMENT_BLOCKS = frozenset({"body", "orelse", "finalbody", "handlers", "cases"})
_BLOCK_FIELDS: dict[type, tuple[str, ...]] = {}
_HOLDS_STATEMENTS = (ast.stmt, ast.excepthandler, getattr(ast, "match_case", ast.excepthandler))


def statement_walk(node: ast.AST) -> list[ast.AST]:
    """``node`` and the statements under it (with the except handlers and match cases that hold
    some), in the order ``ast.walk(node)`` visits them, without visiting any expression. A
    statement lies only in a statement list, so the breadth-first order of these nodes alone is
    their order in the full walk."""
    out = [node]
    append = out.append
    fields_of = _BLOCK_FIELDS
    holds = _HOLDS_STATEMENTS
    for cur in out:
        kind = type(cur)
        fields = fields_of.get(kind)
        if fields is None:
            fields = fields_of[kind] = tuple(f for f in getattr(kind, "_fields", ()) if f in _STATEMENT_BLOCKS)
        for name in fields:
            value = getattr(cur, name, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, holds):
                        append(item)
    return out


def dotted_name(node: ast.AST) -> Optional[str]:
    """``a.b.c`` for Name/Attribute chains, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def call_name(call: ast.Call) -> Optional[str]:
    """Dotted name of what is called: ``torch.no_grad`` for ``torch.no_grad()``."""
    return dotted_name(call.func)


def last_attr(node: ast.AST) -> Optional[str]:
    """The final component of a Name/Attribute (``step`` of ``opt.step``)."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


def method_call(node: ast.AST, *names: str) -> Optional[ast.Call]:
    """``node`` if it is ``<receiver>.<name>(...)`` for one of ``names``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in names:
        return node
    return None


def keyword(call: ast.Call, name: str) -> Optional[ast.expr]:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


def is_true(node: Optional[ast.AST]) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def own_nodes(fn: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a function (or module) body, not those of the functions, classes and lambdas it defines
    (nor those nodes themselves), depth first from the last statement."""
    todo = list(ast.iter_child_nodes(fn))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        yield node
        todo.extend(ast.iter_child_nodes(node))


def own_nodes_in_order(fn: ast.AST) -> list[ast.AST]:
    """:func:`own_nodes` in source order (line, then column)."""
    return sorted(own_nodes(fn), key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)))


def names_in(node: ast.AST) -> set[str]:
    """Every Name read anywhere inside ``node``."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def target_names(target: ast.AST) -> list[str]:
    """Names bound by an assignment target (tuples unpacked)."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        out: list[str] = []
        for elt in target.elts:
            out.extend(target_names(elt))
        return out
    if isinstance(target, ast.Starred):
        return target_names(target.value)
    return []


def root_name(node: ast.AST) -> Optional[str]:
    """The base Name of an attribute/subscript chain: ``a`` for ``a.b[0].c``."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    if isinstance(node, ast.Name):
        return node.id
    return None


def keyed_chain(expr: ast.AST) -> Optional[tuple[ast.Name, tuple[str, ...]]]:
    """The root Name and the keys of an attribute / string-subscript chain: ``cfg.train["lr"]`` ->
    (``cfg``, ``("train", "lr")``), ``cfg`` -> (``cfg``, ``()``); None for anything else (a call,
    a computed key, a chain that does not start at a name)."""
    keys: list[str] = []
    while True:
        if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant) and isinstance(
                expr.slice.value, str):
            keys.append(expr.slice.value)
            expr = expr.value
        elif isinstance(expr, ast.Attribute):
            keys.append(expr.attr)
            expr = expr.value
        elif isinstance(expr, ast.Name):
            return expr, tuple(reversed(keys))
        else:
            return None


def unpacked_key_path(expr: ast.AST) -> Optional[tuple[str, ...]]:
    """The key path of a config mapping unpacked into a call: ``cfg["training"]`` ->
    ``("training",)``, ``cfg.train.args`` -> ``("train", "args")``, ``cfg`` -> ``()``; None
    for anything else (a call, a computed key)."""
    got = keyed_chain(expr)
    return None if got is None else got[1]


def config_at(data: object, path: tuple[str, ...]) -> Optional[dict]:
    """The mapping at ``path`` in a loaded config, or None."""
    for key in path:
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    return data if isinstance(data, dict) else None
