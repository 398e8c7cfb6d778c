"""Project classes that inherit the object a base class stores (read by
:mod:`preflight.adapters.config_object_flow`; nothing is imported or executed).

zhouhaoyi/Informer2020 @ 29f2a73 ``exp/exp_basic.py:5-8`` ``class Exp_Basic: def __init__(self, args):
self.args = args``, ``exp/exp_informer.py:21-23`` ``class Exp_Informer(Exp_Basic): def __init__(self, args):
super(Exp_Informer, self).__init__(args)``, then ``args = self.args`` and ``DataLoader(...,
num_workers=args.num_workers)`` in ``Exp_Informer._get_data`` (the experiment-class idiom of the
time-series libraries: thuml/Time-Series-Library, Autoformer, FEDformer). Two readings:

* ``super().__init__(x)`` / ``super(Cls, self).__init__(x)`` / ``super().m(x)`` in a method of a project
  class is the method ``m`` of its nearest project base class that defines it (one base per class
  followed; a class with several bases is followed only through the first);
* ``self.attr`` in a method of a class is what a project base class's method stored in ``self.attr``
  when the class itself stores nothing there (its own store wins).
"""

from __future__ import annotations

import ast
from typing import Any, Optional

_DEPTH = 4


def _base(klass: ast.ClassDef, modules: Any) -> Optional[ast.ClassDef]:
    if not klass.bases:
        return None
    first = klass.bases[0]
    name = first.id if isinstance(first, ast.Name) else first.attr if isinstance(first, ast.Attribute) else ""
    got = modules.klass(name) if name and name != klass.name else None
    return got[1] if got is not None and got[1] is not klass else None


def bases(klass: ast.ClassDef, modules: Any, memo: Optional[dict[int, list[ast.ClassDef]]] = None
          ) -> list[ast.ClassDef]:
    """The project base classes of ``klass``, nearest first (through first bases only)."""
    if memo is not None and id(klass) in memo:
        return memo[id(klass)]
    out: list[ast.ClassDef] = []
    here: Optional[ast.ClassDef] = klass
    while here is not None and len(out) < _DEPTH:
        here = _base(here, modules)
        if here is None or any(here is b for b in out):
            break
        out.append(here)
    if memo is not None:
        memo[id(klass)] = out
    return out


def _is_super(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super" \
        and (not node.args or (len(node.args) == 2 and isinstance(node.args[1], ast.Name)
                               and node.args[1].id == "self"))


def super_callee(call: ast.Call, klass: Optional[ast.ClassDef], modules: Any,
                 memo: Optional[dict[int, list[ast.ClassDef]]] = None) -> Optional[tuple[ast.FunctionDef, bool]]:
    """``super().m(...)`` in a method of ``klass``: (the base's ``m``, True: ``self`` is bound), else None."""
    f = call.func
    if klass is None or not isinstance(f, ast.Attribute) or not _is_super(f.value):
        return None
    for base in bases(klass, modules, memo):
        meth = next((s for s in base.body if isinstance(s, ast.FunctionDef) and s.name == f.attr), None)
        if meth is not None:
            return meth, True
    return None


def inherited(klass: ast.ClassDef, selfs: dict[int, dict[str, tuple]], modules: Any,
              memo: Optional[dict[int, list[ast.ClassDef]]] = None) -> dict[str, tuple]:
    """``self.attr`` paths of ``klass``: its bases' stores (farthest first), its own over them."""
    above = bases(klass, modules, memo)
    if not above:
        return selfs.get(id(klass), {})
    out: dict[str, tuple] = {}
    for base in reversed(above):
        for attr in _stored(base):  # a class's own store of ``self.attr`` hides what its bases stored
            out.pop(attr, None)
        out.update(selfs.get(id(base), {}))
    for attr in _stored(klass):
        out.pop(attr, None)
    out.update(selfs.get(id(klass), {}))
    return out


_STORED: dict[int, tuple[ast.ClassDef, frozenset[str]]] = {}


def _stored(klass: ast.ClassDef) -> frozenset[str]:
    """Attributes the class's own methods store on ``self`` (whatever the value)."""
    held = _STORED.get(id(klass))
    if held is not None and held[0] is klass:
        return held[1]
    names = frozenset(t.attr for n in ast.walk(klass) if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign))
                      for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                      if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self")
    if len(_STORED) > 512:
        _STORED.clear()
    _STORED[id(klass)] = (klass, names)
    return names


def subclasses(klass: ast.ClassDef, classes: list[ast.ClassDef], modules: Any,
               memo: Optional[dict[int, list[ast.ClassDef]]] = None) -> list[ast.ClassDef]:
    """The project classes among ``classes`` that have ``klass`` as a base."""
    return [c for c in classes if c is not klass and any(b is klass for b in bases(c, modules, memo))]
