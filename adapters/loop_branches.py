"""Backward then the optimizer's step on every pass, the two ways of an ``if``/``else`` included.

Many loops back-propagate and step one way with an AMP scaler and another without it, both on every
batch: facebookresearch/ijepa @ 52c1ae95d05f743e000e8f10a1f3a79b10cff048 ``src/train.py:322-328``::

    if use_bfloat16:
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    else:
        loss.backward()
        optimizer.step()

Whichever way runs, the optimizer steps once per backward: no gradient accumulation.
:func:`stepped_calls` reads a statement list (a loop's body, a function's body) that way for
:mod:`preflight.adapters.loop_shapes` (``every_batch``, ``every_update``): an ``if`` with an ``else``
counts when both of its ways back-propagate and step, each on its own; an ``if`` without an ``else``, a
loop, a ``with`` or ``try`` block is not looked into (its calls may not run, as before).
"""

from __future__ import annotations

import ast
from typing import Callable

from preflight.adapters.loop_shapes import _calls_at_level


def stepped_calls(stmts: list[ast.stmt], is_step: Callable[[ast.Call], bool]
                  ) -> tuple[list[ast.Call], list[ast.Call], bool]:
    """(the ``backward`` calls each followed by an optimizer step, those steps, whether a ``backward`` is
    left with no step after it) among the statements that run each time ``stmts`` run."""
    stepped: list[ast.Call] = []
    steps: list[ast.Call] = []  # every step after the first backward, as loop_shapes always counted them
    pending: list[ast.Call] = []
    seen = False
    for stmt in stmts:
        if isinstance(stmt, ast.If) and stmt.orelse and not pending:
            done = stepped_calls(stmt.body, is_step)
            other = stepped_calls(stmt.orelse, is_step)
            if done[0] and other[0] and not done[2] and not other[2]:
                stepped += done[0] + other[0]
                steps += done[1] + other[1]
                seen = True
                continue
        for call in _calls_at_level(stmt):
            if isinstance(call.func, ast.Attribute) and call.func.attr == "backward":
                pending.append(call)
                seen = True
            elif seen and is_step(call):
                stepped += pending
                pending = []
                steps.append(call)
    return stepped, steps, bool(pending)
