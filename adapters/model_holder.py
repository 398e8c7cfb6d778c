"""A plain class of the project that holds the trained network and its optimizer: the network is the model.

hzwer/ECCV2022-RIFE @ 5d8adbd ``train.py:153`` builds ``model = Model(args.local_rank)``; ``model/RIFE.py:18-29``
``class Model:`` is no ``nn.Module``: its ``__init__`` binds ``self.flownet = IFNet()`` (``IFNet_m()`` under
``if arbitrary == True:``, ``arbitrary=False`` by default), then ``self.optimG = AdamW(self.flownet.parameters(),
...)``, loss modules (``EPE()``, ``LapLoss()``, ``SOBEL()``) and ``self.flownet = DDP(self.flownet, ...)``
under ``if local_rank != -1:``. The job trains ``IFNet``: what the holder's optimizer takes.

Read when: the script builds the class (adapters/model_imported.py: no ``nn.Module`` of the project built
there), the class has no base (or only ``object``), its ``__init__`` builds an optimizer (a call named like
one, :data:`_OPTIMIZERS`, or ``torch.optim.*`` / ``optim.*``) whose first argument is
``self.<A>.parameters()`` (or ``named_parameters()``), the same attribute ``A`` for every such call. The
network is the last call bound to ``self.<A>`` on the path ``__init__``'s parameters decide (the call's
values, else the literal defaults; tests ``p``, ``not p``, ``p ==``/``!=``/``is``/``is not`` a literal),
``.to(...)``/``.cuda()`` and the like passed through; a bind that wraps ``self.<A>`` itself (``DDP(self.<A>,
...)``) keeps the network it wraps, and an ``if`` holding only such binds is passed whatever its test. The
network's class is counted in the module that defines it (model_imported.py), with its arguments when they are
literals or the holder's parameters. Losses, optimizers and anything else of the holder are no part of the
model; a test not decided, a bind in a loop, or several optimized attributes state nothing. Nothing is
imported or run.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

_OPTIMIZERS = ("Adam", "AdamW", "SGD", "RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam", "LBFGS",
               "Lamb", "LAMB", "FusedAdam", "FusedLAMB", "Lion", "Adafactor")


def _self_attr(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def _optimized(init: ast.FunctionDef) -> set[str]:
    """The ``self.<A>`` attributes whose parameters an optimizer built in ``init`` takes."""
    out: set[str] = set()
    for node in ast.walk(init):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        func = node.func
        last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        dotted = ast.unparse(func)
        if last not in _OPTIMIZERS and not dotted.startswith(("torch.optim.", "optim.")):
            continue
        first = node.args[0]
        if isinstance(first, ast.Call) and isinstance(first.func, ast.Attribute) \
                and first.func.attr in ("parameters", "named_parameters") and not first.args:
            attr = _self_attr(first.func.value)
            if attr is not None:
                out.add(attr)
    return out


_MOVES = ("to", "cuda", "float", "half", "bfloat16", "train")


def _bind(init: ast.FunctionDef, args: list[Any], kwargs: dict[str, Any], unknown: Any) -> Optional[dict[str, Any]]:
    """``__init__``'s parameters (``self`` excepted) bound to the call's values and the literal defaults."""
    a = init.args
    if a.vararg or a.kwarg or a.kwonlyargs:
        return None
    names = [x.arg for x in (*a.posonlyargs, *a.args)][1:]
    defaults = dict(zip(names[len(names) - len(a.defaults):], a.defaults))
    if len(args) > len(names) or set(kwargs) - set(names):
        return None
    out: dict[str, Any] = {}
    for k, name in enumerate(names):
        if k < len(args):
            out[name] = args[k]
        elif name in kwargs:
            out[name] = kwargs[name]
        elif name in defaults and isinstance(defaults[name], ast.Constant):
            out[name] = defaults[name].value  # type: ignore[attr-defined]
        else:
            out[name] = unknown
    return out


def _truth(test: ast.expr, env: dict[str, Any], unknown: Any) -> Optional[bool]:
    """A test on the parameters: ``p``, ``not p``, ``p == c`` / ``!=`` / ``is`` / ``is not`` a literal."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _truth(test.operand, env, unknown)
        return None if inner is None else not inner
    if isinstance(test, ast.Name):
        value = env.get(test.id, unknown)
        return None if value is unknown else bool(value)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name) \
            and isinstance(test.comparators[0], ast.Constant):
        value = env.get(test.left.id, unknown)
        if value is unknown:
            return None
        other = test.comparators[0].value
        op = test.ops[0]
        if isinstance(op, (ast.Eq, ast.Is)):
            return value == other
        if isinstance(op, (ast.NotEq, ast.IsNot)):
            return value != other
    return None


def _taken(stmts: list[ast.stmt], attr: str, env: dict[str, Any], unknown: Any) -> Optional[list[ast.Call]]:
    """The calls bound to ``self.<attr>`` on the path the parameters decide, in order; None when a test
    around a bind is not decided. A bind that wraps ``self.<attr>`` itself (``DDP(self.<attr>)``) is passed."""
    out: list[ast.Call] = []
    for stmt in stmts:
        if isinstance(stmt, ast.If) and any(_binds(s, attr) for s in stmt.body + stmt.orelse):
            taken = _truth(stmt.test, env, unknown)
            arm = stmt.body if taken else stmt.orelse
            inner = _taken(arm, attr, env, unknown) if taken is not None else None
            if inner is None:
                if all(_wraps(s, attr) for s in stmt.body + stmt.orelse if _binds(s, attr)):
                    continue  # only a wrapper decided at run time (``if local_rank != -1: DDP(...)``)
                return None
            out.extend(inner)
        elif isinstance(stmt, ast.Assign) and any(_self_attr(t) == attr for t in stmt.targets):
            if _wraps(stmt, attr):
                continue
            value = stmt.value
            while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                    and value.func.attr in _MOVES and isinstance(value.func.value, ast.Call):
                value = value.func.value  # ``IFNet().to(device)``: the network moved
            if not isinstance(value, ast.Call) or len(stmt.targets) != 1:
                return None
            out.append(value)
        elif _binds(stmt, attr):
            return None  # bound in a loop, a ``with`` or a nested function: not followed
    return out


def _wraps(stmt: ast.stmt, attr: str) -> bool:
    return isinstance(stmt, ast.Assign) and any(_self_attr(n) == attr for n in ast.walk(stmt.value))


def _binds(stmt: ast.stmt, attr: str) -> bool:
    return any(isinstance(n, ast.Assign) and any(_self_attr(t) == attr for t in n.targets) for n in ast.walk(stmt))


def held_network(tree: ast.Module, name: str, args: list[Any], kwargs: dict[str, Any],
                 unknown: Any) -> Optional[tuple[str, ast.Call, dict[str, Any]]]:
    """(attribute, the call that builds the network, the holder's parameters by name) of the plain class
    ``name`` built with these arguments (``unknown`` for a value not known), as the module doc says; None
    when the class is not such a holder or which network it builds is not decided."""
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name]
    if len(classes) != 1:
        return None
    cls = classes[0]
    if any(not (isinstance(b, ast.Name) and b.id == "object") for b in cls.bases) or cls.keywords:
        return None
    inits = [n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"]
    if len(inits) != 1:
        return None
    attrs = _optimized(inits[0])
    env = _bind(inits[0], args, kwargs, unknown)
    if len(attrs) != 1 or env is None:
        return None
    attr = next(iter(attrs))
    calls = _taken(inits[0].body, attr, env, unknown)
    if not calls:
        return None
    return attr, calls[-1], env


__all__ = ["held_network"]
