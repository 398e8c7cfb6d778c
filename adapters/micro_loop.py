"""Gradient accumulation as an inner micro-step loop: ``for _ in range(K):`` whose body back-propagates
on every pass and steps no optimizer, inside the training loop (which steps after it).
KellerJordan/modded-nanogpt @ f411b3d ``train_gpt.py:57,2357-2364``: ``grad_accum_steps = 8 // world_size``
(``world_size = int(os.environ["WORLD_SIZE"])``, set by the launcher), then ``for idx in range(grad_accum_steps):
... loss.backward()`` and after the loop ``training_manager.step_optimizers(step)``: the loss is scaled
inside the model (``grad_scale``), so the ``backward(loss / K)`` reading (:mod:`.loop_shapes`) did not see it.

``batch.grad_accum`` = K when K resolves to a positive int (the launch's ``WORLD_SIZE`` included,
:mod:`preflight.script_env`), the ``range`` loop sits in another loop, its own body (outside any ``if`` or
nested loop) calls ``backward``, and nothing named ``step``/``no_sync``/``zero_grad`` is called in it (a
``zero_grad`` there clears each pass's gradients: no accumulation); every such loop
that runs counting by the same K (a warm-up pass and the training loop, as there) (medium). Nothing is imported or executed."""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.local_trees import nodes_of


def _micro_loops(tree: ast.AST) -> list[ast.For]:
    out: list[ast.For] = []
    for outer in nodes_of(tree):
        if not isinstance(outer, (ast.For, ast.While)):
            continue
        for node in ast.walk(outer):
            if node is outer or not isinstance(node, ast.For) or any(node is o for o in out):
                continue
            it = node.iter
            if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
                    and len(it.args) == 1 and not it.keywords):
                continue
            from preflight.adapters.loop_shapes import _calls_at_level, _flat_body

            level = [c for st in _flat_body(node.body) for c in _calls_at_level(st)]
            if not any(isinstance(c.func, ast.Attribute) and c.func.attr == "backward" for c in level):
                continue
            if any(isinstance(c.func, ast.Attribute) and c.func.attr in ("step", "no_sync", "no_backward_sync", "zero_grad")
                   for c in ast.walk(node) if isinstance(c, ast.Call)):
                continue
            out.append(node)
    return out


def micro_steps(idx: Any, tree: ast.AST) -> Optional[tuple[ast.For, Any]]:
    """(the last loop, K resolved) of the micro-step loops that run, all counting by one K; or None."""
    sites = {id(s.call): s for s in idx.calls}
    loops = [lp for lp in _micro_loops(tree) if id(lp.iter) in sites and idx.runs(sites[id(lp.iter)]) is not False]
    if not loops or len({ast.unparse(lp.iter.args[0]) for lp in loops if isinstance(lp.iter, ast.Call)}) != 1:
        return None  # loops of different counts: which one trains is not read
    loop = loops[-1]
    assert isinstance(loop.iter, ast.Call)
    resolved = idx.resolve(loop.iter.args[0])
    value = resolved.value if resolved is not None else None
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        return None
    return loop, resolved
