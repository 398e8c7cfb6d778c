"""A call of the function a project dispatcher returns, read as a call of the function the job takes.
LAION-AI/CLAP @ the benchmark's commit, ``src/laion_clap/training/data.py:841-847,885-887``::

    def get_dataset_fn(dataset_type):
        if dataset_type == "webdataset":
            return get_wds_dataset
        elif dataset_type == "toy":
            return get_toy_dataset
        else:
            raise ValueError(f"Unsupported dataset type: {dataset_type}")

    data["train"] = get_dataset_fn(args.dataset_type)(args, model_cfg, is_train=True)

With ``--dataset-type=webdataset`` on the launch line the call is ``get_wds_dataset(args, model_cfg,
is_train=True)``, whose ``wds.WebLoader`` reads ``args.workers``. The dispatcher must be a project function
whose body is one ``if``/``elif`` chain (a docstring before it at most) whose taken arm is a single ``return
NAME`` (an arm not taken may hold anything: open_clip's ``elif dataset_type == "auto":`` picking by the file's
extension); each test is read with the dispatcher's parameters replaced by the call's arguments (positional,
no ``*``/``**``) and decided by the caller's values. A test not decided before the taken arm, an arm that
returns anything but a name, or no arm taken: nothing (the builders may differ)."""

from __future__ import annotations

import ast
import copy
from typing import Any, Callable, Optional


class _Bind(ast.NodeTransformer):
    def __init__(self, given: dict[str, ast.expr]) -> None:
        self.given = given

    def visit_Name(self, node: ast.Name) -> Any:
        return copy.deepcopy(self.given[node.id]) if node.id in self.given else node


def _arms(stmt: ast.stmt) -> Optional[list[tuple[Optional[ast.expr], list[ast.stmt]]]]:
    """(test, the arm's statements) down the chain; the final ``else`` with test None."""
    out: list[tuple[Optional[ast.expr], list[ast.stmt]]] = []
    node: Optional[ast.stmt] = stmt
    while isinstance(node, ast.If):
        out.append((node.test, node.body))
        if not node.orelse:
            return out
        if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
            node = node.orelse[0]
            continue
        out.append((None, node.orelse))
        return out
    return None


def dispatched_call(call: ast.Call, function: Callable[[str], Any],
                    decide: Callable[[ast.AST], Optional[bool]]) -> Optional[ast.Call]:
    """``call`` with its callee replaced by the name the dispatcher returns, or None. ``function(name)``: the
    project's module-level ``ast.FunctionDef`` of that name, else None."""
    inner = call.func
    if not (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and not inner.keywords
            and not any(isinstance(a, ast.Starred) for a in inner.args)):
        return None
    fn = function(inner.func.id)
    if not isinstance(fn, ast.FunctionDef):
        return None
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    if fn.args.vararg or fn.args.kwarg or len(inner.args) != len(params):
        return None
    body = fn.body[1:] if fn.body and isinstance(fn.body[0], ast.Expr) \
        and isinstance(fn.body[0].value, ast.Constant) else fn.body
    arms = _arms(body[0]) if len(body) == 1 else None
    if not arms:
        return None
    given = dict(zip(params, inner.args))
    for test, stmt in arms:
        taken = True if test is None else decide(_Bind(given).visit(copy.deepcopy(test)))
        if taken is None:
            return None
        if not taken:
            continue
        if not (len(stmt) == 1 and isinstance(stmt[0], ast.Return) and isinstance(stmt[0].value, ast.Name)):
            return None
        name = ast.copy_location(ast.Name(id=stmt[0].value.id, ctx=ast.Load()), inner)
        return ast.copy_location(ast.Call(func=name, args=call.args, keywords=call.keywords), call)
    return None
