"""``--local_rank`` left at its default -1 under plain ``python``: the script's process group is never joined.

The BERT-era training scripts (jeonsworld/ViT-pytorch @ 460a162 ``train.py:281,299-307``; the
``run_classifier.py``/``run_squad.py`` family) declare ``parser.add_argument("--local_rank", type=int,
default=-1)``, which ``python -m torch.distributed.launch`` fills in for each process it starts, and join a
process group only on the other side of ``if args.local_rank == -1:`` (or under ``if args.local_rank != -1:``).
Started as ``python train.py`` without ``--local_rank`` the option stays -1 and the script runs as one process.

Read without running anything: every ``init_process_group`` call of the script sits in the branch that runs only
when ``X.local_rank`` is not -1 (``== -1`` else-branch, ``!= -1`` body; also ``not in [-1, 0]``-free forms are not
read), the option ``local_rank`` is declared with the default -1, and the launch line does not give it. Any
``init_process_group`` in the other modules the options reading saw, or a guard of another shape, leaves the
process count open as before.
"""

from __future__ import annotations

import ast
from typing import Any, Sequence

_FLAGS = ("--local_rank", "--local-rank")


def _rank_test(test: ast.expr) -> Any:
    """For ``X.local_rank == -1`` True (the body runs single-process), ``!= -1`` False; None otherwise."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Attribute)
            and test.left.attr == "local_rank"):
        return None
    right = test.comparators[0]
    minus_one = isinstance(right, ast.UnaryOp) and isinstance(right.op, ast.USub) \
        and isinstance(right.operand, ast.Constant) and right.operand.value == 1
    if not minus_one:
        return None
    if isinstance(test.ops[0], ast.Eq):
        return True
    if isinstance(test.ops[0], ast.NotEq):
        return False
    return None


def _guarded(call: ast.Call, parents: dict[int, ast.AST]) -> bool:
    child: ast.AST = call
    parent = parents.get(id(call))
    while parent is not None:
        if isinstance(parent, ast.If) and child is not parent.test:
            single = _rank_test(parent.test)
            if single is not None:
                in_body = any(child is s for s in parent.body)
                return in_body != single  # the branch taken only when local_rank is not -1
        child, parent = parent, parents.get(id(parent))
    return False


def never_joined(tree: Any, other_texts: Sequence[str], options: dict, argv: Sequence[str]) -> bool:
    """True when the script's process group is joined only for a ``--local_rank`` that this launch leaves at -1."""
    option = options.get("local_rank")
    if option is None or getattr(option, "default", None) != -1:
        return False
    if any(str(a).split("=", 1)[0] in _FLAGS for a in argv):
        return False
    if not isinstance(tree, ast.Module) or any("init_process_group" in t for t in other_texts):
        return False
    parents = {id(c): n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and
             (getattr(n.func, "attr", None) or getattr(n.func, "id", None)) == "init_process_group"]
    return bool(calls) and all(_guarded(c, parents) for c in calls)
