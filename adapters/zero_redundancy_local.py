"""PyTorch's ZeroRedundancyOptimizer built in the ``__init__`` of a local class the script constructs.

The improved-diffusion family keeps its training loop in a ``TrainLoop`` class of a package the script
imports; the class's ``__init__`` builds the optimizer and the DDP wrapper, and its keyword defaults pick
the arm. sail-sg/MDT @ 7d26c21 ``masked_diffusion/train_util.py:44-45,83-101,121-128``::

    def __init__(self, *, model, ..., opt_type='adan', use_zero=True):
        ...
        if opt_type == 'adamw':
            if use_zero:
                self.opt = ZeroRedundancyOptimizer(..., optimizer_class=Adam, ...)
            else:
                self.opt = AdamW(...)
        elif opt_type == 'adan':
            if use_zero:
                self.opt = ZeroRedundancyOptimizer(..., optimizer_class=Adan, ...)
            ...
        self.ddp_model = DDP(self.model, ...)

built once by ``scripts/image_train.py`` as ``TrainLoop(model=..., batch_size=args.batch_size, ...)``
without ``opt_type`` or ``use_zero``. The same shape (a trainer class whose ``__init__`` takes a
``use_zero`` flag and builds ``ZeroRedundancyOptimizer(..., optimizer_class=torch.optim.Adam)`` beside a
DDP wrapper) is in other public code found by the corpus search (docs/corpus.md, jobs118).

Read, never imported: the local modules the script imports (the taken arms only); a class whose
``__init__`` builds a ``ZeroRedundancyOptimizer`` and a ``DistributedDataParallel``, called exactly once
by the script. Every ``if`` around a ZeRO call must be decided by a parameter of ``__init__``
(``p``, ``not p``, ``p == C``, ``p != C``): the script's keyword (a value the script's index knows),
else the parameter's literal default. Exactly one ZeRO call taken gives ``dist.sharding`` ``zero1``
and its ``optimizer_class=`` the optimizer (medium); any undecided test, a ``**`` splat at the call, or
several taken calls state nothing.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.import_names import import_names

from preflight.analysis.syntax import dotted_name
from preflight.local_trees import nodes_of, parse_file

_ZERO = ("torch.distributed.optim.ZeroRedundancyOptimizer",
         "torch.distributed.optim.zero_redundancy_optimizer.ZeroRedundancyOptimizer")
_DDP = ("torch.nn.parallel.DistributedDataParallel", "torch.nn.parallel.distributed.DistributedDataParallel")
# optimizer classes not in pytorch_pass._OPTIMIZER_CLASS: sail-sg/Adan (``from adan import Adan``;
# timm.optim.Adan), the optimizer of MDT's train_util.py
_MORE = ("Adan",)
_MAX_BYTES = 500_000
_NOT = object()


def _qualified(name: Optional[str], imports: dict[str, str]) -> str:
    if not name:
        return ""
    head, _, rest = name.partition(".")
    return imports.get(head, head) + (f".{rest}" if rest else "")


def _guards(stmts: list[ast.stmt], target: ast.AST) -> Optional[list[tuple[ast.expr, bool]]]:
    """The ``if`` tests around ``target`` (test, in_body), outermost first; None when it sits in a
    loop, a ``try`` handler or another statement whose running is not decided by a test."""
    for stmt in stmts:
        if not any(n is target for n in ast.walk(stmt)):
            continue
        if isinstance(stmt, ast.If):
            if any(n is target for n in ast.walk(stmt.test)):
                return None
            for arm, in_body in ((stmt.body, True), (stmt.orelse, False)):
                if any(any(n is target for n in ast.walk(s)) for s in arm):
                    inner = _guards(arm, target)
                    return None if inner is None else [(stmt.test, in_body), *inner]
            return None
        if isinstance(stmt, ast.With):
            return _guards(stmt.body, target)
        if isinstance(stmt, (ast.Expr, ast.Assign, ast.AnnAssign)):
            return []
        return None
    return None


def _param_values(fn: ast.FunctionDef, call: ast.Call, idx: Any) -> Optional[dict[str, Any]]:
    """Each parameter of ``fn`` (an ``__init__``) -> its value at ``call``: the call's keyword (a value
    the script's index knows, else unknown), else its literal default, else unknown; None when the call
    splats ``*``/``**``."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    args = fn.args
    positional = [a.arg for a in args.args][1:]  # self
    out: dict[str, Any] = {}
    defaults = dict(zip([a.arg for a in args.args][len(args.args) - len(args.defaults):], args.defaults))
    defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
    for name, node in defaults.items():
        try:
            out[name] = ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            out[name] = _NOT
    given: dict[str, ast.expr] = {k.arg: k.value for k in call.keywords if k.arg}
    for name, value in zip(positional, call.args):
        given[name] = value
    for name, value in given.items():
        got = idx.resolve(value)
        out[name] = got.value if got is not None else _NOT
    return out


def _test_value(test: ast.expr, params: dict[str, Any]) -> Optional[bool]:
    neg = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    inner = test.operand if isinstance(test, ast.UnaryOp) and neg else test
    if isinstance(inner, ast.Name):
        got = params.get(inner.id, _NOT)
        if got is _NOT or (not isinstance(got, (bool, int, str)) and got is not None):
            return None
        return bool(got) != neg
    if neg or not (isinstance(inner, ast.Compare) and len(inner.ops) == 1 and isinstance(inner.left, ast.Name)
                   and isinstance(inner.ops[0], (ast.Eq, ast.NotEq)) and isinstance(inner.comparators[0], ast.Constant)):
        return None
    got = params.get(inner.left.id, _NOT)
    if got is _NOT or (not isinstance(got, (bool, int, float, str)) and got is not None):
        return None
    return (got == inner.comparators[0].value) == isinstance(inner.ops[0], ast.Eq)


def _script_calls(tree: ast.AST, name: str) -> list[ast.Call]:
    return [c for c in ast.walk(tree) if isinstance(c, ast.Call)
            and ((isinstance(c.func, ast.Name) and c.func.id == name)
                 or (isinstance(c.func, ast.Attribute) and c.func.attr == name))]


def local_zero(project: Any, script: Any, idx: Any) -> Optional[tuple[str, int, str, Optional[str]]]:
    """(display path, line, the class's name, optimizer class or None) of the one ZeRO call a
    local class the script builds runs; None when not decided (module docstring)."""
    from preflight.adapters.pytorch_local import _imported_up
    from preflight.adapters.taken_arms import taken_tree

    from preflight.sources import read_text_limited

    if script.source.path is None or script.tree is None:
        return None
    root = Path(str(project.root)) if project.root else None
    tree = taken_tree(idx, script.tree)
    found: list[tuple[Path, int, ast.ClassDef, Optional[str]]] = []
    for path in _imported_up(tree, Path(str(script.source.path)).resolve().parent, root):
        try:
            if path.stat().st_size > _MAX_BYTES \
                    or "ZeroRedundancyOptimizer" not in read_text_limited(path, _MAX_BYTES, errors="replace"):
                continue
            module = parse_file(path)
        except (OSError, SyntaxError, ValueError):
            continue
        imports = import_names(nodes_of(module))
        for klass in (n for n in ast.walk(module) if isinstance(n, ast.ClassDef)):
            init = next((f for f in klass.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
            if init is None:
                continue
            calls = [c for c in ast.walk(init) if isinstance(c, ast.Call)]
            zero = [c for c in calls if _qualified(dotted_name(c.func), imports) in _ZERO]
            if not zero or not any(_qualified(dotted_name(c.func), imports) in _DDP for c in calls):
                continue
            built = _script_calls(tree, klass.name)
            if len(built) != 1:
                return None
            params = _param_values(init, built[0], idx)
            if params is None:
                return None
            for call in zero:
                guards = _guards(init.body, call)
                if guards is None:
                    return None
                taken = [_test_value(t, params) for t, _ in guards]
                if any(v is None for v in taken):
                    return None
                if all(v == in_body for v, (_, in_body) in zip(taken, guards)):
                    given = next((k.value for k in call.keywords if k.arg == "optimizer_class"), None)
                    written = dotted_name(given) if given is not None else None
                    found.append((path, call.lineno, klass, written and _qualified(written, imports)))
    if len(found) != 1:
        return None
    path, line, klass, qualified = found[0]
    shown = os.path.relpath(path, root) if root is not None else path.name
    return shown, line, klass.name, _optimizer(qualified)


def _optimizer(qualified: Optional[str]) -> Optional[str]:
    from preflight.adapters.pytorch_pass import _OPTIMIZER_CLASS

    if not qualified:
        return None
    cls = qualified.rsplit(".", 1)[-1]
    if qualified.startswith("torch.optim.") or _OPTIMIZER_CLASS.fullmatch(cls) or cls in _MORE:
        return cls
    return None
