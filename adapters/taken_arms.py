"""A script's statements with the ``if`` arms its launch line decides left out: which local modules it
imports on this run.

thuml/Time-Series-Library @ 4e938a1 ``run.py:180-200`` imports one experiment class per ``--task_name``
in the arms of an ``if``/``elif`` chain (``if args.task_name == 'long_term_forecast': from
exp.exp_long_term_forecasting import Exp_Long_Term_Forecast``, ... ``elif args.task_name ==
'classification': from exp.exp_classification import Exp_Classification``); each of those modules builds
its own optimizer (``optim.Adam`` in five, ``optim.RAdam`` in the classification one, :34/:40). Read with
every arm, the project builds two optimizer classes and none is the job's; on the launch line
``--task_name long_term_forecast`` only the first arm runs, and only its module is imported.

:func:`taken_tree` answers a new module whose statement lists drop each ``if`` arm that the script's
index decides is not taken (:meth:`preflight.script_index.ScriptIndex.truth`: the launch line's values,
option defaults, literals), keeping the taken arm's statements in its place; an undecided ``if`` stays
with both arms. The nodes themselves are the script's own (only the containers are copied), so
positions and node ids stay those of the parse.
"""

from __future__ import annotations

import ast
import copy
from typing import Any

_BODIES = ("body", "orelse", "finalbody")


def _prune(stmts: list[ast.stmt], index: Any, changed: list[bool]) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for stmt in stmts:
        if isinstance(stmt, ast.If):
            try:
                taken = index.truth(stmt.test)
            except (RecursionError, ValueError, TypeError, AttributeError):
                taken = None
            if taken is True:
                changed[0] = True
                out.extend(_prune(stmt.body, index, changed))
                continue
            if taken is False:
                changed[0] = True
                out.extend(_prune(stmt.orelse, index, changed))
                continue
        if isinstance(stmt, ast.ClassDef):
            out.append(stmt)  # a class body runs on import, but its methods' arms are not this run's
            continue
        if any(isinstance(getattr(stmt, b, None), list) for b in _BODIES) or isinstance(stmt, ast.Try):
            twin = copy.copy(stmt)
            for b in _BODIES:
                inner = getattr(stmt, b, None)
                if isinstance(inner, list):
                    setattr(twin, b, _prune(inner, index, changed))
            if isinstance(stmt, ast.Try):
                handlers = []
                for h in stmt.handlers:
                    h2 = copy.copy(h)
                    h2.body = _prune(h.body, index, changed)
                    handlers.append(h2)
                twin.handlers = handlers  # type: ignore[attr-defined]
            out.append(twin)
            continue
        out.append(stmt)
    return out


def taken_tree(index: Any, tree: ast.AST) -> ast.AST:
    """``tree`` without the ``if`` arms ``index`` decides are not taken (``tree`` itself when none is)."""
    if not isinstance(tree, ast.Module):
        return tree
    changed = [False]
    body = _prune(tree.body, index, changed)
    if not changed[0]:
        return tree
    return ast.Module(body=body, type_ignores=list(tree.type_ignores))
