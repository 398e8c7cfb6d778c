"""No gradient accumulation when every backward of the script and its local modules is one optimizer step.

:func:`preflight.adapters.loop_update.every_update` reads the local modules of a script that calls no
``backward`` itself; :meth:`~preflight.adapters.loop_shapes.LoopShapesAdapter.every_batch` reads the loops of
the script. Many scripts do both in their own code: the loop calls an update function of the script
(Plachtaa/seed-vc @ d334fb7 ``train.py:234-341`` ``def train_one_step(self, batch): ...;
self.optimizer.zero_grad(); loss_total.backward(); ...; self.optimizer.step('cfm')``, called by
``for i, batch in enumerate(...)`` at ``:346``; descriptinc/descript-audio-codec ``scripts/train.py``
``train_loop(state, batch, accel, lambdas)``: ``accel.backward(...)`` then ``accel.step(state.optimizer_d)``,
likewise for the generator). When every ``backward()`` in the script and in the local modules it imports is a
statement of its function's own body followed there by the optimizer's step (or is stepped on every pass of
its loop), each backward is one step: ``batch.grad_accum`` 1 (medium, a fallback any reading outranks).

A step here is :func:`~preflight.adapters.loop_shapes._optimizer_step`, or a wrapper's step of a named
optimizer (``accel.step(state.optimizer_d)``: one argument that names an optimizer), or an optimizer wrapper's
step of one of its parts by a constant key (``self.optimizer.step('cfm')``). A backward under a condition, in a
``with``/``try`` block or a loop that does not step every pass, a ``no_sync`` context anywhere, or a module that
cannot be read say nothing.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_MAX_BYTES = 500_000
# a transformers/TRL Trainer, whose accumulation is its own setting (a class of the script's own named Trainer,
# Plachtaa/seed-vc train.py:21, beside a Whisper model from transformers, is not one)
_HF_IMPORT = re.compile(r"from\s+(?:transformers|trl)\s+import\s*(?:\([^)]*|[^\n]*)\b\w*Trainer\b|"
                        r"\btransformers\.\w*Trainer\b|\bTrainingArguments\b|\bHfArgumentParser\b|"
                        r"^\s*(?:from|import)\s+trl\b", re.M)
_ACCUMULATE = re.compile(r"accumul|accum_|_accum\b", re.I)
_FOUND = "step_per_call.found"


def _names_optimizer(node: ast.expr) -> bool:
    name = (dotted_name(node) or "").rsplit(".", 1)[-1].lower()
    return "optim" in name or name in ("opt", "opt_d", "opt_g", "optd", "optg")


def is_step(call: ast.Call) -> bool:
    """An optimizer step by any of the spellings above."""
    from preflight.adapters.loop_shapes import _optimizer_step

    if _optimizer_step(call):
        return True
    f = call.func
    if not (isinstance(f, ast.Attribute) and f.attr == "step") or call.keywords:
        return False
    if len(call.args) == 1 and _names_optimizer(call.args[0]):
        return True  # a wrapper stepping a named optimizer
    return bool(call.args) and _names_optimizer(f.value) and all(
        isinstance(a, ast.Constant) and isinstance(a.value, str) for a in call.args)


def _main_block(stmt: ast.stmt) -> bool:
    """``if __name__ == "__main__":``: a module's own demo, which does not run when the module is imported."""
    test = stmt.test if isinstance(stmt, ast.If) else None
    return isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__" \
        and len(test.comparators) == 1 and isinstance(test.comparators[0], ast.Constant) \
        and test.comparators[0].value == "__main__"


def _backward_calls(tree: ast.AST, imported: bool = False) -> Optional[list[ast.Call]]:
    """The ``backward()`` calls of ``tree`` (of an ``imported`` module: not those of its ``__main__`` block,
    descriptinc/descript-audio-codec ``dac/model/dac.py:325-354``, a gradient check run by hand); None when it
    has a ``no_sync`` context (accumulation)."""
    out: list[ast.Call] = []
    body: list[ast.AST] = list(tree.body) if isinstance(tree, ast.Module) else [tree]
    kept = [s for s in body if not (imported and isinstance(s, ast.stmt) and _main_block(s))]
    for n in (x for s in kept for x in ast.walk(s)):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            if n.func.attr in ("no_sync", "no_backward_sync"):
                return None
            if n.func.attr == "backward":
                out.append(n)
    return out


def _stepped(tree: ast.AST) -> set[int]:
    """ids of the backward calls each followed by a step among its function's own statements or on every pass
    of its loop."""
    from preflight.adapters.loop_branches import stepped_calls, stepped_in_loops
    from preflight.adapters.loop_shapes import _optimizer_names, _optimizer_step

    optimizers = _optimizer_names(tree)  # ``self.optG = torch.optim.Adam(...)``: an optimizer by any name

    def step(call: ast.Call) -> bool:
        return is_step(call) or _optimizer_step(call, optimizers)

    out: set[int] = set()
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.update(id(c) for c in stepped_calls(fn.body, step)[0])
    out.update(stepped_in_loops(tree, optimizers))
    for loop in ast.walk(tree):  # a loop stepping every pass by a wrapper's spelling
        if isinstance(loop, (ast.For, ast.AsyncFor, ast.While)):
            backward, steps, left = stepped_calls(loop.body, step)
            if backward and not left and not any(
                    isinstance(n, ast.Call) and step(n) and not any(n is s for s in steps)
                    for n in ast.walk(loop)):
                out.update(id(c) for c in backward)
    return out


def every_call_steps(project: Project, script: Any) -> Optional[Source]:
    """The source of the reading above for ``script`` (which back-propagates itself), or None."""
    from preflight.adapters.pytorch_local import _imported_up

    from preflight.local_trees import parse_file
    from preflight.sources import read_text_limited

    own = _backward_calls(script.tree)
    if not own or any(id(c) not in _stepped(script.tree) for c in own):
        return None
    root = Path(str(project.root)) if project.root else None
    for path in _imported_up(script.tree, Path(str(script.source.path)).resolve().parent, root):
        try:
            if path.stat().st_size > _MAX_BYTES:
                return None
            text = read_text_limited(path, _MAX_BYTES, errors="replace")
            if "backward" not in text and "no_sync" not in text:
                continue
            tree = parse_file(path)
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        theirs = _backward_calls(tree, imported=True)
        if theirs is None or any(id(c) not in _stepped(tree) for c in theirs):
            return None
    call = own[0]
    shown = os.path.relpath(str(script.source.path), root) if root is not None else Path(str(script.source.path)).name
    return Source("code", shown, call.lineno, None,
                  "every backward() of the script and its local modules is followed by the optimizer's step() on "
                  "each call of its function or pass of its loop: no gradient accumulation")


@register_adapter
class StepPerCallAdapter(Adapter):
    """After ``loop_shapes`` and ``loop_update`` (adapters run by name): a fallback for a script that
    back-propagates in its own functions."""

    name = "step_per_call"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        found = None
        if len(project.own_scripts()) == 1:
            script = project.scripts[0]
            text = script.source.text
            # a Trainer whose accumulation is its own setting, or a script that speaks of accumulating: not this
            if script.tree is not None and script.source.path is not None and ".backward(" in text \
                    and not _HF_IMPORT.search(text) and not _ACCUMULATE.search(text):
                found = every_call_steps(project, script)
        project.cache[_FOUND] = found
        return found is not None

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        found = project.cache.pop(_FOUND, None)
        if found is not None and plan.value("batch.grad_accum") is None:
            self.add_checked(plan, "batch.grad_accum", 1, found, "medium", -1)
