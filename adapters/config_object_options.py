"""An ``if`` over the parsed options decided from their values, for the config-object roots
(:mod:`preflight.adapters.config_object_roots`).

The override idiom: a project config object with literal defaults, each field replaced only when the
option is given (huggingface/nanoVLM @ the benchmark's commit ``train.py:641-667``: ``parser.add_argument(
'--compile', type=bool, ...)`` without a default, ``train_cfg = config.TrainConfig()`` and ``if args.compile
is not None: train_cfg.compile = args.compile``; ``models/config.py:73`` ``compile: bool = False``; the
launch line gives no ``--compile``, so argparse's None leaves the default). Decided: ``ns.x is None`` /
``is not None`` / ``is True`` / ``is False``, ``ns.x`` and ``not ns.x`` for a bool or None value, or
``ns.x == "text"``/``!= "text"`` for a str value, where ``ns`` is the parsed options and ``x``'s value is
known (the launch line, the declared default, or argparse's None for an option declared without a
default and not given). Anything else: None (not decided).
"""

from __future__ import annotations

import ast
from typing import Any, Optional

_NOT_KNOWN = object()


def option_leaf(node: ast.AST, local: dict) -> Any:
    """The Leaf of ``ns.x`` (``ns`` the parsed options) when its value is known, else None."""
    from preflight.adapters.config_object import Leaf, Namespace

    if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
        return None
    ns = local.get(node.value.id)
    if not isinstance(ns, Namespace):
        return None
    got = ns.get(node.attr)
    if got is None and ns.unset is not None:
        got = ns.unset(node.attr)
    return got if isinstance(got, Leaf) else None


def _option(node: ast.AST, local: dict) -> Any:
    got = option_leaf(node, local)
    return _NOT_KNOWN if got is None else got.value


def decided_by_options(test: ast.AST, local: dict) -> Optional[bool]:
    """Whether the ``if`` takes its body, when the options decide it; None otherwise."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = decided_by_options(test.operand, local)
        return None if inner is None else not inner
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.IsNot)) \
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value in (None, True, False):
        value = _option(test.left, local)
        if value is _NOT_KNOWN or (test.comparators[0].value is not None and not isinstance(value, (bool, type(None)))):
            return None  # ``args.flag is True`` with the launch line's text: not decided here
        same = value is test.comparators[0].value
        return same if isinstance(test.ops[0], ast.Is) else not same
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq)) \
            and isinstance(test.comparators[0], ast.Constant) and isinstance(test.comparators[0].value, str):
        # ``if args.config_file != "":`` (michuanhaohao/reid-strong-baseline tools/train.py:130 @ 3da7e6f);
        # a slice of it, ``if args.config[-5:] == ".yaml":`` (MooreThreads/Moore-AnimateAnyone
        # train_stage_1.py:466-471 @ the benchmark's commit, the YAML arm against a ``.py`` one)
        value = _sliced(test.left, local)
        if not isinstance(value, str):
            return None
        same = value == test.comparators[0].value
        return same if isinstance(test.ops[0], ast.Eq) else not same
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) \
            and test.func.attr in ("endswith", "startswith") and len(test.args) == 1 and not test.keywords:
        # ``if args.config.endswith(".yaml"):``
        text = _option(test.func.value, local)
        arg = test.args[0]
        ends = [e.value for e in (arg.elts if isinstance(arg, ast.Tuple) else [arg])
                if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        if not isinstance(text, str) or len(ends) != (len(arg.elts) if isinstance(arg, ast.Tuple) else 1):
            return None
        return text.endswith(tuple(ends)) if test.func.attr == "endswith" else text.startswith(tuple(ends))
    value = _option(test, local)
    if value is None or isinstance(value, bool):
        return bool(value)
    return None


def _sliced(node: ast.AST, local: dict) -> Any:
    """``ns.x`` or ``ns.x[a:b]`` (literal bounds) of a known str option."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice) and node.slice.step is None:
        text = _option(node.value, local)
        bounds: list[Optional[int]] = []
        for b in (node.slice.lower, node.slice.upper):
            if b is None:
                bounds.append(None)
            elif isinstance(b, ast.Constant) and isinstance(b.value, int) and not isinstance(b.value, bool):
                bounds.append(b.value)
            elif isinstance(b, ast.UnaryOp) and isinstance(b.op, ast.USub) and isinstance(b.operand, ast.Constant) \
                    and isinstance(b.operand.value, int):
                bounds.append(-b.operand.value)
            else:
                return _NOT_KNOWN
        return text[bounds[0]:bounds[1]] if isinstance(text, str) else _NOT_KNOWN
    return _option(node, local)
