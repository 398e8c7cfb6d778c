"""An update function of a local module: ``backward()`` then the optimizer's ``step()`` on every call, so
every backward is one optimizer step and there is no gradient accumulation (:func:`every_update`, read by
the ``loop_update`` adapter, a fallback after ``loop_shapes``: adapters run by name). Split out of
:mod:`preflight.adapters.loop_shapes`; nothing is imported or executed."""

from __future__ import annotations

import ast
import os
from functools import partial
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.loop_shapes import _MAX_BYTES, _optimizer_names, _optimizer_step

from preflight.adapters_api import Adapter, Project
from preflight.local_trees import parse_file
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter


# -- an update function of a local module: backward() then step() on every call ------------
def every_update(project: Project, script: Any) -> Optional[tuple[str, Source]]:
    """The script calls no ``backward`` itself, and every ``backward()`` in the local modules it
    imports (:func:`preflight.adapters.pytorch_local._imported_up`) is a call of its function's own
    statements (not under an ``if``/``with``/``try`` or a loop) followed, among those statements, by
    the optimizer's ``step()`` (nicklashansen/tdmpc2 @ e9f5932 ``tdmpc2/tdmpc2.py:307-309``
    ``total_loss.backward(); ...; self.optim.step()`` in ``TDMPC2._update``, and ``:227-229`` in
    ``update_pi``, reached through ``trainer.train()`` -> ``self.agent.update(self.buffer)``): each
    call of such a function is one optimizer step, no gradient accumulation, 1 (medium, a fallback).
    A backward anywhere else (in a loop, under a test, with no step after it), a ``no_sync``
    context or a module that cannot be read say nothing."""
    from preflight.adapters.loop_branches import stepped_calls, stepped_in_loops
    from preflight.adapters.pytorch_local import _imported_up

    from preflight.sources import read_text_limited

    root = Path(str(project.root)) if project.root else None
    found: Optional[tuple[Path, ast.Call]] = None
    for path in _imported_up(script.tree, Path(str(script.source.path)).resolve().parent, root):
        try:
            if path.stat().st_size > _MAX_BYTES:
                return None
            text = read_text_limited(path, _MAX_BYTES, errors="replace")
            if ".backward(" not in text and "no_sync" not in text:
                continue
            tree = parse_file(path)
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        backward = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                    and n.func.attr in ("backward", "no_sync", "no_backward_sync")]
        stepped: set[int] = set()
        # an optimizer the module binds under any name (Janspiry/Image-Super-Resolution-via-Iterative-Refinement
        # @ 01d27a7 model/model.py:39-40,49-55 ``self.optG = torch.optim.Adam(...)``, ``self.optG.step()``)
        optimizers = _optimizer_names(tree)
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            stepped.update(id(c) for c in stepped_calls(fn.body, partial(_optimizer_step, optimizers=optimizers))[0])
        stepped.update(stepped_in_loops(tree, optimizers))
        if any(id(c) not in stepped for c in backward):
            return None
        if backward and found is None:
            found = (path, backward[0])
    if found is None:
        return None
    path, call = found
    shown = os.path.relpath(path, root) if root is not None else path.name
    return "batch.grad_accum", Source("code", shown, call.lineno, None,
                                      f"backward() then the optimizer's step() in a function ({shown}:{call.lineno}) "
                                      "the script's code calls, on every call or every pass of its loop: every "
                                      "backward is one optimizer step, no gradient accumulation")


_UPDATE = "loop_update.found"


@register_adapter
class LoopUpdateAdapter(Adapter):
    """:func:`every_update` (after ``loop_shapes``: adapters run by name): the reading is done in
    ``detect`` so that an adapter that writes nothing is not named among those detected."""

    name = "loop_update"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        found = None
        if len(project.own_scripts()) == 1:
            script = project.scripts[0]
            if script.tree is not None and script.source.path is not None \
                    and ".backward(" not in script.source.text:
                found = every_update(project, script)
        project.cache[_UPDATE] = found
        return found is not None

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        found = project.cache.pop(_UPDATE, None)
        if found is not None and plan.value("batch.grad_accum") is None:
            self.add_checked(plan, found[0], 1, found[1], "medium", -1)
