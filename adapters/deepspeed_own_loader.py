"""A job that hands ``deepspeed.initialize`` no data and batches its own DataLoader.

``deepspeed.initialize(training_data=dataset)`` builds the engine's loader with the JSON's
``train_micro_batch_size_per_gpu``; without ``training_data`` the engine only runs what the
script feeds it, and the JSON's figure is bookkeeping (throughput and ``train_batch_size``
checks). Each step then holds the batch of the script's own ``DataLoader(batch_size=...)``:
OpenLMLab/LOMO @ 45d4bac ``lomo/src/lomo_trainer.py:55-58`` ``deepspeed.initialize(
config=training_args.deepspeed, model=model)`` and ``:349-357`` ``DataLoader(...,
batch_size=self.training_args.per_device_train_batch_size)`` (16 from ``config/args_lomo.yaml:18``)
while ``config/ds_config.json:25`` says 2.

Read, never run: the launched script and the local modules it imports (at most 12). The
shape holds when some file calls ``deepspeed.initialize`` and none of those calls passes
``training_data`` (by keyword or as the fifth positional argument), and some file calls
``DataLoader`` with a batch size (``batch_size=`` or the second positional argument). The
deepspeed adapter then states the JSON's micro batch at medium, with a note, so a batch the
script's loader states at high wins.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Optional

from preflight.adapters_api import Project
from preflight.local_trees import nodes_of, parse_small_file

_MAX_LOCAL = 12


def _is_initialize(call: ast.Call) -> bool:
    func = call.func
    return isinstance(func, ast.Attribute) and func.attr == "initialize" \
        and isinstance(func.value, ast.Name) and func.value.id == "deepspeed"


def _gives_data(call: ast.Call) -> bool:
    if len(call.args) >= 5 or any(isinstance(a, ast.Starred) for a in call.args):
        return True
    return any(k.arg in ("training_data", None) for k in call.keywords)


def _batched_loader(call: ast.Call) -> bool:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name != "DataLoader":
        return False
    return len(call.args) >= 2 or any(k.arg == "batch_size" for k in call.keywords)


def own_loader(project: Project) -> Optional[str]:
    """Where the job builds its own batched ``DataLoader`` while ``deepspeed.initialize`` gets no
    data (``file:line`` of the loader and of the call), else None."""
    from preflight.adapters.pytorch_local import _imported_local

    files: list[tuple[str, ast.AST]] = []
    for script in project.scripts:
        if not isinstance(script.tree, ast.Module) or script.source.path is None:
            continue
        files.append((str(script.source.display), script.tree))
        path = Path(str(script.source.path))
        if not path.is_file():
            continue
        for local in _imported_local(script.tree, path.resolve().parent)[:_MAX_LOCAL]:
            if not project.may_read(local):
                continue
            local_tree = parse_small_file(local)
            if local_tree is not None:
                files.append((local.name, local_tree))
    init: Optional[str] = None
    loader: Optional[str] = None
    for shown, tree in files:
        for node in nodes_of(tree):
            if not isinstance(node, ast.Call):
                continue
            if _is_initialize(node):
                if _gives_data(node):
                    return None
                init = init or f"{shown}:{node.lineno}"
            elif loader is None and _batched_loader(node):
                loader = f"{shown}:{node.lineno}"
    if init is None or loader is None:
        return None
    return f"DataLoader with a batch size at {loader}; deepspeed.initialize without training_data at {init}"
