"""A local bound in each arm of an ``if/elif/else`` over the function's split parameter, read for the
training split (read by :mod:`preflight.adapters.config_object_reads`; nothing is imported or executed).

zhouhaoyi/Informer2020 @ 29f2a73 ``exp/exp_informer.py:64-101``: ``def _get_data(self, flag):`` with
``if flag == 'test': ...; batch_size = args.batch_size`` / ``elif flag == 'pred': ...; batch_size = 1`` /
``else: ...; batch_size = args.batch_size``, then ``DataLoader(data_set, batch_size=batch_size, ...)``;
``train()`` calls ``self._get_data(flag = 'train')`` (and ``'val'``, ``'test'`` for the other loaders).
The loader of the training split takes the arm that ``flag == 'train'`` runs: ``args.batch_size``.

Read only when every binding of the name in the function is in one arm of one chain whose tests all
compare one parameter with string literals (``P == 'x'``, ``P in ('x', 'y')``), each arm binding it
once; the calls of the function in the project's modules pass that parameter as a string literal; and
exactly one literal passed names the training split (contains ``train``). Anything else: not read.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

_MAX_CALLS = 2000


def _binds(stmts: list[ast.stmt], name: str) -> list[ast.Assign]:
    return [s for s in stmts if isinstance(s, ast.Assign) and len(s.targets) == 1
            and isinstance(s.targets[0], ast.Name) and s.targets[0].id == name]


def _chain(node: ast.If) -> Optional[list[tuple[Optional[ast.expr], list[ast.stmt]]]]:
    """(test, body) of each arm; the last test None for a final ``else``."""
    arms: list[tuple[Optional[ast.expr], list[ast.stmt]]] = []
    here: ast.If = node
    while True:
        arms.append((here.test, here.body))
        if len(here.orelse) == 1 and isinstance(here.orelse[0], ast.If):
            here = here.orelse[0]
            continue
        if here.orelse:
            arms.append((None, here.orelse))
        return arms


def _split_test(test: ast.expr, param: str) -> Optional[set[str]]:
    """The literals ``param == 'x'`` / ``param in ('x', 'y')`` accepts; None for another test."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name)
            and test.left.id == param):
        return None
    right = test.comparators[0]
    if isinstance(test.ops[0], ast.Eq) and isinstance(right, ast.Constant) and isinstance(right.value, str):
        return {right.value}
    if isinstance(test.ops[0], ast.In) and isinstance(right, (ast.Tuple, ast.List, ast.Set)) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in right.elts):
        return {e.value for e in right.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return None


def _passed(trees: list[ast.AST], fn: ast.FunctionDef, param: str, method: bool,
            kind: type = str) -> Optional[set[Any]]:
    """The literals (of ``kind``) the project's calls of ``fn`` pass for ``param``; None when one passes
    something else."""
    positional = [a.arg for a in fn.args.args][1 if method else 0:]
    index = positional.index(param) if param in positional else None
    out: set[Any] = set()
    seen = 0
    for tree in trees:
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            if method and not (isinstance(f, ast.Attribute) and f.attr == fn.name
                               and isinstance(f.value, ast.Name) and f.value.id == "self"):
                continue
            if not method and not (isinstance(f, ast.Name) and f.id == fn.name):
                continue
            seen += 1
            if seen > _MAX_CALLS:
                return None
            given = next((k.value for k in node.keywords if k.arg == param), None)
            if given is None and index is not None and index < len(node.args) \
                    and not any(isinstance(a, ast.Starred) for a in node.args[:index + 1]):
                given = node.args[index]
            if not (isinstance(given, ast.Constant) and isinstance(given.value, kind)):
                return None
            out.add(given.value)
    return out


def training_arm(fn: Any, name: str, trees: list[ast.AST], method: bool) -> Optional[ast.expr]:
    """The value ``name`` is bound to in the arm the training split's call runs, or None."""
    if not isinstance(fn, ast.FunctionDef):
        return None
    params = [a.arg for a in fn.args.args][1 if method else 0:]
    chains = [n for n in ast.walk(fn) if isinstance(n, ast.If)]
    bound = [n for n in ast.walk(fn) if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))
             and any(isinstance(t, ast.Name) and t.id == name
                     for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))]
    for head in chains:
        arms = _chain(head)
        if arms is None or len(arms) < 2:
            continue
        per_arm = [_binds(body, name) for _, body in arms]
        if any(len(b) != 1 for b in per_arm) or sum(len(b) for b in per_arm) != len(bound):
            continue
        tests = [t for t, _ in arms if t is not None]
        param = tests[0].left.id if tests and isinstance(tests[0], ast.Compare) \
            and isinstance(tests[0].left, ast.Name) else None
        if param is None or param not in params:
            continue
        accepted = [_split_test(t, param) for t in tests]
        if any(a is None for a in accepted):
            continue
        passed = _passed(trees, fn, param, method)
        train = {v for v in passed or () if "train" in v.lower()}
        if len(train) != 1:
            return None
        value = next(iter(train))
        for (test, _), binds in zip(arms, per_arm):
            if test is None or value in (_split_test(test, param) or set()):
                return binds[0].value
        return None
    return None


def training_ifexp(fn: Any, value: ast.AST, trees: list[ast.AST], method: bool) -> Optional[ast.expr]:
    """``A if is_train else B`` over a boolean split parameter (OFA-Sys/Chinese-CLIP @ 31863c7
    ``cn_clip/training/data.py:140,157,172``: ``get_dataset(args, is_train, ...)`` with ``batch_size =
    args.batch_size if is_train else args.valid_batch_size`` and ``num_workers=args.num_workers if is_train else
    args.valid_num_workers``, called with ``is_train=True`` and ``is_train=False`` from ``get_data``): the arm
    the call for the training split takes. Read only when the parameter's name says train (``is_train``,
    ``train``, ``training``), every call of the function in the project's modules passes it as a literal
    ``True``/``False`` and one passes ``True``; ``not P`` swaps the arms. Anything else: None."""
    if not isinstance(fn, ast.FunctionDef) or not isinstance(value, ast.IfExp):
        return None
    test, swap = value.test, False
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, swap = test.operand, True
    params = [a.arg for a in fn.args.args][1 if method else 0:]
    if not (isinstance(test, ast.Name) and test.id in params and "train" in test.id.lower()):
        return None
    passed = _passed(trees, fn, test.id, method, bool)
    if not passed or True not in passed:
        return None
    return value.orelse if swap else value.body
