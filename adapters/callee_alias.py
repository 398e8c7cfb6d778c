"""A call through a local name bound to one of two project functions by a conditional expression, read as a
call of the function the job takes. thu-coai/CDial-GPT @ 3c9fa3b9 ``train.py:115-116``::

    loader_class = build_dist_loaders if not args.data_path else build_dataloaders
    train_loader, val_loader, train_sampler, valid_sampler = loader_class(args, tokenizer, logger)

With ``--data_path`` on the launch line the test is false: the call is ``build_dataloaders(args, tokenizer,
logger)``, whose ``DataLoader`` reads ``args.train_batch_size`` and ``args.num_workers``. The name must be
bound once in the function around the call (not a parameter of it), to a name or to ``A if test else B``
of two names; a test ``decide`` cannot settle gives nothing (the two builders may differ).
"""

from __future__ import annotations

import ast
from typing import Any, Callable, Optional, Sequence


def aliased_call(fn: Any, call: ast.Call, decide: Callable[[ast.AST], Optional[bool]]) -> Optional[ast.Call]:
    """``call`` with its callee name replaced by the function name it is bound to in ``fn``, or None."""
    if not isinstance(call.func, ast.Name) or fn is None:
        return None
    name = call.func.id
    args = getattr(fn, "args", None)
    if args is not None and name in {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}:
        return None
    binds = [node for node in ast.walk(fn) if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign))
             and any(isinstance(t, ast.Name) and t.id == name
                     for t in (node.targets if isinstance(node, ast.Assign) else [node.target]))]
    # ``if args.task_name == ...: Exp = A elif ...: Exp = B``: the arm taken
    picked: Sequence[ast.stmt] = binds if len(binds) <= 1 else _taken_arm(fn, binds, decide)
    if len(picked) != 1 or not isinstance(picked[0], ast.Assign) or len(picked[0].targets) != 1:
        return None
    value = picked[0].value
    if isinstance(value, ast.IfExp) and isinstance(value.body, ast.Name) and isinstance(value.orelse, ast.Name):
        taken = decide(value.test)
        if taken is None:
            return None
        value = value.body if taken else value.orelse
    if not isinstance(value, ast.Name) or value.id == name:
        return None
    return ast.copy_location(ast.Call(func=ast.copy_location(ast.Name(id=value.id, ctx=ast.Load()), call.func),
                                      args=call.args, keywords=call.keywords), call)


def _taken_arm(fn: Any, binds: Sequence[ast.stmt], decide: Callable[[ast.AST], Optional[bool]]) -> list[ast.stmt]:
    """The one binding whose every enclosing ``if`` the values decide to run, when each other binding is
    decided not to run (thuml/Time-Series-Library @ its mirrored HEAD ``run.py:180-194``: ``if args.task_name
    == 'long_term_forecast': Exp = Exp_Long_Term_Forecast elif ...``, then ``exp = Exp(args)``); else none."""
    parents = {id(c): n for n in ast.walk(fn) for c in ast.iter_child_nodes(n)}

    def runs(node: ast.AST) -> Optional[bool]:
        child, parent = node, parents.get(id(node))
        while parent is not None and parent is not fn:
            if isinstance(parent, (ast.For, ast.While, ast.Try, ast.FunctionDef, ast.AsyncFunctionDef)):
                return None
            if isinstance(parent, ast.If) and child is not parent.test:
                decided = decide(parent.test)
                if decided is None:
                    return None
                if decided != any(child is s for s in parent.body):
                    return False
            child, parent = parent, parents.get(id(parent))
        return True

    states = [runs(b) for b in binds]
    if None in states or states.count(True) != 1:
        return []
    return [binds[states.index(True)]]
