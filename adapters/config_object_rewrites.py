"""A key the code rewrites from known values keeps a known value (read by
:mod:`preflight.adapters.config_object_flow`'s invalidation; nothing is imported or executed).

zhouhaoyi/Informer2020 @ 29f2a73 ``main_informer.py:70-86``: a module-level table ``data_parser = {'ETTh1':
{'data': 'ETTh1.csv', 'T': 'OT', 'M': [7, 7, 7], ...}, ...}``, then ``data_info = data_parser[args.data]`` and
``args.enc_in, args.dec_in, args.c_out = data_info[args.features]`` (7, 7, 7 for ``--data ETTh1``, features
``M``), and ``args.freq = args.freq[-1:]``. Without this the keys are dropped as unknown, and every size the
model takes from them with them.

The value is worked out from: literals (a dict, list or tuple literal through ``literal_eval``), the
configuration's values, a name bound once in the function (or module) around the write, a subscript by a
known key or index, a slice with literal bounds, and integer arithmetic (``+``, ``-``, ``*``, ``//``) on
known integers. Anything else (a call, true division, a name bound twice, a missing key) is unknown, as before.

jeonsworld/ViT-pytorch @ 460a162 ``train.py:147``: ``args.train_batch_size = args.train_batch_size //
args.gradient_accumulation_steps`` before ``get_loader(args)`` builds the training loader (the shape of the
BERT-era ``run_glue.py`` scripts): the loader's batch is the quotient (512 // 1), not unknown.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

_MISSING = object()
_INT_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)


def _one_binding(nodes: list[ast.AST], name: str) -> Optional[ast.expr]:
    bound = [n for n in nodes if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.With))
             and any(isinstance(t, ast.Name) and t.id == name for t in
                     (n.targets if isinstance(n, ast.Assign) else
                      [n.target] if isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For)) else
                      [i.optional_vars for i in n.items]))]
    if len(bound) != 1 or not isinstance(bound[0], ast.Assign) or len(bound[0].targets) != 1:
        return None
    return bound[0].value


def _value(node: ast.AST, reader: Any, nodes: list[ast.AST], depth: int = 0) -> Any:
    if depth > 8:
        return _MISSING
    if isinstance(node, (ast.Dict, ast.List, ast.Tuple, ast.Constant, ast.UnaryOp)):
        try:
            return ast.literal_eval(node)
        except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
            return _MISSING
    if isinstance(node, (ast.Attribute, ast.Name)):
        got = reader.ev(node)
        if got is not None and got.path is not None and not isinstance(got.value, dict):
            return got.value
        if isinstance(node, ast.Name):
            bound = _one_binding(nodes, node.id)
            return _MISSING if bound is None else _value(bound, reader, nodes, depth + 1)
        return _MISSING
    if isinstance(node, ast.BinOp) and isinstance(node.op, _INT_OPS):
        left = _value(node.left, reader, nodes, depth + 1)
        right = _value(node.right, reader, nodes, depth + 1)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (left, right)):
            return _MISSING
        if isinstance(node.op, ast.FloorDiv):
            return _MISSING if right == 0 else left // right
        return left + right if isinstance(node.op, ast.Add) else \
            left - right if isinstance(node.op, ast.Sub) else left * right
    if isinstance(node, ast.Subscript):
        owner = _value(node.value, reader, nodes, depth + 1)
        if owner is _MISSING:
            return _MISSING
        if isinstance(node.slice, ast.Slice):
            parts = [_value(p, reader, nodes, depth + 1) if p is not None else None
                     for p in (node.slice.lower, node.slice.upper, node.slice.step)]
            if any(p is _MISSING or not (p is None or (isinstance(p, int) and not isinstance(p, bool)))
                   for p in parts) or not isinstance(owner, (str, list, tuple)):
                return _MISSING
            return owner[slice(*parts)]
        key = _value(node.slice, reader, nodes, depth + 1)
        if isinstance(owner, dict) and isinstance(key, (str, int)) and not isinstance(key, bool):
            return owner.get(key, _MISSING)
        if isinstance(owner, (list, tuple)) and isinstance(key, int) and not isinstance(key, bool) \
                and -len(owner) <= key < len(owner):
            return owner[key]
        return _MISSING
    return _MISSING


def _member(test: ast.AST, reader: Any, nodes: list[ast.AST]) -> Optional[bool]:
    """``x in table`` / ``x in table.keys()`` (``not in``) with ``table`` a dict literal bound once."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.In, ast.NotIn))):
        return None
    right = test.comparators[0]
    if isinstance(right, ast.Call) and isinstance(right.func, ast.Attribute) and right.func.attr == "keys" \
            and not right.args and not right.keywords:
        right = right.func.value
    table = _value(right, reader, nodes)
    key = _value(test.left, reader, nodes)
    if not isinstance(table, dict) or key is _MISSING or isinstance(key, (dict, list)):
        return None
    return (key in table) == isinstance(test.ops[0], ast.In)


def runs_decided(node: ast.AST, fn: Any, reader: Any, nodes: list[ast.AST]) -> bool:
    """Every ``if`` around ``node`` in ``fn`` is decided to run it (by the reader's test, or a membership in
    a literal table: Informer ``if args.data in data_parser.keys():``)."""
    parents = {id(c): n for n in [fn, *nodes] for c in ast.iter_child_nodes(n)}
    child, parent = node, parents.get(id(node))
    while parent is not None:
        if isinstance(parent, (ast.For, ast.While, ast.Try)) and child is not getattr(parent, "iter", None):
            return False  # in a loop or a try: may run any number of times, or not at all
        if isinstance(parent, ast.If) and child is not parent.test:
            decided = _member(parent.test, reader, nodes)
            if decided is None:
                decided = reader.test(parent.test)
            if decided is None or decided != any(child is s for s in parent.body):
                return False
        child, parent = parent, parents.get(id(parent))
    return True


def rewritten(value: ast.AST, target: ast.AST, element: ast.AST, reader: Any, nodes: list[ast.AST]) -> Any:
    """The value ``element`` (``target`` itself, or one item of a tuple ``target``) gets from ``value``;
    ``None`` when it is not known (so the key is dropped as before)."""
    got = _value(value, reader, nodes)
    if got is _MISSING or isinstance(got, dict):
        return None
    if isinstance(target, (ast.Tuple, ast.List)):
        if not isinstance(got, (list, tuple)) or len(got) != len(target.elts):
            return None
        got = got[next(i for i, e in enumerate(target.elts) if e is element)]
    return None if got is None or isinstance(got, dict) else got


class _Val:
    __slots__ = ("path", "value")

    def __init__(self, value: Any, path: tuple) -> None:
        self.value, self.path = value, path


class _LocalReader:
    """The roots' objects (``local``: name -> tree or parsed options) read as the flow's reader reads them.
    An option the script rewrites is unknown to the parsed options (the index leaves it undecided); read by the
    one statement that rewrites it (no store of it on another line), it is the launch line's value or the
    declared default."""

    def __init__(self, local: dict[str, Any], nodes: list[ast.AST], line: int) -> None:
        self.local, self.nodes, self.line = local, nodes, line

    def ev(self, node: ast.AST) -> Optional[_Val]:
        from preflight.adapters.config_object import Leaf, Namespace, lookup

        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not (isinstance(node, ast.Name) and node.id in self.local and parts):
            return None
        var, path = node.id, tuple(reversed(parts))
        got = lookup(self.local[var], path)
        if isinstance(got, Leaf):
            return _Val(got.value, (var, *path))
        owner = self.local[var]
        if isinstance(owner, Namespace) and owner.raw is not None and len(path) == 1 \
                and owner.memo.get(path[0]) is None and not self._written_elsewhere(var, path[0]):
            raw = owner.raw(path[0])
            if raw is not None:
                return _Val(raw.value, (var, *path))
        return None

    def _written_elsewhere(self, var: str, attr: str) -> bool:
        """A store of ``var.attr`` on another line than the rewrite read now: the raw value may not be the one
        read here (before a later write it is, but what that write sets is then unknown too; tests/
        test_jobs27_shapes.py ``args.global_batch_size = args.batch_size`` before ``args.batch_size = ...``)."""
        return any(isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store) and n.attr == attr
                   and isinstance(n.value, ast.Name) and n.value.id == var and getattr(n, "lineno", 0) != self.line
                   for n in self.nodes)


class RawFallback:
    """The flow's reader of a function, and for an option it cannot read because the script rewrites it
    (``args.train_batch_size = args.train_batch_size // args.gradient_accumulation_steps`` in ViT-pytorch's
    ``train()``): the launch line's value or the declared default, when the statement read now is the only
    store of that option in the project's code (as :class:`_LocalReader` reads the roots' rewrites)."""

    def __init__(self, reader: Any, combined: Any, nodes: list[ast.AST], element: ast.AST) -> None:
        self.reader, self.combined, self.nodes, self.element = reader, combined, nodes, element

    def test(self, node: ast.AST) -> Any:
        return self.reader.test(node)

    def ev(self, node: ast.AST) -> Any:
        from preflight.adapters.config_object import Namespace, lookup

        got = self.reader.ev(node)
        if got is not None or not isinstance(node, ast.Attribute):
            return got
        path = self.reader.chain(node)
        if path is None or len(path) < 2:
            return None
        owner = lookup(self.combined, path[:-1])
        if not (isinstance(owner, Namespace) and owner.raw is not None and owner.memo.get(path[-1]) is None):
            return None
        if any(isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store) and n.attr == path[-1]
               and n is not self.element for n in self.nodes):
            return None  # set on another line too: which value this read sees is not known
        raw = owner.raw(path[-1])
        return None if raw is None else _Val(raw.value, path)


def option_rewrite(flow: Any, fn: Any, node: ast.AST) -> None:
    """``args.train_batch_size = args.train_batch_size // args.gradient_accumulation_steps`` in a function that
    receives the parsed options as a parameter (ViT-pytorch ``train(args, model)``, ``train.py:147``), on a path
    the options decide to run: the option's value from then on is the rewrite's, worked out from the launch line's
    values or the declared defaults (:class:`RawFallback`); left unknown otherwise."""
    from preflight.adapters.config_object import Leaf, Namespace, lookup

    if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Attribute)
            and isinstance(node.targets[0].value, ast.Name)):
        return
    target = node.targets[0]
    judge = flow._judge(fn)
    path = judge.chain(target)
    if path is None or len(path) != 2:
        return
    owner = lookup(flow.combined, path[:-1])
    if not (isinstance(owner, Namespace) and owner.raw is not None and owner.get(path[-1]) is None):
        return
    nodes = flow.own_of(fn)
    if not runs_decided(node, fn, judge, nodes):
        return
    every = [n for _, f in flow.fns for n in flow.own_of(f)]
    got = rewritten(node.value, target, target, RawFallback(judge, flow.combined, every, target), nodes)
    if got is not None and not isinstance(got, (list, tuple)):
        owner.memo[path[-1]] = Leaf(got, flow.shown_of.get(id(fn), ""), node.lineno, "assigned")


def root_rewrite(value: ast.AST, target: ast.AST, local: dict[str, Any], nodes: list[ast.AST],
                 shown: str, line: int) -> Any:
    """``args.freq = args.freq[-1:]`` in the straight-line code that builds the objects: the Leaf it sets,
    or None."""
    from preflight.adapters.config_object import Leaf

    got = rewritten(value, target, target, _LocalReader(local, nodes, line), nodes)
    return None if got is None else Leaf(got, shown, line, "assigned")


def raw_options(project: Any, script: Any) -> Any:
    """``name`` -> the job's option as the launch line or the declaration gives it, before any rewrite."""
    from preflight.adapters.cliargs import option_resolver

    return option_resolver(project, script)
