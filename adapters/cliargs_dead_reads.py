"""An option read only by closures the script never calls: no training length.

bupticybee/FastLoRAChat @ the benchmark's commit ``finetune_fastchat.py:270`` ``def train(..., cutoff_len: int =
256, ...)`` (a ``fire`` entry point) reads ``cutoff_len`` only in ``tokenize`` (:379-399), a closure called only by
the closure ``generate_and_tokenize_prompt`` (:401-420), whose one use, ``data["train"].map(
generate_and_tokenize_prompt)`` (:464-478), sits in a string literal: the training data come from
``make_supervised_data_module`` (:439), truncated at the tokenizer's ``model_max_length=1024`` (:362). Its other
read is the f-string of a log line (:301).

A function defined inside another function, undecorated, is dead when its name is loaded nowhere but inside itself or inside
other dead closures (a fixed point); methods and module-level functions are never called dead (a framework may
call them). :func:`only_dead_reads` says whether every load of the option (a bare name, or ``x.<name>``) outside
f-strings is inside dead closures, and there is at least one. Read, never run.
"""

from __future__ import annotations

import ast
from typing import Optional


def _closures(tree: ast.AST) -> list[ast.FunctionDef]:
    out: list[ast.FunctionDef] = []
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            # a decorated closure may be registered by its decorator (``@app.route``, ``@register``): never dead
            out.extend(n for n in ast.walk(fn) if n is not fn and isinstance(n, ast.FunctionDef)
                       and not n.decorator_list)
    return list({id(f): f for f in out}.values())


def _inside(tree: ast.AST, fns: list[ast.FunctionDef]) -> set[int]:
    """ids of every node inside one of ``fns`` (the defs included)."""
    out: set[int] = set()
    for fn in fns:
        out.update(id(n) for n in ast.walk(fn))
    return out


def _formatted(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            out.update(id(n) for n in ast.walk(node))
    return out


def dead_closures(tree: ast.AST) -> list[ast.FunctionDef]:
    closures = _closures(tree)
    names = {f.name for f in closures}
    if len(names) != len(closures):
        return []  # a name defined twice: which one a use means is not decided here
    dead: list[ast.FunctionDef] = []
    while True:
        gone = _inside(tree, dead)
        used: set[str] = set()
        for fn in closures:
            if fn in dead:
                continue
            own = {id(n) for n in ast.walk(fn)}
            for node in ast.walk(tree):
                if id(node) in gone or id(node) in own:
                    continue
                if isinstance(node, ast.Name) and node.id == fn.name and isinstance(node.ctx, ast.Load):
                    used.add(fn.name)
                    break
        more = [f for f in closures if f not in dead and f.name not in used]
        if not more:
            return dead
        dead.extend(more)


def dead_nodes(tree: Optional[ast.AST]) -> set[int]:
    """ids of every node inside a dead closure of ``tree`` (none without a tree)."""
    return _inside(tree, dead_closures(tree)) if tree is not None else set()


def only_dead_reads(tree: ast.AST, option: str) -> bool:
    """Every read of ``option`` (``option`` or ``x.option``, loaded, outside f-strings) is in a dead closure."""
    dead = dead_closures(tree)
    if not dead:
        return False
    gone = _inside(tree, dead) | _formatted(tree)
    reads = [n for n in ast.walk(tree)
             if (isinstance(n, ast.Name) and n.id == option and isinstance(n.ctx, ast.Load))
             or (isinstance(n, ast.Attribute) and n.attr == option and isinstance(n.ctx, ast.Load))]
    return bool(reads) and all(id(n) in gone for n in reads) and any(id(n) in _inside(tree, dead) for n in reads)
