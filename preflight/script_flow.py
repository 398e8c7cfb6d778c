"""The value a local holds where it is used, when it is bound more than once: the statements of
its function (or of the module, for a use at module level) are followed in order up to the use.

kbressem/medAlpaca @ 63448c5 ``medalpaca/train.py:133-143,225-250`` (a ``fire.Fire(main)`` entry)::

    world_size = int(os.environ.get("WORLD_SIZE", 1))
    ddp = world_size != 1
    gradient_accumulation_steps = global_batch_size // per_device_batch_size
    if ddp:
        gradient_accumulation_steps = gradient_accumulation_steps // world_size
        if use_lora:
            fsdp, fsdp_transformer_layer_cls_to_wrap = "", None
    else:
        fsdp, fsdp_transformer_layer_cls_to_wrap = "", None
    ...
    TrainingArguments(gradient_accumulation_steps=gradient_accumulation_steps, ..., fsdp=fsdp)

Launched by ``torchrun --nproc_per_node=8`` with ``--use_lora False``, ``ddp`` is true: the accumulation
is divided by 8 and the ``fsdp`` parameter keeps its default. Taking the first binding alone (64) is a
wrong fact.

Read (never run), for a name the innermost function around the use binds (a parameter counts as the
first binding, with the value its callers or the command line give):

- a plain ``name = E`` / ``name op= E`` / ``a, name = E1, E2`` sets the value (``E`` computed with the
  name's value so far: ``n = n // world_size``);
- an ``if`` whose test is decided runs its taken arm; an undecided one whose arms bind the name makes
  it unknown (a later plain binding may make it known again); the arm around the use itself runs
  (the use runs only when it does);
- a loop, ``try`` or any other statement binding the name makes it unknown; so does a loop around the
  use that binds it, ``global``/``nonlocal`` of it, or a nested def or class of that name.

A test decided by a value capped below high (what a launcher sets in the environment) caps the
result at medium. Anything not followed: None.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.analysis.node_memo import node_memo
from preflight.analysis.syntax import target_names
from preflight.script_bindings import declared_global
from preflight.script_index_core import _ARITH, Resolved, _lowest_cap

_UNKNOWN = object()
_ACTIVE: set[tuple[int, str, int]] = set()  # (index, name, line) being computed: no re-entry
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _binds(node: ast.AST, name: str) -> bool:
    """Whether a statement binds ``name`` in its own scope (nested defs, classes, lambdas left out,
    comprehension targets too: they have their own scope)."""
    return name in _bound_names(node)


def _bound_names(node: ast.AST) -> frozenset[str]:
    """Every name :func:`_binds` answers True for, found in one walk and kept on the node: the value
    flow asks it of the same statements once per name and per ``if`` it decides, and a long ``main()``
    walked again each time cost minutes (huggingface/parler-tts run_parler_tts_training.py)."""
    return node_memo(node, "_pf_bound_names", lambda: _walk_bound_names(node))


def _walk_bound_names(node: ast.AST) -> frozenset[str]:
    names: set[str] = set()
    stack: list[ast.AST] = [node]
    while stack:
        cur = stack.pop()
        if cur is not node and isinstance(cur, _SCOPES):
            own = getattr(cur, "name", None)
            if own is not None:
                names.add(own)
            continue
        if isinstance(cur, ast.comprehension):
            continue
        targets: list[ast.AST] = []
        if isinstance(cur, ast.Assign):
            targets = list(cur.targets)
        elif isinstance(cur, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr)):
            targets = [cur.target]
        elif isinstance(cur, (ast.With, ast.AsyncWith)):
            targets = [i.optional_vars for i in cur.items if i.optional_vars is not None]
        elif isinstance(cur, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in cur.names)
        elif isinstance(cur, ast.ExceptHandler) and cur.name:
            names.add(cur.name)
        for t in targets:
            names.update(target_names(t))
        stack.extend(ast.iter_child_nodes(cur))
    return frozenset(names)


def _contains(stmt: ast.AST, line: int) -> bool:
    start = getattr(stmt, "lineno", 0)
    return start <= line <= (getattr(stmt, "end_lineno", None) or start)


class _Walk:
    def __init__(self, idx: Any, name: str, depth: int) -> None:
        self.idx = idx
        self.name = name
        self.depth = depth
        self.cap: Optional[str] = None
        self.lines: list[int] = []  # the bindings that ran after the first

    def value(self, expr: ast.expr, current: Any) -> Any:
        """``expr`` computed with the name's value so far (``current``)."""
        if isinstance(expr, ast.Name) and expr.id == self.name:
            return current
        if isinstance(expr, ast.BinOp) and type(expr.op) in _ARITH and any(
                isinstance(n, ast.Name) and n.id == self.name for n in ast.walk(expr)):
            left, right = self.value(expr.left, current), self.value(expr.right, current)
            if not isinstance(left, Resolved) or not isinstance(right, Resolved):
                return _UNKNOWN
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in (left.value, right.value)) \
                    or (isinstance(expr.op, ast.FloorDiv) and right.value == 0):
                return _UNKNOWN
            cli = left if left.kind == "cli" else right
            return Resolved(_ARITH[type(expr.op)](left.value, right.value), cli.kind, getattr(expr, "lineno", None),
                            cli.key, cli.detail, _lowest_cap(left, right))
        if any(isinstance(n, ast.Name) and n.id == self.name for n in ast.walk(expr)):
            return _UNKNOWN  # the name read in a way not computed here
        got = self.idx.resolve(expr, self.depth + 1)
        return _UNKNOWN if got is None else got

    def decide(self, test: ast.expr) -> Optional[bool]:
        decided, capped = self.idx._truth(test)
        if decided is not None and capped:
            self.cap = "medium"
        return decided

    def stmts(self, body: list[ast.stmt], current: Any, line: int) -> Any:
        """The value after the statements of ``body`` that run before ``line`` (into the one around it)."""
        for stmt in body:
            if _contains(stmt, line):
                return self.around(stmt, current, line)
            if stmt.lineno > line:
                return current
            if _binds(stmt, self.name):
                before = current
                current = self.stmt(stmt, current)
                if isinstance(before, Resolved) and current is not before and not isinstance(stmt, ast.If):
                    self.lines.append(stmt.lineno)
        return current

    def around(self, stmt: ast.stmt, current: Any, line: int) -> Any:
        """The value at ``line``, inside ``stmt``."""
        if isinstance(stmt, ast.If):
            if line >= stmt.body[0].lineno and _contains_any(stmt.body, line):
                return self.stmts(stmt.body, current, line)
            if stmt.orelse and _contains_any(stmt.orelse, line):
                return self.stmts(stmt.orelse, current, line)
            return current  # in the test
        if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
            if _binds(stmt, self.name):
                return _UNKNOWN  # another pass sees what a later statement of the loop bound
            return current
        if isinstance(stmt, (ast.With, ast.AsyncWith)) and _contains_any(stmt.body, line):
            return self.stmts(stmt.body, current, line)
        if isinstance(stmt, ast.Try) and _contains_any(stmt.body, line):
            return self.stmts(stmt.body, current, line)
        if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Return)):
            if any((isinstance(n, ast.comprehension) and self.name in target_names(n.target))
                   or (isinstance(n, ast.Lambda) and any(a.arg == self.name for a in n.args.args))
                   for n in ast.walk(stmt)):
                return _UNKNOWN  # the name may be a comprehension's or a lambda's own there
            return current  # the use is in the statement: read before it binds
        return _UNKNOWN

    def stmt(self, stmt: ast.stmt, current: Any) -> Any:
        """The value after one statement that binds the name."""
        name = self.name
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, ast.Name):
                return self.value(stmt.value, current)
            if isinstance(target, (ast.Tuple, ast.List)) and isinstance(stmt.value, (ast.Tuple, ast.List)) \
                    and len(target.elts) == len(stmt.value.elts) \
                    and not any(isinstance(e, ast.Starred) for e in (*target.elts, *stmt.value.elts)):
                got = current
                for t, v in zip(target.elts, stmt.value.elts):
                    if isinstance(t, ast.Name) and t.id == name:
                        got = self.value(v, current)
                    elif name in target_names(t):
                        return _UNKNOWN
                return got
            return _UNKNOWN
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            return self.value(stmt.value, current)
        if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            load = ast.Name(id=name, ctx=ast.Load())
            return self.value(ast.copy_location(ast.BinOp(left=load, op=stmt.op, right=stmt.value), stmt), current)
        if isinstance(stmt, ast.If):
            decided = self.decide(stmt.test)
            if decided is None:
                return _UNKNOWN
            return self.stmts(stmt.body if decided else stmt.orelse, current, 1 << 30)
        if isinstance(stmt, (ast.With, ast.AsyncWith)) and not any(
                i.optional_vars is not None and name in target_names(i.optional_vars) for i in stmt.items):
            return self.stmts(stmt.body, current, 1 << 30)
        return _UNKNOWN


def _contains_any(body: list[ast.stmt], line: int) -> bool:
    return bool(body) and body[0].lineno <= line <= (getattr(body[-1], "end_lineno", None) or body[-1].lineno)


def flow_value(idx: Any, name: str, line: Optional[int], depth: int) -> Optional[Resolved]:
    """The value ``name`` holds at ``line``, followed through its function's statements; None when not
    followed (see the module's docstring)."""
    tree = getattr(idx.script, "tree", None)
    if line is None or not isinstance(tree, ast.Module):
        return None
    around = [f for fs in idx.functions.values() for f in fs
              if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and _contains(f, line)]
    scope: ast.AST = max(around, key=lambda f: f.lineno) if around else tree
    body: list[ast.stmt] = scope.body  # type: ignore[attr-defined]
    params: list[str] = []
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        a = scope.args
        params = [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
        if (a.vararg and a.vararg.arg == name) or (a.kwarg and a.kwarg.arg == name):
            return None
    if name in declared_global(scope):
        return None
    if name not in params and not any(_binds(s, name) for s in body):
        return None
    key = (id(idx), name, line)
    if key in _ACTIVE:
        return None
    _ACTIVE.add(key)
    try:
        walk = _Walk(idx, name, depth)
        start: Any = _UNKNOWN
        if name in params:
            got = idx._parameter(name, depth + 1, line)
            start = _UNKNOWN if got is None else got
        result = walk.stmts(body, start, line)
    finally:
        _ACTIVE.discard(key)
    if not isinstance(result, Resolved):
        return None
    cap = _lowest_cap(result, Resolved(None, "code", cap=walk.cap))
    if cap == result.cap and not walk.lines:
        return result
    detail = result.detail
    if walk.lines:
        said = (f"{name} rebound on line(s) {', '.join(map(str, walk.lines))} by the statements that run "
                f"before line {line}: {result.value!r}")
        detail = f"{detail}; {said}" if detail else said
    return Resolved(result.value, result.kind, result.line, result.key, detail, cap)


def rebound_later(fn: ast.AST, stmt: ast.stmt) -> bool:
    """Whether the function ``fn`` binds the name(s) ``stmt`` assigns in another statement after it."""
    names = {n for t in getattr(stmt, "targets", []) for n in target_names(t)}
    end = getattr(stmt, "end_lineno", None) or stmt.lineno
    body: list[ast.stmt] = getattr(fn, "body", [])
    return any(s.lineno > end and _binds(s, n) for s in body for n in names)
