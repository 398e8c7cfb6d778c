"""A loader batch the training loop splits into rounds: the DataLoader's batch is not the micro batch.

NVlabs' StyleGAN lineage loads the whole per-GPU batch and runs it ``batch_gpu`` samples at a time,
accumulating gradients over the rounds (NVlabs/stylegan2-ada-pytorch and NVlabs/stylegan3
``training/training_loop.py``: ``DataLoader(batch_size=batch_size//num_gpus)`` then
``phase_real_img = (...).split(batch_gpu)``; autonomousvision/stylegan-t @ 36ab80c
``training/training_loop.py:196-218,276-289``: ``DataLoader(batch_size=batch_size//dist.get_world_size())``
and ``fetch_data(..., batch_gpu)`` doing ``split(real_img, batch_gpu)`` with the module's own ``split``,
``n_batch_acc = batch_gpu_total // batch_gpu``). When the function that builds the train loader hands
one of its parameters named like a batch (``batch_gpu``) to ``X.split(P)``/``split(X, P)``/
``torch.split(X, P)``, in itself or in a function of the same module it calls with it, the loader's
batch is not the micro batch: the micro batch is that parameter's value, when it is read and not
rebound, and the accumulation the loader batch over it, when both are read and it divides evenly. A
``str.split(sep)`` (a separator not named like a batch) is not a split of the batch. Nothing is imported.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

_SPLITS = ("split", "torch.split", "np.array_split", "numpy.array_split", "tensor_split")


def _chunk_names(fn: ast.AST) -> set[str]:
    """Names a function splits something by: ``X.split(N)``, ``split(X, N)``, ``torch.split(X, N)``."""
    out: set[str] = set()
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call) or node.keywords:
            continue
        name = ast.unparse(node.func)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "split" and len(node.args) == 1 \
                and name not in _SPLITS and not isinstance(node.func.value, (ast.Constant, ast.JoinedStr)):
            chunk: Optional[ast.AST] = node.args[0]
        elif name in _SPLITS and len(node.args) == 2:
            chunk = node.args[1]
        else:
            continue
        if isinstance(chunk, ast.Name) and "batch" in chunk.id.lower():
            out.add(chunk.id)
    return out


def split_parameter(tree: ast.Module, function: Optional[str], batch: ast.AST) -> Optional[str]:
    """The parameter of the module-level function ``function`` that the batch is split by (itself or a
    same-module function it calls with the parameter), else None. A name in the loader's own ``batch``
    expression is not a round (stylegan-t ``split(gen_zs, batch_size)`` cuts the latents of all phases
    into batches of the loader's size)."""
    fns = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    fn = fns.get(function or "")
    if fn is None:
        return None
    own = {n.id for n in ast.walk(batch) if isinstance(n, ast.Name)}
    params = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs} - own
    found = [n for n in _chunk_names(fn) if n in params]
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in fns):
            continue
        callee = fns[node.func.id]
        names = [a.arg for a in callee.args.posonlyargs + callee.args.args]
        chunks = _chunk_names(callee)
        given = list(zip(names, node.args)) + [(k.arg, k.value) for k in node.keywords if k.arg]
        found += [v.id for k, v in given if k in chunks and isinstance(v, ast.Name) and v.id in params]
    found = sorted(set(found))
    return found[0] if len(found) == 1 else None


def split_rounds(pass_: Any, site: Any, loader_batch: Optional[int], batch: ast.AST) -> bool:
    """Add the micro batch and accumulation of a loader whose batch is split into rounds; True when the
    loader's batch is split (whatever was read), so it is not taken as the micro batch."""
    tree = getattr(pass_.script, "tree", None)
    if not isinstance(tree, ast.Module):
        return False
    param = split_parameter(tree, site.function, batch)
    if param is None:
        return False
    got = pass_.value(ast.Name(id=param, ctx=ast.Load(), lineno=site.call.lineno))
    if got is None and _clamped_to_loader(tree, site.function, param, batch, pass_):
        got = pass_.idx._parameter(param, 0, site.call.lineno)  # the caller's value; the clamp leaves it when <= the loader's
    if got is None or not isinstance(got.value, int) or isinstance(got.value, bool) or got.value < 1:
        return True
    micro = got.value
    if loader_batch is not None and micro > loader_batch:
        return True  # clamped by the loop to the loader's batch (stylegan-t ``if batch_gpu > batch_gpu_total``)
    what = f"{site.label}(batch_size=...) split into rounds of {param} = {micro} in {site.function}()"
    pass_.put("batch.micro", got, site, what, "medium")
    if loader_batch is not None and loader_batch % micro == 0:
        pass_.add("batch.grad_accum", loader_batch // micro,
                  pass_.src(site.call, f"{what}: {loader_batch} // {micro} rounds accumulated per step", "derived"),
                  "medium")
    return True


def _same(a: ast.AST, b: ast.AST, fn: ast.AST) -> bool:
    """``a`` is ``b``, or a name bound once in ``fn`` to the same expression."""
    if isinstance(a, ast.Name):
        bound = [n.value for n in ast.walk(fn) if isinstance(n, ast.Assign) and len(n.targets) == 1
                 and isinstance(n.targets[0], ast.Name) and n.targets[0].id == a.id]
        if len(bound) == 1:
            a = bound[0]
    return ast.unparse(a).replace(" ", "") == ast.unparse(b).replace(" ", "")


def _clamped_to_loader(tree: ast.Module, function: Optional[str], param: str, batch: ast.AST, pass_: Any) -> bool:
    """Every rebinding of ``param`` in the function is the clamp ``if P is None or P > X: P = X`` with ``X``
    the loader's own batch (stylegan-t ``training/training_loop.py:276-278``: ``batch_gpu_total = batch_size //
    dist.get_world_size()``, ``if batch_gpu is None or batch_gpu > batch_gpu_total: batch_gpu =
    batch_gpu_total``)."""
    fn = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == function), None)
    if fn is None or not hasattr(pass_.idx, "_parameter"):
        return False
    clamps = 0
    for node in ast.walk(fn):
        writes = [t for t in (node.targets if isinstance(node, ast.Assign) else
                              [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
                  if isinstance(t, ast.Name) and t.id == param]
        if not writes:
            continue
        if not isinstance(node, ast.Assign):
            return False
        owner = next((n for n in ast.walk(fn) if isinstance(n, ast.If) and node in n.body and not n.orelse), None)
        if owner is None or len(owner.body) != 1:
            return False
        tests = owner.test.values if isinstance(owner.test, ast.BoolOp) and isinstance(owner.test.op, ast.Or) \
            else [owner.test]
        greater = [t for t in tests if isinstance(t, ast.Compare) and len(t.ops) == 1 and isinstance(t.ops[0], ast.Gt)
                   and isinstance(t.left, ast.Name) and t.left.id == param]
        if len(greater) != 1 or ast.unparse(greater[0].comparators[0]) != ast.unparse(node.value) \
                or not _same(node.value, batch, fn):
            return False
        clamps += 1
    return clamps == 1
