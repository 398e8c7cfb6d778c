"""A keyword passed through a ``**name`` of a dictionary the same function builds as a literal.

huggingface/pytorch-image-models @ aa4b5850c1543fa488abf260f18390eda46cf85d ``train.py:689-722,805-822``
collects the loader's options first and splats them into the call::

    common_loader_kwargs = dict(mean=..., pin_memory=args.pin_mem, ...)
    train_loader_kwargs = dict(batch_size=args.batch_size, is_training=True, num_workers=args.workers, ...)
    loader_train = create_loader(dataset_train, input_size=..., **common_loader_kwargs, **train_loader_kwargs)

``keyword_through_splat(tree, call, "batch_size")`` finds ``args.batch_size`` there. Read only when the name
is bound once in the scope of the call (the enclosing function, else the module), by ``dict(k=v, ...)`` or a
``{"k": v, ...}`` literal written before the call, and never changed afterwards in place (``name["k"] = ...``,
``name.update(...)``, ``del name[...]``, ``name |= ...``): any other shape gives None (the caller then knows
nothing, as before). Nothing is executed.
"""

from __future__ import annotations

import ast
from typing import Optional

_MUTATORS = frozenset({"update", "pop", "popitem", "setdefault", "clear"})
_MAX_DEPTH = 4


def _scope_of(tree: ast.AST, call: ast.Call) -> ast.AST:
    """The innermost function whose lines hold the call, else the module."""
    best: ast.AST = tree
    best_span = None
    line = getattr(call, "lineno", None)
    if line is None:
        return tree
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            end = getattr(node, "end_lineno", None)
            if end is not None and node.lineno <= line <= end:
                span = end - node.lineno
                if best_span is None or span < best_span:
                    best, best_span = node, span
    return best


def own_nodes(scope: ast.AST) -> list[ast.AST]:
    """The nodes of a scope, not those of the functions and classes nested in it."""
    out: list[ast.AST] = []
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return out


def _writes_into(target: ast.AST, name: str) -> bool:
    """``a, name = ...`` (rebinds it) or ``name[k] = ...`` (changes it in place)."""
    if isinstance(target, (ast.Tuple, ast.List)):
        return any(isinstance(e, ast.Name) and e.id == name for e in ast.walk(target))
    return isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id == name


def _literal_dict(scope: ast.AST, name: str, before: int) -> Optional[ast.expr]:
    """The one ``dict(...)``/``{...}`` bound to ``name`` in the scope, before line ``before``, when
    nothing else writes or changes it there. Outside a loop, what the scope does to the name after that
    line cannot reach the call (FSoft-AI4Code/XMainframe ``train_instruct.py:154-171``: ``model_kwargs =
    dict(..., use_flash_attention_2=...)``, ``from_pretrained(..., **model_kwargs)``, then ``model_kwargs =
    None``)."""
    bound: list[ast.expr] = []
    nodes = own_nodes(scope)
    looped = any(isinstance(n, (ast.For, ast.AsyncFor, ast.While)) and n.lineno <= before
                 <= (getattr(n, "end_lineno", None) or n.lineno) for n in nodes)
    for node in nodes:
        if not looped and getattr(node, "lineno", 0) > before:
            continue
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id == name:
                    bound.append(node.value)
                elif _writes_into(target, name):
                    return None
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
            target = node.target
            if isinstance(target, ast.Name) and target.id == name:
                return None
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id == name:
                return None
        elif isinstance(node, ast.Delete):
            if any(isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == name
                   for t in node.targets):
                return None
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.comprehension)):
            targets = [node.target] if not isinstance(node, (ast.With, ast.AsyncWith)) else \
                [i.optional_vars for i in node.items if i.optional_vars is not None]
            if any(isinstance(e, ast.Name) and e.id == name for t in targets for e in ast.walk(t)):
                return None
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == name \
                and node.func.attr in _MUTATORS:
            return None
    if len(bound) != 1:
        return None
    value = bound[0]
    if getattr(value, "lineno", before) >= before:
        return None
    if isinstance(value, ast.Dict):
        return value
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict" \
            and not value.args:
        return value
    return None


_UNKNOWN = ast.Constant(value=None)  # a mapping whose keys cannot be read: it may hold the key


def _find(scope: ast.AST, mapping: ast.expr, key: str, depth: int) -> Optional[ast.expr]:
    """The value ``key`` gets in a dict literal, None when it sets no such key, ``_UNKNOWN`` when that
    cannot be told. In ``{...}`` a later entry, a ``**other`` one too, overrides an earlier one; in
    ``dict(k=..., **other)`` a key given twice is a TypeError, so an unreadable ``**other`` leaves a
    written ``k`` standing."""
    found: Optional[ast.expr] = None
    if isinstance(mapping, ast.Dict):
        for k, v in zip(mapping.keys, mapping.values):
            if k is None:  # {**other}
                sub = _splat(scope, v, key, depth + 1)
                if sub is not None:
                    found = sub
            elif isinstance(k, ast.Constant) and isinstance(k.value, str):
                if k.value == key:
                    found = v
            else:
                found = _UNKNOWN  # a computed key may be this one
        return found
    unknown = False
    for kw in getattr(mapping, "keywords", ()):
        if kw.arg is None:
            sub = _splat(scope, kw.value, key, depth + 1)
            if sub is _UNKNOWN:
                unknown = True
            elif sub is not None:
                found = sub
        elif kw.arg == key:
            found = kw.value
    return _UNKNOWN if found is None and unknown else found


def _splat(scope: ast.AST, expr: ast.expr, key: str, depth: int) -> Optional[ast.expr]:
    """The value of ``key`` in ``**expr``: None when the literal has no such key, ``_UNKNOWN`` when the
    mapping cannot be read."""
    if depth > _MAX_DEPTH or not isinstance(expr, ast.Name):
        return _UNKNOWN
    mapping = _literal_dict(scope, expr.id, expr.lineno)
    if mapping is None:
        return _UNKNOWN
    return _find(scope, mapping, key, depth)


def keyword_through_splat(tree: Optional[ast.AST], call: ast.Call, key: str) -> Optional[ast.expr]:
    """The expression the keyword ``key`` takes through the call's ``**name`` arguments; None when no
    readable literal sets it. A key set by two of them, or by one and an explicit keyword, is a TypeError
    at run time, so one readable setting is the value whatever the unreadable ones hold."""
    if tree is None or not any(kw.arg is None for kw in call.keywords):
        return None
    scope = _scope_of(tree, call)
    found: Optional[ast.expr] = None
    for kw in call.keywords:
        if kw.arg is not None:
            continue
        got = _splat(scope, kw.value, key, 0)
        if got is not None and got is not _UNKNOWN:
            if found is not None:
                return None  # set twice: the call raises
            found = got
    return found
