"""Which of two model-named options names the model: a run's tag is not its model.

A job's parser may declare two options whose names both say "model": thuml/Time-Series-Library
@ 4e938a1 ``run.py:21-22`` declares ``--model_id`` ("model id") and ``--model`` ("model name"), and its
launch scripts give ``--model_id ETTh1_96_96 --model TimesNet``. Read by name alone, ``model_id`` (the
Hugging Face spelling of a Hub id) wins; but that value is the experiment's tag: the project only
formats it into the run's name (``run.py:206-208`` ``'{}_{}_...'.format(args.task_name, args.model_id,
...)``, ``utils/print_args.py:4`` an f-string), while ``--model`` picks the class
(``run.py:228`` ``args.model == 'MambaSingleLayer'``, ``exp/exp_long_term_forecasting.py:23``
``self.model_dict[self.args.model]``).

Rule (only between two bare names, neither a ``owner/name`` Hub id nor a path): the option read first
is passed over for another model-named option that also has a value when the code read (the script
and the local modules it imports, :func:`preflight.adapters.pytorch_local._imported_up`) uses the
first ONLY to build strings (f-strings, ``str.format``, ``%``, ``print``/logging calls) or to bind
plain names, never to choose anything, and uses the other to choose (a dict or list key
``table[args.model]``, a comparison with a string literal, ``getattr``/``import_module``). Without
that evidence on both sides the order of the names stands.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

_MAX_MODULES = 60
_MAX_BYTES = 500_000
_LOG_CALLS = ("print", "info", "debug", "warning", "log", "write", "add_text", "set_description")
_DISPATCH_CALLS = ("getattr", "import_module", "__import__")


def _kinds(trees: list[ast.AST], name: str) -> tuple[int, int, int]:
    """(reads that build strings or bind a name, reads that choose, other reads) of ``<x>.name``."""
    label = choose = other = 0
    for tree in trees:
        parents: dict[int, ast.AST] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                parents[id(child)] = node
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and node.attr == name and isinstance(node.ctx, ast.Load)):
                continue
            kind = _kind(node, parents)
            if kind == "label":
                label += 1
            elif kind == "choose":
                choose += 1
            else:
                other += 1
    return label, choose, other


def _kind(node: ast.AST, parents: dict[int, ast.AST]) -> str:
    parent = parents.get(id(node))
    if isinstance(parent, ast.Subscript) and parent.slice is node:
        return "choose"
    if isinstance(parent, ast.Compare) and any(isinstance(c, ast.Constant) and isinstance(c.value, str)
                                               for c in [parent.left, *parent.comparators]):
        return "choose"
    if isinstance(parent, ast.Call) and node in parent.args:
        func = parent.func
        last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if last in _DISPATCH_CALLS:
            return "choose"
    if isinstance(parent, (ast.Assign, ast.AnnAssign)) and all(
            isinstance(t, ast.Name) for t in (parent.targets if isinstance(parent, ast.Assign) else [parent.target])):
        return "label"  # bound to a plain name (``dataset_name = self.args.model_id``): followed no further
    up: Optional[ast.AST] = node
    while up is not None and not isinstance(up, ast.stmt):
        above = parents.get(id(up))
        if isinstance(up, ast.JoinedStr):
            return "label"
        if isinstance(above, ast.BinOp) and isinstance(above.op, ast.Mod) and isinstance(above.left, ast.Constant) \
                and isinstance(above.left.value, str):
            return "label"
        if isinstance(above, ast.Call) and up is not above.func:
            func = above.func
            last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if last == "format" or last in _LOG_CALLS:
                return "label"
            return "other"  # handed to some other call: it may pick something there
        up = above
    return "other"


def _trees(project: Any, script: Any) -> list[ast.AST]:
    from preflight.adapters.pytorch_local import script_and_imported_trees

    return script_and_imported_trees(project, script, _MAX_MODULES, _MAX_BYTES)


def model_option_over_tag(project: Any, script: Any, found: tuple, others: list[tuple]) -> Optional[tuple]:
    """Of ``others`` (``value()`` answers of the other model-named options that have a value, in
    order), the one that names the model when ``found``'s option is only a tag; else None."""
    if script.tree is None or not others:
        return None
    trees = _trees(project, script)
    label, choose, other = _kinds(trees, found[0])
    if label == 0 or choose or other:
        return None
    for alt in others:
        _label, alt_choose, _other = _kinds(trees, alt[0])
        if alt_choose:
            return alt
    return None
