"""A Hydra ``trainer:`` node whose ``_target_`` is the project's own subclass of the Lightning ``Trainer``.

ai4co/rl4co @ 7a15396 ``configs/trainer/default.yaml`` (``_target_: rl4co.utils.trainer.RL4COTrainer``,
``precision: "16-mixed"``, ``accelerator: "auto"``), instantiated by ``rl4co/tasks/train.py:50-54``
``hydra.utils.instantiate(cfg.trainer, callbacks=..., logger=...)``; ``rl4co/utils/trainer.py:19-115``::

    class RL4COTrainer(Trainer):                    # from lightning import Trainer
        def __init__(self, accelerator="auto", ..., strategy="auto", devices="auto",
                     precision="16-mixed", ..., **kwargs):
            if auto_configure_ddp and strategy == "auto": ... strategy = DDPStrategy(...)
            super().__init__(accelerator=accelerator, ..., strategy=strategy, devices=devices,
                             precision=precision, ..., **kwargs)

The class is read (never imported) from the project's files, following local base classes to one whose base
is Lightning's ``Trainer`` (``lightning.Trainer``, ``lightning.pytorch.Trainer``, ``pytorch_lightning.Trainer``).
A key of the node is the Lightning ``Trainer``'s own only where the class lets it through unchanged: no
``__init__`` in the local classes, or a parameter handed on as ``super().__init__(key=key)`` and never
rebound (rl4co's ``precision``; not its ``strategy``, which it rewrites), or a key its ``**kwargs`` carries
on to ``super().__init__(**kwargs)`` untouched. Lightning's defaults for keys the node leaves out
(:mod:`preflight.adapters.hydra_trainer_defaults`) hold only for keys the class neither declares nor sets.
Two local ``__init__`` methods in the chain, a mutated ``kwargs`` or a class not found leave the node unread.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, NamedTuple, Optional

from preflight.adapters.import_names import import_names
from preflight.adapters.target_class import FoundClass, _base_class, find_class, target_bases

from preflight.analysis.syntax import dotted_name

_DEPTH = 6


class LocalTrainer(NamedTuple):
    target: str
    has_init: bool
    params: frozenset  # the __init__ parameters of the local class
    passthrough: frozenset  # handed unchanged to super().__init__(name=name), never rebound
    set_by_class: frozenset  # keywords super().__init__ is given some other way
    forwards_kwargs: bool  # **kwargs handed on untouched

    def lets_through(self, key: str) -> bool:
        """Whether the node's ``key`` reaches the Lightning Trainer unchanged."""
        if not self.has_init:
            return True
        if key in self.passthrough:
            return True
        return self.forwards_kwargs and key not in self.params and key not in self.set_by_class

    def lightning_default(self, key: str) -> bool:
        """Whether a ``key`` the node leaves out takes the Lightning Trainer's default."""
        if not self.has_init:
            return True
        return key not in self.params and key not in self.set_by_class and self.forwards_kwargs

    def trusted(self, node: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in node.items() if k == "_target_" or self.lets_through(str(k))}


def _lightning_base(found: FoundClass, base: ast.expr) -> bool:
    from preflight.validate_kinds import target_kind

    written = dotted_name(base) or ""
    head, _, rest = written.partition(".")
    imported = import_names(found.tree.body).get(head)
    full = (imported + (f".{rest}" if rest else "")) if imported else written
    return target_kind(full) == "lightning-trainer"


def _rebound(init: ast.FunctionDef, name: str) -> bool:
    for node in ast.walk(init):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(target)):
                return True
    return False


def _kwargs_touched(init: ast.FunctionDef, name: str) -> bool:
    """``kwargs[...] = ...``, ``kwargs.pop(...)``/``update``/``setdefault``, ``del kwargs[...]`` or a rebinding."""
    for node in ast.walk(init):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == name \
                and isinstance(node.ctx, (ast.Store, ast.Del)):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == name \
                and node.func.attr in ("pop", "update", "setdefault", "clear", "popitem"):
            return True
    return _rebound(init, name)


def _super_init(init: ast.FunctionDef) -> Optional[ast.Call]:
    calls = [c for c in ast.walk(init) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
             and c.func.attr == "__init__" and isinstance(c.func.value, ast.Call)
             and isinstance(c.func.value.func, ast.Name) and c.func.value.func.id == "super"]
    return calls[0] if len(calls) == 1 else None


def local_trainer(root: Optional[Path], script_dir: Path, target: Any) -> Optional[LocalTrainer]:
    """The project's Lightning ``Trainer`` subclass ``target`` names, as read; None when it is not one."""
    if not isinstance(target, str) or "." not in target:
        return None
    from preflight.validate_kinds import target_kind

    if target_kind(target) is not None:
        return None
    bases = target_bases(root, [script_dir])
    found = find_class(target, bases)
    inits: list[ast.FunctionDef] = []
    for depth in range(_DEPTH):
        if found is None:
            return None
        init = next((f for f in found.cls.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
        if init is not None:
            inits.append(init)
        if len(found.cls.bases) != 1:
            return None
        if _lightning_base(found, found.cls.bases[0]):
            break
        found = _base_class(found, found.cls.bases[0], bases, depth)
    else:
        return None
    if len(inits) > 1:
        return None
    if not inits:
        return LocalTrainer(target, False, frozenset(), frozenset(), frozenset(), True)
    init = inits[0]
    call = _super_init(init)
    args = init.args
    vararg = args.vararg.arg if args.vararg is not None else None
    # ``super().__init__(*args, **kwargs)`` (the commonest subclass): Hydra hands the node's keys as keywords,
    # so only the untouched ``*args`` of the method may stand before them
    if call is None or any(not (isinstance(a, ast.Starred) and isinstance(a.value, ast.Name) and a.value.id == vararg)
                           for a in call.args) or (vararg is not None and _rebound(init, vararg)):
        return None
    params = frozenset(a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs][1:])
    passthrough = frozenset(k.arg for k in call.keywords if k.arg and isinstance(k.value, ast.Name)
                            and k.value.id == k.arg and k.arg in params and not _rebound(init, k.arg))
    set_by_class = frozenset(k.arg for k in call.keywords if k.arg and k.arg not in passthrough)
    kwarg = args.kwarg.arg if args.kwarg is not None else None
    forwards = kwarg is not None and any(k.arg is None and isinstance(k.value, ast.Name) and k.value.id == kwarg
                                         for k in call.keywords) and not _kwargs_touched(init, kwarg)
    if any(k.arg is None and not (isinstance(k.value, ast.Name) and k.value.id == kwarg) for k in call.keywords):
        return None  # another mapping splatted: what it sets is not known
    return LocalTrainer(target, True, params, passthrough, set_by_class, forwards)
