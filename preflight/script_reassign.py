"""Options the script itself reassigns before they are used: the value the code reads is the new one.

``args.batch_size = args.global_batch_size // world_size`` (a per-rank batch from a global one),
``args.lr = args.lr * args.batch_size / 256``, ``if args.workers is None: args.workers = 4``: after such
a statement the namespace no longer holds the launch-line value (facebookresearch/moco-v3 @ c349e6e
``main_moco.py:206-207`` divides the batch per process; pytorch/examples ``imagenet/main.py`` likewise).
Reporting the launch value there at high confidence is a wrong fact.

Read (never run): every ``ns.x = E`` / ``ns.x op= E`` of the entry script on a name that holds its parsed
options. An assignment under an ``if`` counts when the test is decided true by known values
(``__name__ == "__main__"`` is true in the launched script), is dropped when decided false, and makes the
option unknown when not decided; one under a loop, or two that both run, make it unknown. One that runs is
computed with the values known (the option itself on its right side is the value before the statement):
the result is the option's value at medium confidence at most (the statement's line is its source);
when it cannot be computed the option is unknown. A use on an earlier line of the same function reads
the value before the statement.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

_UNKNOWN = object()


class Reassignment:
    def __init__(self, stmt: ast.stmt, value: Optional[ast.expr], function: Optional[ast.AST], taken: Any) -> None:
        self.stmt = stmt
        self.value = value  # the expression the option holds after the statement (None: not followed)
        self.function = function
        self.taken = taken  # True, or _UNKNOWN (decided-false statements are not kept)


def _main_test(test: ast.expr) -> bool:
    return isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq) \
        and isinstance(test.left, ast.Name) and test.left.id == "__name__" \
        and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value == "__main__"


def _target(node: ast.AST) -> list[tuple[str, str, Optional[ast.expr]]]:
    """(owner, attribute, value after; None when not followed) of an assignment to ``owner.attribute``."""
    out: list[tuple[str, str, Optional[ast.expr]]] = []
    if isinstance(node, ast.Assign):
        for t in node.targets:
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name):
                out.append((t.value.id, t.attr, node.value))
            elif isinstance(t, (ast.Tuple, ast.List)):
                for e in t.elts:  # ``args.a, args.b = f()``: not followed
                    if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name):
                        out.append((e.value.id, e.attr, None))
    elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Attribute) \
            and isinstance(node.target.value, ast.Name):
        load = ast.Attribute(value=ast.Name(id=node.target.value.id, ctx=ast.Load()), attr=node.target.attr,
                             ctx=ast.Load())
        value = ast.BinOp(left=load, op=node.op, right=node.value)
        ast.copy_location(value, node)
        ast.copy_location(load, node)
        ast.copy_location(load.value, node)
        out.append((node.target.value.id, node.target.attr, value))
    elif isinstance(node, ast.AnnAssign) and node.value is not None and isinstance(node.target, ast.Attribute) \
            and isinstance(node.target.value, ast.Name):
        out.append((node.target.value.id, node.target.attr, node.value))
    return out


def reassignments(idx: Any) -> dict[str, list[Reassignment]]:
    """The entry script's statements that reassign an option, by option name (decided-false ones left out)."""
    tree = idx.script.tree
    out: dict[str, list[Reassignment]] = {}
    if not isinstance(tree, ast.Module):
        return out
    parents: dict[int, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    for node in ast.walk(tree):
        found = _target(node)
        if not found:
            continue
        for owner, attr, value in found:
            if owner in ("self", "cls") or not (owner in idx.parsed_args or idx._namespace(owner)):
                continue
            taken: Any = True
            function: Optional[ast.AST] = None
            cur: ast.AST = node
            parent = parents.get(id(node))
            while parent is not None:
                if isinstance(parent, (ast.For, ast.AsyncFor, ast.While)) and cur is not getattr(parent, "iter", None):
                    taken = _UNKNOWN
                elif isinstance(parent, ast.If) and cur is not parent.test:
                    in_body = any(cur is s for s in parent.body)
                    decided = True if _main_test(parent.test) else _test(idx, parent.test)
                    if decided is None:
                        taken = _UNKNOWN
                    elif decided != in_body:
                        taken = False
                        break
                elif isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)) and function is None:
                    function = parent
                cur, parent = parent, parents.get(id(parent))
            if taken is False:
                continue
            out.setdefault(attr, []).append(Reassignment(node, value, function, taken))  # type: ignore[arg-type]
    return out


def _test(idx: Any, test: ast.expr) -> Optional[bool]:
    got = idx.resolve(test)
    if got is None:
        return None
    try:
        return bool(got.value)
    except Exception:  # a value without a truth value is not decided
        return None


def before_use(found: list[Reassignment], at: Optional[int], function: Optional[ast.AST]) -> bool:
    """Every reassignment is on a later line of the function the use is in: the use reads the old value."""
    if at is None or function is None:
        return False
    return all(r.function is function and r.stmt.lineno > at for r in found)


def reassigned_value(self: Any,  # the ScriptIndex
                      dest: str, at: Optional[int], keep: object) -> object:
    """What a reassignment of ``args.<dest>`` in the script makes of it: ``keep`` when none runs before
    the use (the launch/argparse value stands), the computed value (medium at most), or None."""
    from preflight.script_index import Resolved

    if self._reassigned is None:
        self._reassigned = {}  # a re-entrant resolve while it is computed sees none
        self._reassigned = reassignments(self)
    found = self._reassigned.get(dest)
    if not found or dest in self._computing:
        return keep  # on the right side of its own reassignment: the value before it
    tree = self.script.tree
    function = None
    if at is not None and tree is not None:
        around = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and n.lineno <= at <= (getattr(n, "end_lineno", None) or n.lineno)]
        function = max(around, key=lambda n: n.lineno) if around else None
    if before_use(found, at, function):
        return keep
    if len(found) != 1 or found[0].taken is not True:
        return None
    stmt, value = found[0].stmt, found[0].value
    if value is None:
        return None
    self._computing.add(dest)
    try:
        got = self.resolve(value)
    finally:
        self._computing.discard(dest)
    if got is None:
        return None
    text = ast.unparse(stmt) if hasattr(ast, "unparse") else f"args.{dest} = ..."
    detail = f"{text} (line {stmt.lineno})" + (f" with {got.detail}" if got.detail else "")
    return Resolved(got.value, "code", stmt.lineno, got.key, detail, cap="medium")
