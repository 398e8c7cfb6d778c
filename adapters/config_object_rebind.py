"""A local bound to one part of a configuration object, then to another.

georgesung/llm_qlora @ cc6683effd21 ``QloraTrainer.py:54-91`` (``QloraTrainer.train``)::

    if self.adapter_model is None:
        config_dict = self.config["lora"]
        config = LoraConfig(r=config_dict["r"], ...)
    ...
    config_dict = self.config["trainer"]
    trainer = transformers.Trainer(..., args=transformers.TrainingArguments(
        per_device_train_batch_size=config_dict["batch_size"],
        gradient_accumulation_steps=config_dict["gradient_accumulation_steps"], ...))

A read sees a binding when that binding is a statement of a block (a function's body, an ``if`` arm, a loop
body) and the read is inside a later statement of the same block, with no other binding of the name written
between them: every run reaches the read through that binding and nothing rebinds the name on the way (a loop
around the block runs the binding again before the read). Every binding must be a plain ``name = value``
statement (an augmented, tuple, loop-target, ``with``/``except``/walrus binding or a ``global`` leaves the name
unfollowed). Used by :mod:`preflight.adapters.config_object_reads` for the names a function binds more than
once; a read no binding reaches that way is not followed.
"""

from __future__ import annotations

import ast
from typing import Callable, Optional


class Segments:
    """The bindings of one name in one function, where each statement sits and each node's parent."""

    def __init__(self, where: dict[int, tuple[int, int]], parent: dict[int, ast.AST],
                 bindings: list[tuple[ast.Assign, Optional[tuple]]]) -> None:
        self.where = where  # id(statement) -> (id(its block), its index there)
        self.parent = parent  # id(node) -> its parent node
        self.bindings = bindings

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Segments) and [p for _, p in self.bindings] == [p for _, p in other.bindings]

    __hash__ = None  # type: ignore[assignment]


def _blocks(fn: ast.AST) -> tuple[dict[int, tuple[int, int]], dict[int, ast.AST]]:
    """Where each statement of the function's own code sits (block, index), and each node's parent."""
    where: dict[int, tuple[int, int]] = {}
    parent: dict[int, ast.AST] = {}
    stack: list[ast.AST] = [fn]
    while stack:
        node = stack.pop()
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                for i, stmt in enumerate(block):
                    if isinstance(stmt, ast.stmt):
                        where[id(stmt)] = (id(block), i)
        for child in ast.iter_child_nodes(node):
            parent[id(child)] = node
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                stack.append(child)
    return where, parent


def segments(fn: ast.AST, own: list[ast.AST], name: str,
             path_of: Callable[[ast.AST], Optional[tuple]]) -> Optional[Segments]:
    """The bindings of ``name`` with the part of the object each binds (None: something else); None when
    one binding is not a plain ``name = value`` statement."""
    stores = [n for n in own if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, (ast.Store, ast.Del))]
    assigns = [n for n in own if isinstance(n, ast.Assign) and len(n.targets) == 1
               and isinstance(n.targets[0], ast.Name) and n.targets[0].id == name]
    if len(assigns) < 2 or len(stores) != len(assigns):
        return None
    if any(isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names for n in own):
        return None
    where, parent = _blocks(fn)
    if any(id(a) not in where for a in assigns):
        return None
    return Segments(where, parent, [(a, path_of(a.value)) for a in assigns])


def binding_at(segs: Segments, node: ast.AST) -> Optional[tuple]:
    """The path of the binding every run reaches ``node`` through (None: none, or not a part of the object)."""
    on_block: dict[int, int] = {}  # id(block) -> index of the statement there that holds the node
    cur: Optional[ast.AST] = node
    while cur is not None:
        if id(cur) in segs.where:
            block, index = segs.where[id(cur)]
            on_block.setdefault(block, index)
        cur = segs.parent.get(id(cur))
    best: Optional[tuple[ast.Assign, Optional[tuple]]] = None
    for stmt, path in segs.bindings:
        block, index = segs.where[id(stmt)]
        later = block in on_block and on_block[block] > index
        if later and (best is None or (stmt.lineno, stmt.col_offset) > (best[0].lineno, best[0].col_offset)):
            best = (stmt, path)
    if best is None:
        return None
    start = (getattr(best[0], "end_lineno", None) or best[0].lineno, getattr(best[0], "end_col_offset", None) or 0)
    here = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
    if any(start <= (s.lineno, s.col_offset) < here for s, _ in segs.bindings if s is not best[0]):
        return None  # another binding written between: one that may or may not have run
    return best[1]
