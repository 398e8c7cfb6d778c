"""A project's own ``DataLoader`` subclass: which argument of its call becomes the loader's batch size,
worker count and pinned memory.

huggingface/picotron @ 59714b1 ``picotron/data.py:12-60``: ``class MicroBatchDataLoader(DataLoader)``
whose ``__init__(self, micro_batch_size, ..., num_workers, ..., pin_memory=True)`` ends in
``super().__init__(dataset, batch_size=micro_batch_size, pin_memory=pin_memory, num_workers=num_workers,
...)``; ``train.py:106-118`` builds it as ``MicroBatchDataLoader(micro_batch_size=config["training"]
["micro_batch_size"], ..., num_workers=config["dataset"]["num_workers"], ...)``. torch's ``DataLoader``
is what batches, so the call's ``micro_batch_size`` is the per-process batch, its ``num_workers`` the
workers, and the ``pin_memory=True`` default of the subclass the pinning.

Read, never imported: a class of the project whose bases name ``DataLoader`` (or torchdata's
``StatefulDataLoader``) and whose ``__init__`` calls ``super().__init__(...)`` (or
``DataLoader.__init__(self, ...)``) once. For each of ``batch_size``, ``num_workers`` and
``pin_memory`` the super call passes: a parameter of ``__init__`` is mapped to the call's argument
(keyword, or position after ``self``), else to that parameter's literal default; a literal is itself;
an argument the super call does not pass is torch's default (1, 0, False). Anything else (an
expression of several values, ``**kwargs`` on either side, a parameter reassigned in ``__init__``)
is not mapped.
"""

from __future__ import annotations

import ast
from typing import Any, Optional, Union

_LOADERS = ("DataLoader", "StatefulDataLoader")
_KEYS = (("batch_size", 1, 1), ("num_workers", 0, 5), ("pin_memory", False, 7))  # name, torch default, position


class Mapped:
    """What one loader keyword is in a call of the subclass: the call's own expression (``expr``), or
    a literal (``value``) from the subclass (its default or the super call) or torch's default."""

    def __init__(self, expr: Optional[ast.expr], value: Any, line: int, how: str) -> None:
        self.expr = expr
        self.value = value
        self.line = line
        self.how = how


def _base_name(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


def is_loader_subclass(cls: ast.ClassDef) -> bool:
    return any(_base_name(b) in _LOADERS for b in cls.bases)


def _super_init(init: ast.FunctionDef) -> Optional[ast.Call]:
    calls = []
    for node in ast.walk(init):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "__init__"):
            continue
        owner = node.func.value
        if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
            calls.append(node)
        elif _base_name(owner) in _LOADERS and node.args and isinstance(node.args[0], ast.Name) \
                and node.args[0].id == "self":
            calls.append(ast.Call(func=node.func, args=node.args[1:], keywords=node.keywords))
    return calls[0] if len(calls) == 1 else None


def _reassigned(init: ast.FunctionDef, name: str) -> bool:
    for node in ast.walk(init):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        if any(isinstance(t, ast.Name) and t.id == name for tg in targets for t in ast.walk(tg)):
            return True
    return False


def _literal(node: Optional[ast.expr]) -> tuple[bool, Any]:
    if isinstance(node, ast.Constant) and isinstance(node.value, (bool, int)):
        return True, node.value
    return False, None


def loader_arguments(cls: ast.ClassDef, call: ast.Call) -> dict[str, Mapped]:
    """``batch_size``/``num_workers``/``pin_memory`` of the torch loader a call of ``cls`` builds."""
    if not is_loader_subclass(cls):
        return {}
    inits = [n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"]
    if len(inits) != 1:
        return {}
    init = inits[0]
    sup = _super_init(init)
    if sup is None or any(k.arg is None for k in sup.keywords) or any(isinstance(a, ast.Starred) for a in sup.args) \
            or any(k.arg is None for k in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args):
        return {}
    params = [a.arg for a in (*init.args.posonlyargs, *init.args.args)][1:]  # after self
    defaults: dict[str, ast.expr] = {}
    positional = [*init.args.posonlyargs, *init.args.args]
    for arg, default in zip(positional[len(positional) - len(init.args.defaults):], init.args.defaults):
        defaults[arg.arg] = default
    for arg, kw_default in zip(init.args.kwonlyargs, init.args.kw_defaults):
        if kw_default is not None:
            defaults[arg.arg] = kw_default
    names = set(params) | {a.arg for a in init.args.kwonlyargs}
    given = {k.arg: k.value for k in call.keywords if k.arg}
    out: dict[str, Mapped] = {}
    for key, torch_default, position in _KEYS:
        inner: Optional[ast.expr] = next((k.value for k in sup.keywords if k.arg == key), None)
        if inner is None and len(sup.args) > position:
            inner = sup.args[position]
        line = getattr(inner, "lineno", None) or sup.lineno
        if inner is None:
            out[key] = Mapped(None, torch_default, sup.lineno,
                              f"{cls.name}.__init__ calls DataLoader.__init__ without {key}: torch's default")
            continue
        ok, value = _literal(inner)
        if ok:
            out[key] = Mapped(None, value, line, f"{key}={value!r} in {cls.name}.__init__'s DataLoader.__init__")
            continue
        if not (isinstance(inner, ast.Name) and inner.id in names) or _reassigned(init, inner.id):
            continue
        param = inner.id
        expr: Union[ast.expr, None] = given.get(param)
        if expr is None and param in params and params.index(param) < len(call.args):
            expr = call.args[params.index(param)]
        if expr is not None:
            out[key] = Mapped(expr, None, getattr(expr, "lineno", call.lineno),
                              f"{param}= of {cls.name}(...), its DataLoader's {key}")
            continue
        ok, value = _literal(defaults.get(param))
        if ok:
            out[key] = Mapped(None, value, getattr(defaults[param], "lineno", init.lineno),
                              f"{cls.name}(...) without {param}: its default {value!r}, the DataLoader's {key}")
    return out


def project_class(script_path: Any, tree: Optional[ast.AST], qualified: str) -> Optional[ast.ClassDef]:
    """The class ``qualified`` names: one of the script's own top-level classes, or one of a module of the
    project (found beside the script or above it), parsed, never imported."""
    from pathlib import Path

    from preflight.local_trees import parse_file
    from preflight.script_parsers import _module_file

    module, _, name = qualified.rpartition(".")
    body: list[ast.stmt] = []
    if not module and isinstance(tree, ast.Module):
        body = tree.body
    elif module and script_path is not None:
        found = _module_file(Path(str(script_path)).parent, module)
        if found is None:
            return None
        try:
            if found.stat().st_size > 1_000_000:
                return None
            body = parse_file(found).body
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            return None
    classes = [n for n in body if isinstance(n, ast.ClassDef) and n.name == name]
    return classes[0] if len(classes) == 1 else None


def subclass_loaders(pass_: Any, skip: Any) -> None:
    """The pytorch adapter's reading of a call of a project ``DataLoader`` subclass: the mapped arguments
    resolved like a ``DataLoader(...)``'s (medium: the value went through the project's class)."""
    done: set[str] = set()
    for site in pass_.calls:
        if not site.last or site.last in _LOADERS or not site.last[:1].isupper() or skip(site):
            continue
        if site.target and any(w in site.target.lower() for w in ("val", "eval", "test")):
            continue
        qualified = site.qualified or site.name or ""
        cls = project_class(pass_.script.source.path, pass_.script.tree, qualified)
        if cls is None:
            continue
        for key, field in (("batch_size", "batch.micro"), ("num_workers", "data.num_workers"),
                           ("pin_memory", "data.pin_memory")):
            got = loader_arguments(cls, site.call).get(key)
            if got is None or field in done:
                continue
            if got.expr is None:
                pass_.add(field, got.value, pass_.src(site.call, f"{site.label}(...): {got.how}", "default"), "medium")
                done.add(field)
                continue
            resolved = pass_.value(got.expr)
            if resolved is not None and isinstance(resolved.value, (bool, int)) \
                    and isinstance(resolved.value, bool) == (key == "pin_memory"):
                pass_.put(field, resolved, site, f"{site.label}(...): {got.how}", "medium")
                done.add(field)


def config_subclass_loader(self: Any, call: ast.Call, reader: Any, plan: Any, combined: Any, shown: str,
                           klass: Any) -> None:
    """A call of the project's ``DataLoader`` subclass (:mod:`preflight.adapters.loader_subclass`): the
    config values its arguments carry into torch's loader; its literals when the config feeds it."""
    where, cls = klass
    mapped = loader_arguments(cls, call)
    fed: Optional[tuple] = None
    literal: list[tuple[str, Any, str]] = []
    for key, field in (("batch_size", "batch.micro"), ("num_workers", "data.num_workers"),
                       ("pin_memory", "data.pin_memory")):
        got_map = mapped.get(key)
        if got_map is None:
            continue
        if got_map.expr is None:
            literal.append((field, got_map.value, f"{got_map.how} ({where}:{got_map.line})"))
            continue
        got = reader.ev(got_map.expr)
        if got is None or got.path is None or isinstance(got.value, bool) != (key == "pin_memory") \
                or not isinstance(got.value, int) or got.value < (1 if key == "batch_size" else 0):
            continue
        fed = fed or got.path
        self._leaf_fact(plan, combined, field, got.value, got.path,
                        f"{'.'.join(got.path)} given to {cls.name}(...) ({shown}:{call.lineno}): {got_map.how}")
    if fed is None:
        return
    for field, value, how in literal:  # the loader the config feeds: its own literals are the job's
        self._leaf_fact(plan, combined, field, value, fed, f"{how}, in the loader {'.'.join(fed)} feeds")
