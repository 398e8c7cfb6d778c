"""A dict of keyword arguments built from a ``fire.Fire`` entry's own parameters, as a configuration object.

lucidrains/lightweight-gan @ efbec45 ``lightweight_gan/cli.py:78-155,186,194-195``::

    def train_from_folder(data='./data', ..., batch_size=10, gradient_accumulate_every=4, ..., amp=False, ...):
        num_image_tiles = default(num_image_tiles, 4 if image_size > 512 else 8)
        model_args = dict(name=name, ..., batch_size=batch_size,
                          gradient_accumulate_every=gradient_accumulate_every, ..., amp=amp, ...)
        ...
        run_training(0, 1, model_args, data, ...)     # then Trainer(**model_args, ...) in lightweight_gan.py

    def main():
        fire.Fire(train_from_folder)

Each parameter of the function fire runs is the launch line's ``--name value`` (``-`` read as ``_``), else its
declared default: :class:`preflight.adapters.config_object.Namespace` resolves them. A keyword of
``dict(...)`` (or a ``{"k": v}`` entry) whose value is such a parameter, never bound again in the function,
is that option's value; the dict then flows like any config object
(:mod:`preflight.adapters.config_object_reads`: ``f(**model_args)`` into a project class's ``__init__``).
A parameter the function rebinds (``num_image_tiles = default(...)``), ``*args``/``**kwargs``, or a
function fire does not run directly leaves the key unknown. Nothing is imported or executed.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters.config_object import Leaf, Namespace, Tree

from preflight.analysis.syntax import own_nodes_in_order


def fire_entry(fn: Any, script_tree: ast.Module) -> bool:
    """``fn`` is the module-level function ``fire.Fire(fn)`` runs (in the script)."""
    if not isinstance(fn, ast.FunctionDef) or fn not in script_tree.body:
        return False
    for node in ast.walk(script_tree):
        if isinstance(node, ast.Call) and len(node.args) >= 1 and isinstance(node.args[0], ast.Name) \
                and node.args[0].id == fn.name:
            f = node.func
            if (isinstance(f, ast.Attribute) and f.attr == "Fire" and isinstance(f.value, ast.Name)
                    and f.value.id == "fire") or (isinstance(f, ast.Name) and f.id == "Fire"):
                return True
    return False


def fire_dict(value: ast.AST, fn: ast.FunctionDef, namespace: Optional[Namespace], tree: Any) -> Any:
    """``tree`` (what the builder read of ``value``) with each key whose value is one of the fire entry's
    parameters (not bound again in it) set to that option's value; ``tree`` itself when none is."""
    if namespace is None:
        return tree
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict" \
            and not value.args:
        pairs = [(k.arg, k.value) for k in value.keywords]
    elif isinstance(value, ast.Dict):
        pairs = [(k.value if isinstance(k, ast.Constant) and isinstance(k.value, str) else None, v)
                 for k, v in zip(value.keys, value.values)]
        if any(k is None for k, _ in pairs):
            return tree  # ``**other`` or a computed key: which keys it holds is not known
    else:
        return tree
    if any(k is None for k, _ in pairs):
        return tree
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    stored = {n.id for n in own_nodes_in_order(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))}
    out: Tree = dict(tree) if isinstance(tree, dict) else {}
    added = False
    for key, node in pairs:
        if isinstance(node, ast.Name) and node.id in params and node.id not in stored:
            got = namespace.get(node.id)
            if isinstance(got, Leaf):
                out[str(key)] = got
                added = True
    return out if added else tree
