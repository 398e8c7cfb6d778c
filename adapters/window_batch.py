"""Batches cut as random windows of one token stream, without a DataLoader: the nanoGPT ``get_batch``.

karpathy/nanoGPT ``train.py:116-131`` (and karpathy/ng-video-lecture ``gpt.py:41-48``)::

    def get_batch(split):
        data = np.memmap(os.path.join(data_dir, 'train.bin'), dtype=np.uint16, mode='r')
        ix = torch.randint(len(data) - block_size, (batch_size,))
        x = torch.stack([torch.from_numpy((data[i:i+block_size]).astype(np.int64)) for i in ix])
        y = torch.stack([torch.from_numpy((data[i+1:i+1+block_size]).astype(np.int64)) for i in ix])

and the Stanford CS336 assignment-1 form in a project module (bigohofone/assignment1-basics-solution
``cs336_basics/solutions/data_loading.py:7-22``: ``idx = np.random.randint(0, max_idx + 1,
size=batch_size)``, ``indices = idx[:, None] + offsets``, ``x = dataset[indices]``, ``y =
dataset[indices + 1]``), called in the training loop (``x, y = get_batch(dataset, local_bsz, ...)``
beside ``model_engine.backward(loss)``). Every sample is a fixed-length window of the concatenated
stream: no padding (``data.padding`` "packed"), and the batch is sliced in the training process
itself (``data.num_workers`` 0, no loader worker processes).

Read, never run: a function of the job's code (the script and the local modules it imports) that
draws random start indices (``torch.randint``/``numpy.random.randint``/``random.randint``), cuts
windows from them (a slice ``data[i:i + L]``, ``arange(i, i + L)``, a broadcast ``idx[:, None] +
offsets`` or a start plus an ``arange``, the forms the CS336 solutions in public code use) and also
reads the next-token shift (a ``+ 1`` in a subscript: ``data[i+1:...]``, ``data[indices + 1]``); a
loop of the script calls it and back-propagates in the same body; the job's code builds no
``DataLoader``. Only fields no other reader found; medium. A random crop of an image (a window
without the ``+ 1`` target shift) is not read.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.analysis.syntax import dotted_name
from preflight.plan import TrainingPlan

_DRAWS = ("randint",)


def _draws_indices(fn: ast.AST) -> bool:
    return any(isinstance(n, ast.Call) and (dotted_name(n.func) or "").rsplit(".", 1)[-1] in _DRAWS
               for n in ast.walk(fn))


def _plus_one(node: Optional[ast.AST]) -> bool:
    return node is not None and any(
        isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add)
        and any(isinstance(s, ast.Constant) and s.value == 1 for s in (n.left, n.right))
        for n in ast.walk(node))


def _has_arange(node: ast.AST, aranged: set[str]) -> bool:
    return any((isinstance(n, ast.Call) and (dotted_name(n.func) or "").rsplit(".", 1)[-1] == "arange")
               or (isinstance(n, ast.Name) and n.id in aranged) for n in ast.walk(node))


def _windows(fn: ast.AST) -> bool:
    """A window per drawn start: a slice ``x[i:i + L]``, ``arange(i, i + L)``/``range(i, i + L)``, a
    broadcast ``idx[:, None] + offsets``, or a start plus an ``arange`` (``idx.reshape(-1, 1) +
    torch.arange(L)``, ``np.add.outer(starts, np.arange(L))``, through a name bound to it)."""
    aranged: set[str] = set()
    for n in ast.walk(fn):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                and _has_arange(n.value, set()):
            aranged.add(n.targets[0].id)
    for n in ast.walk(fn):
        if isinstance(n, ast.Slice) and n.lower is not None and isinstance(n.upper, ast.BinOp) \
                and isinstance(n.upper.op, ast.Add):
            lower = ast.dump(n.lower)
            if any(lower in ast.dump(side) for side in (n.upper.left, n.upper.right)):
                return True
        if isinstance(n, ast.Call) and len(n.args) >= 2 and isinstance(n.args[1], ast.BinOp) \
                and isinstance(n.args[1].op, ast.Add) \
                and (dotted_name(n.func) or "").rsplit(".", 1)[-1] in ("arange", "range") \
                and ast.dump(n.args[0]) in ast.dump(n.args[1]):
            return True
        if isinstance(n, ast.Call) and (dotted_name(n.func) or "").endswith("add.outer") \
                and any(_has_arange(a, aranged) for a in n.args):
            return True
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add):
            for side in (n.left, n.right):
                if isinstance(side, ast.Subscript) and isinstance(side.slice, ast.Tuple) \
                        and any(isinstance(e, ast.Constant) and e.value is None for e in side.slice.elts):
                    return True
            if _has_arange(n.left, aranged) != _has_arange(n.right, aranged):
                return True  # a start plus a range of offsets
    return False


def _shifted(fn: ast.AST) -> bool:
    """The next-token target: a ``+ 1`` inside a subscript (``data[i+1:i+1+L]``, ``data[indices + 1]``)."""
    return any(isinstance(n, ast.Subscript) and _plus_one(n.slice) for n in ast.walk(fn))


def is_window_draw(fn: ast.AST) -> bool:
    return _draws_indices(fn) and _windows(fn) and _shifted(fn)


def window_batch_facts(plan: TrainingPlan, project: Any) -> None:
    """``data.padding`` "packed" and ``data.num_workers`` 0 from a window-batch function (module docstring)."""
    if project is None or len(project.own_scripts()) != 1:
        return
    if plan.resolve("data.padding") is not None and plan.resolve("data.num_workers") is not None:
        return
    script = project.scripts[0]
    if script.tree is None or script.source.path is None or "backward(" not in script.source.text:
        return
    from preflight.adapters.handed_batch import _defs, _loader_named, _trees

    trees = _trees(project, script)
    if _loader_named(trees):
        return
    defs = _defs(trees)
    found: Optional[tuple[ast.Call, str]] = None
    for loop in ast.walk(script.tree):
        if not isinstance(loop, (ast.For, ast.While)):
            continue
        nodes = [n for st in loop.body for n in ast.walk(st)]
        if not any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "backward"
                   for n in nodes):
            continue
        for call in (n for n in nodes if isinstance(n, ast.Call)):
            name = call.func.id if isinstance(call.func, ast.Name) else \
                call.func.attr if isinstance(call.func, ast.Attribute) else ""
            callees = [fn for fn, _m in defs.get(name, [])]
            if callees and all(is_window_draw(fn) for fn in callees):
                found = (call, name)
                break
        if found:
            break
    if found is None:
        return
    call, name = found
    where = f"{name}() in the training loop"
    if plan.resolve("data.padding") is None:
        plan.add("data.padding", "packed", project.source(script, call, "code", detail=(
            f"{where} cuts random fixed-length windows (and their next-token shift) from one token stream: "
            "no padding")), "medium", adapter="window_batch")
    if plan.resolve("data.num_workers") is None:
        plan.add("data.num_workers", 0, project.source(script, call, "code", detail=(
            f"{where} slices each batch in the training process; the job's code builds no DataLoader, so "
            "there are no loader worker processes")), "medium", adapter="window_batch")
