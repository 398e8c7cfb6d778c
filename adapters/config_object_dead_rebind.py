"""A parameter holding the configuration object that the function rebinds only in branches the object's own
values decide never run: the parameter still holds the object (read by
:mod:`preflight.adapters.config_object_reads`; nothing is imported or executed).

facebookresearch/SlowFast @ 287ec00 ``tools/train_net.py:493,511-515,627-628``: ``def train(cfg):`` ...
``if cfg.MULTIGRID.LONG_CYCLE or cfg.MULTIGRID.SHORT_CYCLE: cfg = multigrid.init_multigrid(cfg)`` and, in the
epoch loop, ``if cfg.MULTIGRID.LONG_CYCLE: cfg, changed = multigrid.update_long_cycle(cfg, cur_epoch)``, both
``False`` in ``slowfast/config/defaults.py`` and not set by the launch line's YAML. One rebinding on a path
not decided (or decided to run) keeps the name rebound, as before.
"""

from __future__ import annotations

import ast
from typing import Any

from preflight.adapters.config_object import Leaf, Tree, lookup


def rebound_only_when_dead(fn: ast.AST, nodes: list[ast.AST], name: str, path: tuple, combined: Tree,
                           builder: Any) -> bool:
    """Every store of ``name`` in ``fn`` (``nodes``: its own nodes) is under an ``if`` the object's values,
    with ``name`` holding ``path``, decide not to take."""
    from preflight.adapters.config_object_reads import _ObjReader

    stores = [n for n in nodes if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)]
    if not stores:
        return False

    def known(p: tuple) -> Any:
        got = lookup(combined, p)
        return got.value if isinstance(got, Leaf) else got

    def null(p: tuple) -> bool:
        got = lookup(combined, p)
        return isinstance(got, Leaf) and got.value is None

    reader = _ObjReader(known, None, "", null, {name: path}, {})
    reader.combined = combined
    reader.builder = builder
    parents = {id(c): n for n in [fn, *nodes] for c in ast.iter_child_nodes(n)}
    for store in stores:
        child: ast.AST = store
        parent = parents.get(id(store))
        dead = False
        while parent is not None and parent is not fn and not dead:
            if isinstance(parent, ast.If) and child is not parent.test:
                decided = _decide(reader, parent.test)
                dead = decided is not None and decided != any(child is s for s in parent.body)
            child, parent = parent, parents.get(id(parent))
        if not dead:
            return False
    return True


def _decide(reader: Any, test: ast.AST) -> Any:
    """``reader.test`` with ``and``/``or`` (one true decides an ``or``, one false an ``and``)."""
    if isinstance(test, ast.BoolOp):
        got = [_decide(reader, v) for v in test.values]
        stop = isinstance(test.op, ast.Or)
        if stop in got:
            return stop
        return None if None in got else not stop
    return reader.test(test)
