"""The ZeRO-3 save walk that PF505's checks share (:mod:`pf505_zero3_save_without_gather` and
:mod:`_pf505_helper_saves`): the engines ``deepspeed.initialize`` returns, each function's own nodes,
ZeRO guards, and whether a state dict reaches a file. Split out of PF505 by concern."""

from __future__ import annotations

import ast
from typing import Any, Iterator, Optional

from preflight.analysis.syntax import own_nodes
from preflight.plan_rules import PlanContext

_GUARDS = ("zero", "stage", "partition", "gathered")


def function_bodies(tree: ast.AST) -> Iterator[tuple[ast.AST, list[ast.AST]]]:
    """(function or module, its own nodes) for every ``def`` (and the module) of ``tree``, in walk order."""
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
            yield fn, list(own_nodes(fn))


def parent_map(tree: ast.AST) -> dict[int, ast.AST]:
    """id(child) -> parent for every node of ``tree``."""
    return {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def engine_scripts(pctx: PlanContext, *words: str) -> Iterator[tuple[Any, set[tuple[int, str]],
                                                                      dict[tuple[int, str], int]]]:
    """(script, engines, models: see :func:`deepspeed_engines`) of every script whose text holds each of
    ``words`` and that builds a DeepSpeed engine."""
    for script in pctx.scripts:
        text = script.text if script.text is not None else script.source.text
        if any(w not in text for w in words):
            continue
        found, models = deepspeed_engines(script.tree)
        if found:
            yield script, found, models


def deepspeed_engines(tree: ast.AST) -> tuple[set[tuple[int, str]], dict[tuple[int, str], int]]:
    """The engines ``deepspeed.initialize`` returned ((function, ``model_engine``); (0, ``self.ds_engine``)
    for an attribute, seen from every method) and the models given to it ((function, name) -> the line
    of the call: partitioned from there)."""
    engines: set[tuple[int, str]] = set()
    models: dict[tuple[int, str], int] = {}
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
            continue
        for node in own_nodes(fn):
            if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
                continue
            func = node.value.func
            if not (isinstance(func, ast.Attribute) and func.attr == "initialize"
                    and ast.unparse(func.value).split(".")[-1] == "deepspeed"):
                continue
            for target in node.targets:
                first = target.elts[0] if isinstance(target, ast.Tuple) and target.elts else target
                if isinstance(first, ast.Name):
                    engines.add((id(fn), first.id))
                elif isinstance(first, ast.Attribute):
                    engines.add((0, ast.unparse(first)))
            given = next((kw.value for kw in node.value.keywords if kw.arg == "model"), None)
            if isinstance(given, (ast.Name, ast.Attribute)):
                models[(id(fn), ast.unparse(given))] = node.lineno
    return engines, models


def saved(own: list[ast.AST], call: ast.Call) -> bool:
    """The state dict ``call`` returns reaches a ``torch.save``/``save_file`` of the same function:
    directly, or through names bound to it, to a loop over it, or to a dict filled from it."""
    tainted: set[str] = set()

    def carries(expr: Optional[ast.AST]) -> bool:
        return expr is not None and any(n is call or (isinstance(n, ast.Name) and n.id in tainted)
                                        for n in ast.walk(expr))

    for _ in range(4):
        before = len(tainted)
        for node in own:
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and carries(node.value):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    base = t
                    while isinstance(base, (ast.Subscript, ast.Attribute)):
                        base = base.value
                    tainted |= {n.id for n in ast.walk(base) if isinstance(n, ast.Name)}
            elif isinstance(node, (ast.For, ast.comprehension)) and carries(node.iter):
                tainted |= {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}
        if len(tainted) == before:
            break
    return any(isinstance(n, ast.Call) and is_file_save(n) and any(carries(a) for a in n.args)
               for n in own)


def is_file_save(node: ast.Call) -> bool:
    text = ast.unparse(node.func)
    return text.split(".")[-1] in ("save", "save_file") and text.split(".")[0] in ("torch", "safetensors",
                                                                                   "save_file", "st")


def guarded(node: ast.AST, parents: dict[int, ast.AST], stop: ast.AST) -> bool:
    """Inside a ``with deepspeed.zero.GatheredParameters(...)`` or a branch on the stage/ZeRO."""
    cur = parents.get(id(node))
    while cur is not None and cur is not stop:
        if isinstance(cur, ast.If) and any(w in ast.unparse(cur.test).lower() for w in _GUARDS):
            return True
        if isinstance(cur, (ast.With, ast.AsyncWith)) and any(
                w in ast.unparse(item.context_expr).lower() for item in cur.items for w in _GUARDS):
            return True
        cur = parents.get(id(cur))
    return False
