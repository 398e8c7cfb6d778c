"""A DDP wrapper built only when more than one process runs.

facebookresearch/demucs @ e976d93 ``demucs/distrib.py:44-51``::

    def wrap(model):
        if world_size == 1:
            return model
        else:
            return DistributedDataParallel(model, ...)

(the same shape as ``if world_size > 1: model = DDP(model)`` and ``if dist.get_world_size() == 1:
return model``). The wrapper is built in a local module, so its presence alone says DDP; when the
job runs one process (``dora run`` without ``-d``, ``python train.py``) the branch that builds it
is not taken and the model trains unwrapped.

:func:`single_process_skips` says whether the construction at a line sits where a world size of 1
never reaches: after ``if WS == 1: return`` (``<= 1``, ``< 2``) in the same function, in the
``else`` of such a test, or under ``if WS > 1`` (``!= 1``, ``>= 2``). ``WS`` is a name or attribute
spelled ``world_size`` / ``world`` / ``num_gpus`` / ``ngpus`` (``self.world_size``,
``distrib.world_size``) or a ``get_world_size()`` call. Also under a bare flag ``if self.is_ddp:``
(``use_ddp``, ``is_distributed``), the flag a one-process run leaves false: lucidrains/lightweight-gan @
efbec45 ``lightweight_gan/lightweight_gan.py:1150-1155`` (``is_ddp = world_size > 1`` in ``cli.py:40``),
MIC-DKFZ/nnUNet ``nnunetv2/training/nnUNetTrainer/nnUNetTrainer.py`` (``self.is_ddp = dist.is_available() and
dist.is_initialized()``, ``if self.is_ddp: self.network = DDP(...)``). Anything else: False (not decided).
"""

from __future__ import annotations

import ast
import re
from typing import Callable, Optional

_MULTI_FLAG = re.compile(r"^(?:is_ddp|use_ddp|is_distributed)$", re.I)
_WS_NAME = re.compile(r"^(?:world_size|world|num_gpus|ngpus|n_gpus|num_processes)$", re.I)


def _is_ws(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return bool(_WS_NAME.match(node.id))
    if isinstance(node, ast.Attribute):
        return bool(_WS_NAME.match(node.attr))
    if isinstance(node, ast.Call):
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        return name == "get_world_size" and not node.args
    return False


def _is_multi_flag(node: ast.expr) -> bool:
    """A bare flag spelled ``is_ddp``/``use_ddp``/``is_distributed`` (a name or ``self.``-attribute)."""
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return bool(_MULTI_FLAG.match(name))


def _single(test: ast.expr) -> Optional[bool]:
    """True: the test holds for one process (``WS == 1``, ``WS <= 1``, ``WS < 2``); False: it
    fails for one process (``WS > 1``, ``WS != 1``, ``WS >= 2``); None: not such a test."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _single(test.operand) if _is_multi_flag(test.operand) else None
        return None if inner is None else not inner
    if _is_multi_flag(test):
        return False  # ``if self.is_ddp:``: set only when more than one process runs
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and len(test.comparators) == 1):
        return None
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if _is_ws(right) and isinstance(left, ast.Constant):
        left, right = right, left
        flip = {ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.GtE: ast.LtE}
        op = flip.get(type(op), type(op))()
    if not (_is_ws(left) and isinstance(right, ast.Constant) and isinstance(right.value, int)
            and not isinstance(right.value, bool)):
        return None
    n = right.value
    if isinstance(op, (ast.Eq, ast.NotEq)) and n == 1:
        return isinstance(op, ast.Eq)
    if (isinstance(op, ast.LtE) and n == 1) or (isinstance(op, ast.Lt) and n == 2):
        return True
    if (isinstance(op, ast.Gt) and n == 1) or (isinstance(op, ast.GtE) and n == 2):
        return False
    return None


def _exits(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], (ast.Return, ast.Raise))


def _contains(stmts: list[ast.stmt], line: int) -> bool:
    return any(s.lineno <= line <= (s.end_lineno or s.lineno) for s in stmts)


def _skips(stmts: list[ast.stmt], line: int, single: Callable[[ast.expr], Optional[bool]] = _single) -> bool:
    """Whether ``line`` in ``stmts`` is never reached when every test ``single`` says True of holds
    (and every test it says False of fails): inside a branch not taken, or after ``if T: ...; return``."""
    for stmt in stmts:
        if stmt.lineno > line:
            return False
        inside = stmt.lineno <= line <= (stmt.end_lineno or stmt.lineno)
        if isinstance(stmt, ast.If):
            holds = single(stmt.test)
            if inside:
                if _contains(stmt.body, line):
                    return holds is False or _skips(stmt.body, line, single)
                return holds is True or _skips(stmt.orelse, line, single)
            if holds is True and _exits(stmt.body):
                return True  # ``if world_size == 1: return model`` before the wrapper
            continue
        if inside:
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, field, None)
                if isinstance(inner, list) and _contains(inner, line):
                    return _skips(inner, line, single)
            for handler in getattr(stmt, "handlers", []) or []:
                if _contains(handler.body, line):
                    return _skips(handler.body, line, single)
            return False
    return False


def single_process_skips(tree: ast.AST, line: int) -> bool:
    """Whether the statement at ``line`` is never reached by a single process (see the module)."""
    if not isinstance(tree, ast.Module):
        return False
    return _skips(tree.body, line)


def skipped_in(fn: ast.AST, line: int, truth: Callable[[ast.expr], Optional[bool]]) -> bool:
    """Whether the statement at ``line`` of function ``fn`` is never reached, the ``if`` tests decided by
    ``truth`` (True/False, None: not known): after ``if T: ...; return`` with T true, or in a branch not
    taken (the spawn of lucidrains/lightweight-gan @ efbec45 ``lightweight_gan/cli.py:183-192``, after
    ``if world_size == 1 or not multi_gpus: run_training(0, 1, ...); return``)."""
    return isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and _skips(fn.body, line, truth)
