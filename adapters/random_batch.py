"""A batch drawn by random indices, without a DataLoader: the nanoGPT ``get_batch`` shape.

karpathy/ng-video-lecture ``gpt.py:41-48`` (and karpathy/nanoGPT ``train.py``'s ``get_batch``)::

    def get_batch(split):
        data = train_data if split == 'train' else val_data
        ix = torch.randint(len(data) - block_size, (batch_size,))
        x = torch.stack([data[i:i+block_size] for i in ix])

called in the training loop (``xb, yb = get_batch('train')`` beside ``loss.backward()``): each call
draws ``batch_size`` samples, the per-process batch (``batch.micro``, medium).

Read, never run: a function of the script that binds a name to ``torch.randint(high, (B,))`` (or
``size=(B,)``; ``numpy.random.randint(low, high, size=B)``) and gathers samples by those indices (the
name iterated in a comprehension, or used as a subscript) is the batch function when a loop of the
script calls it and back-propagates (``.backward(``) in the same body. ``B`` must resolve to a positive
int, and every such function of the job must agree; read after every adapter (from ``derive``), only
when none found a per-process batch. Nothing is imported or executed.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters_api import Project
from preflight.plan import TrainingPlan

_RANDINT = ("torch.randint", "numpy.random.randint")


def _size(call: ast.Call, qualified: str) -> Optional[ast.expr]:
    """``B`` of a one-dimensional index draw, or None."""
    size = next((k.value for k in call.keywords if k.arg == "size"), None)
    if size is None:
        if qualified == "torch.randint":
            size = call.args[-1] if len(call.args) in (2, 3) else None
        else:
            size = call.args[2] if len(call.args) == 3 else None
    if isinstance(size, (ast.Tuple, ast.List)):
        return size.elts[0] if len(size.elts) == 1 and not isinstance(size.elts[0], ast.Starred) else None
    if qualified == "numpy.random.randint" and isinstance(size, (ast.Name, ast.Attribute, ast.Constant)):
        return size  # numpy takes an int size
    return None


def _gathers(fn: ast.AST, name: str) -> bool:
    """``name`` picks samples in ``fn``: iterated by a comprehension or used as a subscript."""
    for node in ast.walk(fn):
        if isinstance(node, ast.comprehension) and isinstance(node.iter, ast.Name) and node.iter.id == name:
            return True
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Name) and node.slice.id == name:
            return True
    return False


def _called_in_training_loop(tree: ast.AST, fname: str) -> bool:
    for loop in ast.walk(tree):
        if not isinstance(loop, (ast.For, ast.While)):
            continue
        calls = [n for st in loop.body for n in ast.walk(st) if isinstance(n, ast.Call)]
        if any(isinstance(c.func, ast.Name) and c.func.id == fname for c in calls) and \
                any(isinstance(c.func, ast.Attribute) and c.func.attr == "backward" for c in calls):
            return True
    return False


def batch_draws(project: Project, script: Any) -> list[tuple[int, Any, str]]:
    """(B, call site, function name) of each index draw of a batch function of ``script``."""
    idx = project.index(script)
    tree = script.tree
    functions = {n.name: n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    out: list[tuple[int, Any, str]] = []
    for site in idx.calls:
        q = site.qualified or ""
        if q not in _RANDINT or site.function not in functions or not site.target or "." in site.target:
            continue
        if idx.runs(site) is False:
            continue
        fn = functions[site.function]
        size = _size(site.call, q)
        if size is None or not _gathers(fn, site.target) or not _called_in_training_loop(tree, fn.name):
            continue
        resolved = idx.resolve(size)
        value = resolved.value if resolved is not None else None
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            continue
        out.append((value, site, fn.name))
    return out


def random_batch_micro(plan: TrainingPlan, project: Any) -> None:
    """``batch.micro`` from the job's batch function (a ``derive`` step: only when no adapter found a
    per-process batch, so a config that overrides the script's default, nanoGPT's
    ``config/train_shakespeare_char.py`` ``batch_size = 64`` over ``train.py``'s 12, is not contradicted)."""
    if project is None or plan.resolve("batch.micro") is not None:
        return
    found: list[tuple[int, Any, str, Any]] = []
    for script in project.scripts:
        if script.tree is None or script.source.path is None or "randint" not in script.source.text \
                or ".backward(" not in script.source.text:
            continue
        found.extend((*d, script) for d in batch_draws(project, script))
    if not found or len({f[0] for f in found}) != 1:
        return
    value, site, fname, script = found[0]
    detail = (f"{site.target} = {site.label}(..., ({value},)) in {fname}(), which the training loop calls: "
              f"each call gathers {value} random samples (no DataLoader)")
    plan.add("batch.micro", value, project.source(script, site.call, "code", detail=detail), "medium",
             adapter="random_batch")
