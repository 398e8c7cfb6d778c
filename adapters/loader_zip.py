"""A data-loader helper that zips list arguments into one ``DataLoader`` per element: salesforce/BLIP's
``data/__init__.py`` ``def create_loader(datasets, samplers, batch_size, num_workers, is_trains, collate_fns)``,
whose body is ``for dataset, sampler, bs, n_worker, is_train, collate_fn in zip(datasets, samplers, batch_size,
num_workers, is_trains, collate_fns):`` then ``if is_train: ... DataLoader(dataset, batch_size=bs,
num_workers=n_worker, ...)``. The file is copied into the BLIP family (ALBEF, X-VLM, BLIP-2 forks, Tag2Text and
RAM++: xinyu1205/recognize-anything ``ram/data/__init__.py:50-68``, called as ``create_loader(datasets, samplers,
batch_size=[config['batch_size']], num_workers=[4], is_trains=[True], collate_fns=[None])[0]`` in
``finetune.py:191``).

:func:`training_element` gives the element of the call's list argument that the training loader takes as
``batch_size`` / ``num_workers``: the helper's one ``DataLoader(...)`` takes that keyword straight from a name
a ``for ... in zip(p1, p2, ...)`` loop binds to the elements of parameter ``pK`` (never rebound); the call
gives ``pK`` a list literal (``[a, b]``, ``[a] + [b] * 2``). The training element is the one at the sole
truthy position of the list the call gives the parameter zipped to the loop's ``if <name>:`` test
(``is_trains=[True, False, False]``), or the only element of a one-element list when there is no such test.
Anything else (two training positions, a list not written out, a loop variable rebound): None. Nothing is
imported or executed.
"""

from __future__ import annotations

import ast
from typing import Optional

from preflight.analysis.syntax import dotted_name


def _params(fn: ast.FunctionDef) -> list[str]:
    return [a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)]


def _stored(fn: ast.AST, name: str, skip: Optional[ast.AST] = None) -> bool:
    """``name`` is assigned somewhere in ``fn`` other than ``skip`` (a loop's own target)."""
    for node in ast.walk(fn):
        if node is skip:
            continue
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)):
            targets = [node.target]
        for t in targets:
            if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(t)):
                return True
    return False


def _zip_loop(fn: ast.FunctionDef) -> Optional[tuple[ast.For, dict[str, str]]]:
    """The function's one ``for a, b, ... in zip(p, q, ...)`` over its parameters: (loop, loop name -> param)."""
    loops = [n for n in ast.walk(fn) if isinstance(n, ast.For) and isinstance(n.iter, ast.Call)
             and dotted_name(n.iter.func) == "zip"]
    if len(loops) != 1:
        return None
    loop = loops[0]
    assert isinstance(loop.iter, ast.Call)
    if not isinstance(loop.target, ast.Tuple) or len(loop.target.elts) != len(loop.iter.args) or loop.iter.keywords:
        return None
    params = _params(fn)
    pairs: dict[str, str] = {}
    for var, arg in zip(loop.target.elts, loop.iter.args):
        if isinstance(var, ast.Name) and isinstance(arg, ast.Name) and arg.id in params \
                and not _stored(fn, arg.id) and not _stored(fn, var.id, skip=loop):
            pairs[var.id] = arg.id
    return loop, pairs


def zipped_param(fn: ast.FunctionDef, kw: str) -> Optional[str]:
    """The parameter whose elements the helper's one ``DataLoader(...)`` (inside the zip loop) takes as ``kw``."""
    got = _zip_loop(fn)
    if got is None:
        return None
    loop, pairs = got
    loaders = [n for n in ast.walk(loop) if isinstance(n, ast.Call)
               and (dotted_name(n.func) or "").rsplit(".", 1)[-1] == "DataLoader"]
    if len(loaders) != 1 or any(k.arg is None for k in loaders[0].keywords):
        return None
    given = next((k.value for k in loaders[0].keywords if k.arg == kw), None)
    return pairs.get(given.id) if isinstance(given, ast.Name) else None


def _train_param(fn: ast.FunctionDef) -> Optional[str]:
    """The zipped parameter whose loop name is an ``if`` test in the loop (``if is_train:``)."""
    got = _zip_loop(fn)
    if got is None:
        return None
    loop, pairs = got
    tested = {n.test.id for n in ast.walk(loop) if isinstance(n, ast.If) and isinstance(n.test, ast.Name)}
    found = [pairs[v] for v in tested if v in pairs]
    return found[0] if len(found) == 1 else None


def elements(expr: Optional[ast.expr]) -> Optional[list[ast.expr]]:
    """The elements of a list written out: ``[a, b]``, ``[a] + [b] * 2`` (or ``2 * [b]``); else None."""
    if isinstance(expr, (ast.List, ast.Tuple)):
        return None if any(isinstance(e, ast.Starred) for e in expr.elts) else list(expr.elts)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        left, right = elements(expr.left), elements(expr.right)
        return None if left is None or right is None else left + right
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult):
        for seq, count in ((expr.left, expr.right), (expr.right, expr.left)):
            if isinstance(count, ast.Constant) and isinstance(count.value, int) \
                    and not isinstance(count.value, bool) and 0 <= count.value <= 16:
                got = elements(seq)
                if got is not None:
                    return got * count.value
    return None


def _argument(call: ast.Call, fn: ast.FunctionDef, param: str) -> Optional[ast.expr]:
    given = next((k.value for k in call.keywords if k.arg == param), None)
    names = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    if given is None and param in names and names.index(param) < len(call.args) \
            and not any(isinstance(a, ast.Starred) for a in call.args[:names.index(param) + 1]):
        given = call.args[names.index(param)]
    return given


def training_element(call: ast.Call, fn: ast.FunctionDef, kw: str) -> Optional[ast.expr]:
    """The element of ``call``'s list argument the helper ``fn`` hands its training ``DataLoader`` as ``kw``."""
    param = zipped_param(fn, kw)
    if param is None:
        return None
    values = elements(_argument(call, fn, param))
    if not values:
        return None
    flag = _train_param(fn)
    if flag is None:
        return values[0] if len(values) == 1 else None
    flags = elements(_argument(call, fn, flag))
    if flags is None or len(flags) != len(values) or not all(isinstance(f, ast.Constant) for f in flags):
        return None
    train = [i for i, f in enumerate(flags) if isinstance(f, ast.Constant) and f.value]
    return values[train[0]] if len(train) == 1 else None
