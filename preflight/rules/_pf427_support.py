"""Helpers of PF427 and PF517: which statements only rank 0 (the main process) runs."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Optional

from preflight.analysis.syntax import dotted_name
from preflight.rules._pf414_support import last_name

if TYPE_CHECKING:
    from preflight.analysis.context import FileContext

# attributes and calls that are true on the main process only
_MAIN_ONLY = frozenset({"is_main_process", "is_local_main_process", "is_global_zero", "is_world_process_zero",
                        "is_rank_zero", "is_main_rank", "master_process", "is_master", "is_main"})
# decorators that run the function body on rank 0 only
_MAIN_ONLY_DECORATORS = frozenset({"rank_zero_only", "main_process_only", "on_main_process",
                                   "on_local_main_process", "rank0_only"})


def rank_expr(node: ast.AST) -> bool:
    """``rank``, ``args.local_rank``, ``dist.get_rank()``, ``engine.global_rank``, ``accelerator.process_index``."""
    if isinstance(node, ast.Call):
        node = node.func
    name = last_name(node).lower()
    return name.endswith("rank") or name in ("process_index", "local_process_index")


def _zero(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value == 0 and not isinstance(node.value, bool)


def _zero_set(node: ast.AST) -> bool:
    if not isinstance(node, (ast.Tuple, ast.List, ast.Set)) or not node.elts:
        return False
    values = []
    for elt in node.elts:
        if isinstance(elt, ast.UnaryOp) and isinstance(elt.op, ast.USub) and isinstance(elt.operand, ast.Constant):
            values.append(-elt.operand.value)  # type: ignore[operator]
        elif isinstance(elt, ast.Constant):
            values.append(elt.value)
        else:
            return False
    return 0 in values and set(values) <= {0, -1}


def rank_zero_flags_in(ctx: FileContext) -> frozenset[str]:
    """Names and attributes a file assigns a rank-0 test to (``self._master = self._rank == 0``,
    ``is_main = dist.get_rank() == 0``), as their source text: only those whose every assignment
    in the file is such a test (``is_rank_0 = not dist.is_initialized() or ...`` elsewhere drops it).
    Read from the file's node index, once per file."""
    return ctx.cached("rank-zero-flags", lambda: _flags(ctx.nodes(ast.Assign, ast.AugAssign, ast.AnnAssign)))


def _flags(nodes: Iterable[ast.AST]) -> frozenset[str]:
    tests: dict[str, bool] = {}
    for node in nodes:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
            if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        for target in targets:
            if isinstance(target, (ast.Name, ast.Attribute)):
                text = dotted_name(target) or ast.unparse(target)  # a chain's text is its dotted name
                ok = isinstance(node, ast.Assign) and len(node.targets) == 1 and rank_zero_test(node.value)
                tests[text] = tests.get(text, True) and ok
    return frozenset(text for text, ok in tests.items() if ok)


def rank_zero_test(test: ast.AST, flags: frozenset[str] = frozenset()) -> bool:
    """True when ``test`` holds on rank 0 only: ``rank == 0``, ``local_rank in [-1, 0]``,
    ``accelerator.is_main_process``, ``trainer.is_global_zero``, ``x and dist.get_rank() == 0``,
    or a name in ``flags`` (see ``rank_zero_flags``)."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return any(rank_zero_test(v, flags) for v in test.values)
    if flags and isinstance(test, (ast.Name, ast.Attribute)) and ast.unparse(test) in flags:
        return True
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, op, right = test.left, test.ops[0], test.comparators[0]
        if isinstance(op, ast.Eq):
            return (rank_expr(left) and _zero(right)) or (rank_expr(right) and _zero(left))
        if isinstance(op, ast.In):
            return rank_expr(left) and _zero_set(right)
        return False
    if isinstance(test, (ast.Attribute, ast.Name)):
        return last_name(test) in _MAIN_ONLY
    if isinstance(test, ast.Call) and not test.args:
        return last_name(test.func) in _MAIN_ONLY
    return False


def _callee_text(call: ast.Call) -> str:
    return ast.unparse(call.func)


def parent_walker(tree: ast.AST) -> Callable[[ast.AST], Iterator[ast.AST]]:
    """``ancestors(node)`` for a tree outside a FileContext (the plan rules read scripts' trees)."""
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}

    def ancestors(node: ast.AST) -> Iterator[ast.AST]:
        cur = parents.get(node)
        while cur is not None:
            yield cur
            cur = parents.get(cur)
    return ancestors


def rank_zero_guard(ancestors: Callable[[ast.AST], Iterator[ast.AST]], node: ast.AST,
                    flags: frozenset[str] = frozenset()) -> Optional[ast.AST]:
    """The ``if`` (or the decorator) that makes ``node`` run on rank 0 only, within its function.

    An ``if rank == 0: f() else: f()`` whose other branch makes the same call is no guard."""
    child = node
    for anc in ancestors(node):
        if isinstance(anc, ast.If) and child in anc.body and rank_zero_test(anc.test, flags):
            if isinstance(node, ast.Call):
                same = _callee_text(node)
                if any(isinstance(n, ast.Call) and _callee_text(n) == same
                       for stmt in anc.orelse for n in ast.walk(stmt)):
                    return None
            return anc
        if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for dec in anc.decorator_list:
                target = dec.func if isinstance(dec, ast.Call) else dec
                if last_name(target) in _MAIN_ONLY_DECORATORS:
                    return dec
            return None
        if isinstance(anc, (ast.ClassDef, ast.Lambda)):
            return None
        child = anc
    return None
