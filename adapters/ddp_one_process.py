"""DistributedDataParallel on ONE process (plan ``dist.ddp_one_process``; the estimator's
``ddp_one_process``, est94).

torch's Reducer allocates each gradient bucket's flat tensor when DDP wraps the model
(``torch/csrc/distributed/c10d/reducer.cpp`` ``initialize_buckets``: ``bucket.gradients =
at::empty({offset}, options)``), whatever the world size: ``torchrun --nproc_per_node 1`` over a
script that wraps its model in DDP pays a second copy of the trained gradients (Shawlleyw/
instructGPT2-colossal's README logs it: 'Before training: memory usage: 0.94GB' for GPT-2's 0.46 GiB
of fp32 parameters under ColossalAI's TorchDDPPlugin).

Said (True, medium) only when both halves are certain:

- the process count is 1 from a launch line (``torchrun`` / ``torch.distributed.launch`` /
  ``colossalai run`` ``--nproc_per_node 1``: the launchers adapter, not a default or a guess);
- the resolved ``dist.sharding`` is ``ddp`` and comes from a wrap that runs whatever the world
  size: ColossalAI's ``TorchDDPPlugin`` (the Booster always wraps the model in ``TorchDDPModel``,
  a ``DistributedDataParallel``: ``colossalai/booster/plugin/torch_ddp_plugin.py``; the adapter
  has already decided that plugin is the live one), or the raw script's own
  ``DistributedDataParallel(...)`` / ``DDP(...)`` call with no ``if``, conditional expression,
  ``and``/``or``, ``while``, ``except`` or ``lambda`` above it and no ``return``/``raise`` under an ``if``
  before it, in a function every call of which
  (in the same file) is as unconditional, up to module level (``if __name__ == "__main__":``
  counts as unconditional).

Not said: ``if args.distributed: model = DDP(model)`` / ``if world_size > 1`` (the wrap a
one-process run skips: ``ddp_world_guard``), a wrap in a function called from elsewhere, an unknown
or guessed process count, and the frameworks that skip DDP for one process: accelerate's
``prepare`` wraps only when ``multi_device`` (``use_distributed``: ``num_processes > 1``,
``accelerate/state.py``), Lightning picks ``SingleDeviceStrategy`` for one device under
``strategy="auto"``; their ``dist.sharding`` facts are not the raw adapter's and are left alone.
"""

from __future__ import annotations

import ast
import os
from typing import Any, Optional

from preflight.plan import Source, TrainingPlan

FIELD = "dist.ddp_one_process"
_WRAPS = ("DistributedDataParallel", "DDP")
#: ancestors under which a statement may not run on every pass
_CONDITIONAL = (ast.If, ast.IfExp, ast.BoolOp, ast.While, ast.ExceptHandler, ast.Lambda,
                ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
_DEPTH = 4


def _parents(tree: ast.AST) -> dict[int, ast.AST]:
    out: dict[int, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            out[id(child)] = node
    return out


def _main_guard(node: ast.AST) -> bool:
    """``if __name__ == "__main__":`` (the branch a script always takes)."""
    if not isinstance(node, ast.If):
        return False
    t = node.test
    return (isinstance(t, ast.Compare) and isinstance(t.left, ast.Name) and t.left.id == "__name__"
            and len(t.comparators) == 1 and isinstance(t.comparators[0], ast.Constant)
            and t.comparators[0].value == "__main__")


def _early_exit(func: ast.AST, line: int) -> bool:
    """A ``return`` / ``raise`` under an ``if`` of ``func`` before ``line`` (demucs' ``if world_size == 1:
    return model`` above the wrap): the wrap may be skipped."""
    stack = [n for n in ast.iter_child_nodes(func)]
    while stack:
        cur = stack.pop()
        if isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(cur, (ast.If, ast.Try, ast.While, ast.For)) and getattr(cur, "lineno", line) < line \
                and any(isinstance(n, (ast.Return, ast.Raise)) and n.lineno < line for n in ast.walk(cur)):
            return True
        stack.extend(ast.iter_child_nodes(cur))
    return False


def _call_name(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _always(tree: ast.Module, node: ast.AST, parents: dict[int, ast.AST], depth: int) -> bool:
    """Whether ``node`` runs on every run of the script: no conditional above it up to its
    function, and that function called only unconditionally (in this file), up to module level."""
    cur = node
    while True:
        parent = parents.get(id(cur))
        if parent is None:
            return isinstance(cur, ast.Module)
        if isinstance(parent, ast.If) and _main_guard(parent) and isinstance(parents.get(id(parent)), ast.Module) \
                and cur in parent.body:
            cur = parent
            continue
        if isinstance(parent, _CONDITIONAL):
            return False
        if isinstance(parent, ast.Try) and cur not in parent.body and cur not in parent.finalbody:
            return False
        if isinstance(parent, _FUNCS):
            if _early_exit(parent, getattr(node, "lineno", 0)):
                return False
            return depth > 0 and _called_always(tree, parent, parents, depth - 1)
        if isinstance(parent, ast.ClassDef):
            return False
        cur = parent


def _called_always(tree: ast.Module, func: ast.AST, parents: dict[int, ast.AST], depth: int) -> bool:
    """Every call of ``func`` in the file runs unconditionally (and there is one). A method is
    called through its name (``self.setup(...)``); ``__init__`` through its class (``Trainer(...)``)."""
    assert isinstance(func, _FUNCS)
    name = func.name
    owner = parents.get(id(func))
    if isinstance(owner, ast.ClassDef) and name == "__init__":
        name = owner.name
    elif not isinstance(owner, (ast.Module, ast.ClassDef)):
        return False  # a nested function: not followed
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and _call_name(n) == name]
    return bool(calls) and all(_always(tree, c, parents, depth) for c in calls)


def _tree(project: Any, path: str) -> Optional[ast.Module]:
    for script in getattr(project, "scripts", ()):
        if script.tree is not None and path in (str(script.source.path), str(script.source.display)):
            return script.tree
    root = getattr(project, "root", None)
    if root is None:
        return None
    from preflight.local_trees import parse_file

    full = path if os.path.isabs(path) else os.path.join(str(root), path)
    try:
        if os.path.getsize(full) > 2_000_000:
            return None
        return parse_file(full)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _unconditional_wrap(project: Any, sharding: Any) -> bool:
    path, line = sharding.source.path, sharding.source.line
    if not path or not line:
        return False
    tree = _tree(project, str(path))
    if tree is None:
        return False
    wraps = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n, "lineno", None) == line
             and _call_name(n) in _WRAPS]
    if len(wraps) != 1:
        return False
    return _always(tree, wraps[0], _parents(tree), _DEPTH)


def ddp_one_process(plan: TrainingPlan, project: Any) -> None:
    world = plan.resolve("dist.world_size")
    if world is None or world.value != 1 or isinstance(world.value, bool) or world.adapter != "launchers" \
            or world.confidence != "high" or world.source.kind == "default":
        return
    sharding = plan.resolve("dist.sharding")
    if sharding is None or sharding.value != "ddp" or sharding.source.kind != "code":
        return
    detail = sharding.source.detail or ""
    if sharding.adapter == "colossalai_booster" and detail.startswith("TorchDDPPlugin("):
        why = ("ColossalAI's TorchDDPPlugin wraps the model in DistributedDataParallel at any world size "
               "(torch_ddp_plugin.py TorchDDPModel)")
    elif sharding.adapter == "pytorch" and _unconditional_wrap(project, sharding):
        why = f"{detail or 'DistributedDataParallel(...)'} runs whatever the world size (no guard above it)"
    else:
        return
    plan.add(FIELD, True,
             Source("derived", sharding.source.path, sharding.source.line, None,
                    f"{why}, and the launch starts one process ({world.source.detail or 'launch line'}): "
                    "DDP's Reducer allocates its gradient buckets on that one process"),
             "medium", adapter="derive")
