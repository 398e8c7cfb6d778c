"""Datasets whose ``__getitem__`` ignores its index and draws the sample from a global RNG (shared by
PF638 and PF639): which item comes back is decided by the process's random stream, not by the index
the sampler handed out.

Read syntactically from one file: a class with a ``__getitem__(self, idx)`` that never reads ``idx``
and calls a global draw: stdlib ``random.<fn>`` (``choice``, ``randint``, ``sample``...), NumPy's
module-level ``np.random.<fn>``, or ``torch.rand*``/``torch.randint``/``torch.randperm``/... without
``generator=``. A draw from a ``random.Random(idx)``, an ``np.random.default_rng(...)`` or a
``torch.Generator`` is not global."""

from __future__ import annotations

import ast
from typing import Optional

_STDLIB = frozenset({"choice", "choices", "randint", "random", "uniform", "sample", "shuffle", "randrange",
                     "gauss", "normalvariate", "triangular", "betavariate", "expovariate"})
_NUMPY = frozenset({"rand", "randn", "randint", "random", "random_sample", "choice", "uniform", "normal",
                    "permutation", "shuffle", "integers", "beta", "binomial", "poisson"})
_TORCH = frozenset({"randn", "rand", "randint", "randperm", "normal", "bernoulli", "multinomial"})


def _module_aliases(tree: ast.AST) -> tuple[set[str], set[str]]:
    """The names the file binds to the stdlib ``random`` module and to ``numpy``."""
    stdlib: set[str] = set()
    numpy: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "random":
                    stdlib.add(alias.asname or "random")
                elif alias.name == "numpy":
                    numpy.add(alias.asname or "numpy")
    return stdlib, numpy


def global_draw(call: ast.Call, stdlib: set[str], numpy: set[str]) -> bool:
    """``call`` draws from a process-global random stream."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return False
    recv = func.value
    if isinstance(recv, ast.Name) and recv.id in stdlib:
        return func.attr in _STDLIB
    if isinstance(recv, ast.Attribute) and recv.attr == "random" and isinstance(recv.value, ast.Name) \
            and recv.value.id in numpy:
        return func.attr in _NUMPY
    if isinstance(recv, ast.Name) and recv.id == "torch":
        return func.attr in _TORCH and not any(k.arg == "generator" for k in call.keywords)
    return False


def _getitem(cls: ast.ClassDef) -> Optional[ast.FunctionDef]:
    for fn in cls.body:
        if isinstance(fn, ast.FunctionDef) and fn.name == "__getitem__" and len(fn.args.args) == 2:
            return fn
    return None


def index_free_datasets(tree: ast.AST) -> dict[str, tuple[ast.ClassDef, ast.Call]]:
    """Class name -> (the class, its first global draw) for each class of the file whose
    ``__getitem__`` never reads its index and draws from a global RNG."""
    stdlib, numpy = _module_aliases(tree)
    if not stdlib and not numpy and "torch" not in {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}:
        return {}
    out: dict[str, tuple[ast.ClassDef, ast.Call]] = {}
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        fn = _getitem(cls)
        if fn is None:
            continue
        index = fn.args.args[1].arg
        if any(isinstance(n, ast.Name) and n.id == index for n in ast.walk(fn)):
            continue
        draws = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and global_draw(n, stdlib, numpy)]
        if draws:
            out[cls.name] = (cls, min(draws, key=lambda n: (n.lineno, n.col_offset)))
    return out


def instances(tree: ast.AST, name: str) -> list[ast.Call]:
    """Calls ``Name(...)`` that build the class ``name`` in the file."""
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
            and n.func.id == name]


def picks_from_data(cls: ast.ClassDef) -> bool:
    """``__getitem__`` picks from data the object holds: it subscripts a ``self.<attr>``
    (``self.data[start:start + n]``) or hands one to a call (``random.choice(self.folders)``,
    ``len(self.data)``). A synthetic dataset (``torch.randn(3, self.size, self.size)``) does
    neither with a collection: its samples are noise by design, alike or not."""
    fn = _getitem(cls)
    if fn is None:
        return False
    for node in ast.walk(fn):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) \
                and isinstance(node.value.value, ast.Name) and node.value.value.id == "self":
            return True
        if isinstance(node, ast.Call) and _picking(node) and any(
                isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name) and a.value.id == "self"
                for a in node.args):
            return True
    return False


def _picking(call: ast.Call) -> bool:
    """``len(...)``, ``random.choice(...)``/``choices``/``sample``/``shuffle``, ``np.random.permutation``:
    calls that choose from, or measure, a collection."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else (func.id if isinstance(func, ast.Name) else "")
    return name in ("len", "choice", "choices", "sample", "shuffle", "permutation")
