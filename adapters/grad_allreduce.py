"""A project function that makes a model data-parallel by hand: it registers gradient hooks that
all-reduce every parameter's gradient across the processes (read by the PyTorch adapter's
``distributed`` pass; nothing is imported or executed).

NVIDIA's ``distributed.py`` of tacotron2, waveglow, mellotron and flowtron (NVIDIA/flowtron @ d149bc4
``distributed.py:81-133``, called as ``model = apply_gradient_allreduce(model)`` at ``train.py:251-252``):
the function broadcasts the weights from rank 0, then ``param.register_hook(allreduce_hook)`` queues a
``dist.all_reduce`` of the flattened ``param.grad`` buffers, divided by the world size. Every process keeps
the whole model and averages gradients: DDP's memory and batch semantics.

A function qualifies when it is a module-level ``def`` of a project module the script imports by name
(``from distributed import apply_gradient_allreduce``), and its body both registers a hook on parameters
(``.register_hook(`` or ``register_post_accumulate_grad_hook(``) and calls ``all_reduce`` on gradients
(an ``all_reduce`` call and a ``.grad`` read in the same function). Anything less (an ``all_reduce`` of a
loss for logging, a hook without a reduction) is not a data-parallel wrapper.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Optional

_HOOKS = ("register_hook", "register_post_accumulate_grad_hook")


def _reduces_gradients(fn: ast.FunctionDef) -> bool:
    hooks = reduces = grads = False
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in _HOOKS:
                hooks = True
            elif node.func.attr == "all_reduce":
                reduces = True
        elif isinstance(node, ast.Attribute) and node.attr == "grad":
            grads = True
    return hooks and reduces and grads


def hand_ddp(script_path: Optional[Path], qualified: str) -> Optional[tuple[Path, int]]:
    """(module file, line of the ``def``) when ``qualified`` (``module.function`` as the script imports
    it) is a hand-written gradient all-reduce wrapper of a project module; else None."""
    # the one module-level def of that name in a project module, read bounded
    from preflight.adapters.loader_helper import _builder

    found = _builder(Path(script_path), qualified) if script_path is not None else None
    if found is None or not _reduces_gradients(found[1]):
        return None
    return found[0], found[1].lineno
