"""A module-level hyperparameter object the entry imports from a project module: Rudrabha/Wav2Lip @ the
benchmark's commit ``hparams.py:15-28,32-82`` ``class HParams: def __init__(self, **kwargs): self.data = {}; for
key, value in kwargs.items(): self.data[key] = value`` with ``def __getattr__(self, key): ... return
self.data[key]``, then ``hparams = HParams(num_mels=80, ..., img_size=96, batch_size=16, num_workers=16, ...)``;
``hq_wav2lip_train.py:19`` ``from hparams import hparams`` and ``:404-406`` ``DataLoader(train_dataset,
batch_size=hparams.batch_size, shuffle=True, num_workers=hparams.num_workers)``. The Tacotron-derived speech
repositories carry the same ``hparams.py`` (``from hparams import hparams as hp``).

:func:`imported_objects` gives, for each ``from M import name [as alias]`` at the entry's top level with ``M`` a
project module the entry reads, the keywords of the one module-level ``name = C(k=v, ...)`` in ``M`` as the
object's keys (literal values, ``constructor keyword``, with ``M``'s file and line), where ``C`` is a project class
whose ``__init__`` takes only ``**kwargs`` and keeps every pair (``for k, v in kwargs.items()``,
``self.__dict__.update(kwargs)`` or ``setattr(self, k, v)``). ``name`` bound twice in ``M``, positional
arguments, a ``**mapping``: nothing (the keys are not known). The entry's own rebinding of ``alias`` is followed
by :mod:`preflight.adapters.config_object_roots` as for any root. Nothing is imported or executed.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters.config_object import Builder, Modules, Tree, leaves


def _keeps_kwargs(cls: ast.ClassDef) -> bool:
    """``__init__(self, **kwargs)`` storing every pair it is given."""
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None or init.args.kwarg is None or init.args.vararg is not None or len(init.args.args) != 1 \
            or init.args.kwonlyargs or init.args.posonlyargs:
        return False
    kw = init.args.kwarg.arg
    for node in ast.walk(init):
        if isinstance(node, ast.For) and isinstance(node.iter, ast.Call) \
                and isinstance(node.iter.func, ast.Attribute) and node.iter.func.attr == "items" \
                and isinstance(node.iter.func.value, ast.Name) and node.iter.func.value.id == kw:
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "update" \
                and any(isinstance(a, ast.Name) and a.id == kw for a in node.args) \
                and "__dict__" in ast.unparse(node.func.value):
            return True
    return False


def _module_of(modules: Modules, module: str, level: int, script: Any) -> Optional[tuple[str, ast.Module]]:
    """The project module ``from module import ...`` at the entry names, among the modules read."""
    if level:
        up = script.parent
        for _ in range(level - 1):
            up = up.parent
        bases = [up]
    else:
        bases = list(modules.bases)
    rel = module.replace(".", "/")
    for base in bases:
        for cand in (base / f"{rel}.py", base / rel / "__init__.py"):
            try:
                resolved = cand.resolve()
            except OSError:
                continue
            got = next(((s, t) for s, p, t in modules.trees if p == resolved), None)
            if got is not None:
                return got
    return None


def imported_objects(script_tree: ast.Module, modules: Modules, builder: Builder) -> dict[str, Tree]:
    """alias -> the imported object's keys (see the module's docstring)."""
    out: dict[str, Tree] = {}
    script = modules.trees[0][1]
    for node in script_tree.body:
        if not isinstance(node, ast.ImportFrom) or not node.module:
            continue
        got = _module_of(modules, node.module, node.level, script)
        if got is None:
            continue
        shown, tree = got
        for a in node.names:
            bound = [s for s in ast.walk(tree) if isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign))
                     and any(isinstance(t, ast.Name) and t.id == a.name
                             for t in (s.targets if isinstance(s, ast.Assign) else [s.target]))]
            if len(bound) != 1 or bound[0] not in tree.body or not isinstance(bound[0], ast.Assign) \
                    or len(bound[0].targets) != 1 or not isinstance(bound[0].value, ast.Call):
                continue
            call = bound[0].value
            if not isinstance(call.func, ast.Name) or call.args or any(k.arg is None for k in call.keywords):
                continue
            cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == call.func.id), None)
            if cls is None or not _keeps_kwargs(cls):
                continue
            keys: Tree = {}
            for kw in call.keywords:
                value = builder.value(kw.value, shown, how="constructor keyword")
                if value is not None:
                    keys[str(kw.arg)] = value
            if leaves(keys):
                out[a.asname or a.name] = keys
    return out
