"""The callee and the plain arguments of a model built from a configuration section
(:mod:`preflight.adapters.config_object_whole`), where they are not a section themselves.

jaywalnut310/glow-tts @ 13e9976 ``train.py:16,19,66-69``::

    import models
    from text.symbols import symbols
    ...
    generator = models.FlowGenerator(
        n_vocab=len(symbols) + getattr(hps.data, "add_blank", False),
        out_channels=hps.data.n_mel_channels,
        **hps.model).cuda(rank)

with ``hps`` the attribute dict of ``configs/base.json`` (:mod:`preflight.adapters.config_object_hparams`).
Read, never imported:

- the callee ``mod.Cls`` where ``mod`` is bound by ``import mod`` at the top of the calling module to a module of
  the project that defines the class ``Cls`` (:func:`module_class`);
- an argument (:func:`plain_value`): a configuration value, a literal, ``+``/``-``/``*``/``//`` of such values,
  ``getattr(section, "key", default)`` (the section's value where it has the key; the default where the section,
  read whole from the job's config files, has not: the attribute dict then has no such attribute), and
  ``len(NAME)``-style values of the calling module's constants (:func:`preflight.module_constants.constant_value`:
  ``symbols`` built from module-level string constants). Anything else is not known.
"""

from __future__ import annotations

import ast
import operator
from pathlib import Path
from typing import Any, Callable, Optional

from preflight.adapters.config_object import Enum

_ARITH: dict[type, Callable[[Any, Any], Any]] = {ast.Add: operator.add, ast.Sub: operator.sub,
                                                  ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv}


def module_of(fn: Any, modules: Any) -> Optional[tuple[str, Path, ast.Module]]:
    """(shown, path, tree) of the project module holding ``fn`` (a function or a module tree)."""
    return next(((s, p, t) for s, p, t in modules.trees if fn is t or any(n is fn for n in ast.walk(t))), None)


def module_class(call: ast.Call, fn: Any, modules: Any) -> Optional[tuple[str, ast.ClassDef]]:
    """(shown, class) for ``mod.Cls(...)`` with ``import mod`` at the top of the calling module naming a module of
    the project (one of ``modules.trees``) whose top defines the class ``Cls`` once; else None."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
        return None
    here = module_of(fn, modules)
    if here is None:
        return None
    alias = func.value.id
    dotted = [a.name for n in here[2].body if isinstance(n, ast.Import) for a in n.names
              if (a.asname or a.name) == alias and (a.asname or "." not in a.name)]
    rebound = [t for n in ast.walk(here[2]) if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))
               for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
               if isinstance(t, ast.Name) and t.id == alias]
    if len(dotted) != 1 or rebound:
        return None
    rel = dotted[0].replace(".", "/")
    for shown, _path, tree in modules.trees:
        stem = Path(shown).with_suffix("").as_posix()
        stem = stem[:-len("/__init__")] if stem.endswith("/__init__") else stem
        if stem == rel or stem.endswith(f"/{rel}"):
            found = [c for c in tree.body if isinstance(c, ast.ClassDef) and c.name == func.attr]
            return (shown, found[0]) if len(found) == 1 else None
    return None


def plain_value(node: ast.AST, reader: Any, unknown: Any, section: Callable[[ast.AST, str], Any],
                script: Optional[Path], depth: int = 0) -> Any:
    """The value the model class is handed for ``node`` (see the module comment), else ``unknown``.
    ``section(expr, key)`` gives (the mapping, whether a key it lacks is absent from the object) for a
    configuration section, else None."""
    got = reader.ev(node)
    if got is not None and not isinstance(got.value, (dict, Enum)):
        return got.value
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        pass
    if depth > 4:
        return unknown
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITH:
        a = plain_value(node.left, reader, unknown, section, script, depth + 1)
        b = plain_value(node.right, reader, unknown, section, script, depth + 1)
        if all(isinstance(v, (int, float)) for v in (a, b)):
            try:
                return _ARITH[type(node.op)](a, b)
            except (ZeroDivisionError, OverflowError, ValueError):
                return unknown
        return unknown
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" \
            and len(node.args) == 3 and not node.keywords and isinstance(node.args[1], ast.Constant) \
            and isinstance(node.args[1].value, str):
        key = node.args[1].value
        sec = section(node.args[0], key)
        if sec is None:
            return unknown
        mapping, whole = sec
        if key in mapping:
            return mapping[key]
        if not whole:
            return unknown
        try:
            return ast.literal_eval(node.args[2])
        except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
            return unknown
    if isinstance(node, ast.Call) and script is not None:
        from preflight.module_constants import MISSING, constant_value

        value = constant_value(script, node)  # ``len(symbols)`` of module-level constants
        if value is not MISSING and isinstance(value, (int, float)):
            return value
    return unknown
