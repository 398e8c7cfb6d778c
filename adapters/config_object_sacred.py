"""The configuration of a sacred ``Experiment`` as a root of the value flow
(:mod:`preflight.adapters.config_object_reads`): the ``_config`` a main function takes (and the
parameters sacred injects by name) then reach the project's own functions and classes the way any
configuration object's keys do. Real shapes, pinned by tests in ``tests/test_config_object_sacred.py``:

* dandelin/ViLT @ 762fd39 ``vilt/config.py:1-88`` (``ex = Experiment("ViLT")``; ``@ex.config def
  config(): batch_size = 4096; per_gpu_batchsize = 0; num_gpus = 1; precision = 16; ...``), ``:93-122``
  (``@ex.named_config def task_mlm_itm(): batch_size = 4096; ...``), ``run.py:10-62`` (``@ex.automain
  def main(_config): _config = copy.deepcopy(_config)`` then ``pl.Trainer(gpus=_config["num_gpus"],
  precision=_config["precision"], accumulate_grad_batches=...)``), launched as ``python run.py with
  data_root=... num_gpus=8 num_nodes=1 task_mlm_itm per_gpu_batchsize=64``;
* zdou0830/METER (the same layout: ``meter/config.py`` ``@ex.config``/``@ex.named_config``, ``run.py``
  ``@ex.automain def main(_config)``).

Sacred's order is kept: the ``@ex.config`` scopes in the order they are defined, then the named configs
in the order the launch line gives them, then the launch line's ``key=value`` updates (values read as
Python literals, else strings, as sacred does). A value is taken only when it is a literal; an assignment
of anything else, one under an ``if``/loop, an ``+=``, and every key of an ``ex.add_config(...)`` that is
not a literal dict make the key unknown (never guessed). A named config that the launch line names and
that is not found, or a config file given there, makes the whole configuration unknown (one note).
Nothing is imported or executed.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters.config_object import Leaf, Modules, Tree

_MAINS = ("automain", "main", "command", "capture")
_UNKNOWN = object()


def _dec_parts(dec: ast.AST) -> Optional[tuple[str, str]]:
    """``@ex.automain`` / ``@ex.config()`` -> ("ex", "automain")."""
    target = dec.func if isinstance(dec, ast.Call) else dec
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
        return target.value.id, target.attr
    return None


def _experiments(modules: Modules) -> dict[str, list[str]]:
    """name -> the modules (shown) that bind it to ``Experiment(...)`` of sacred."""
    out: dict[str, list[str]] = {}
    for shown, _, tree in modules.trees:
        sacred = any((isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] == "sacred")
                     or (isinstance(n, ast.Import) and any(a.name.split(".")[0] == "sacred" for a in n.names))
                     for n in tree.body)
        if not sacred:
            continue
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and isinstance(node.value, ast.Call):
                f = node.value.func
                name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
                if name == "Experiment":
                    out.setdefault(node.targets[0].id, []).append(shown)
    return out


def _literal(node: ast.AST) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _UNKNOWN


def _set(tree: Tree, path: tuple, value: Any) -> None:
    """Put ``value`` (a Leaf, a literal dict already turned into a tree, or _UNKNOWN) at ``path``."""
    node = tree
    for key in path[:-1]:
        sub = node.get(key)
        if not isinstance(sub, dict):
            sub = {}
            node[key] = sub
        node = sub
    if value is _UNKNOWN:
        node.pop(path[-1], None)
        node.setdefault("<unknown>", set()).add(path[-1])
    else:
        node[path[-1]] = value
        if isinstance(node.get("<unknown>"), set):
            node["<unknown>"].discard(path[-1])


def _as_tree(value: Any, shown: str, line: Optional[int], how: str, key: Optional[str] = None) -> Any:
    if isinstance(value, dict):
        out: Tree = {}
        for k, v in value.items():
            if isinstance(k, str) and not k.startswith("_"):
                out[k] = _as_tree(v, shown, line, how, key)
        return out
    return Leaf(value, shown, line, how, key)


def _assigned(stmt: ast.stmt) -> list[str]:
    names: list[str] = []
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.append(node.id)
    return names


def _scope(tree: Tree, fn: ast.FunctionDef, shown: str, how: str) -> None:
    """A config scope's body, in order: literals are values, anything else makes the key unknown."""
    for stmt in fn.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name = stmt.targets[0].id
            if name.startswith("_"):
                continue
            value = _literal(stmt.value)
            _set(tree, (name,), _UNKNOWN if value is _UNKNOWN else _as_tree(value, shown, stmt.lineno, how))
        elif isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):
            continue
        elif isinstance(stmt, ast.Expr):
            # ``datasets.append("vg")``: a method call may change the object it is called on
            for node in ast.walk(stmt):
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                        and not node.value.id.startswith("_"):
                    _set(tree, (node.value.id,), _UNKNOWN)
        else:
            for name in _assigned(stmt):
                if not name.startswith("_"):
                    _set(tree, (name,), _UNKNOWN)


def _updates(argv: list[str]) -> Optional[tuple[list[str], list[tuple[str, str]]]]:
    """(named configs, ``key=value`` updates) after ``with`` on the launch line; None when a config
    file is named there (its keys are not read)."""
    if "with" not in argv:
        return [], []
    named: list[str] = []
    sets: list[tuple[str, str]] = []
    for tok in argv[argv.index("with") + 1:]:
        if tok.startswith("-"):
            break
        if "=" in tok:
            key, _, raw = tok.partition("=")
            sets.append((key.strip(), raw))
        elif tok.endswith((".json", ".yaml", ".yml", ".pickle", ".jsonpickle")):
            return None
        else:
            named.append(tok)
    return named, sets


def _cli_value(raw: str) -> Any:
    try:
        return ast.literal_eval(raw)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return raw


def _clean(tree: Any) -> Any:
    if isinstance(tree, dict):
        return {k: _clean(v) for k, v in tree.items() if k != "<unknown>"}
    return tree


def sacred_tree(modules: Modules, ex: str, argv: list[str], note: Any = None) -> Optional[Tree]:
    """The configuration of the experiment ``ex`` for this launch line, or None when it is not known."""
    homes = _experiments(modules).get(ex, [])
    if len(homes) != 1:
        return None
    home = homes[0]
    tree: Tree = {}
    for shown, _, mod in modules.trees:
        top = {id(n.value) for n in mod.body if isinstance(n, ast.Expr)} if shown == home else set()
        for call in ast.walk(mod):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                    and call.func.attr == "add_config" and isinstance(call.func.value, ast.Name) \
                    and call.func.value.id == ex and id(call) not in top:
                # ``for f in Path("config").glob("*.yaml"): ex.add_config(str(f))``: keys merged at run time
                if note is not None:
                    note(f"{shown}:{call.lineno}: {ex}.add_config(...) inside a block or another module: the sacred "
                         "configuration is not known")
                return None
    named_fns: dict[str, tuple[str, ast.FunctionDef]] = {}
    for shown, _, mod in modules.trees:
        if shown != home:
            continue
        for node in mod.body:
            if isinstance(node, ast.FunctionDef):
                for dec in node.decorator_list:
                    parts = _dec_parts(dec)
                    if parts is None or parts[0] != ex:
                        continue
                    if parts[1] == "config":
                        _scope(tree, node, shown, "sacred config")
                    elif parts[1] == "named_config":
                        named_fns[node.name] = (shown, node)
            elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) \
                    and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "add_config" \
                    and isinstance(node.value.func.value, ast.Name) and node.value.func.value.id == ex:
                call = node.value
                given = _literal(call.args[0]) if call.args else {}
                if not isinstance(given, dict):
                    if note is not None:
                        note(f"{shown}:{node.lineno}: {ex}.add_config(...) of a value not read: the sacred "
                             "configuration is not known")
                    return None
                for k, v in given.items():
                    if isinstance(k, str):
                        _set(tree, (k,), _as_tree(v, shown, node.lineno, "sacred add_config"))
                for kw in call.keywords:
                    if kw.arg is None:
                        return None
                    value = _literal(kw.value)
                    _set(tree, (kw.arg,), _UNKNOWN if value is _UNKNOWN else
                         _as_tree(value, shown, node.lineno, "sacred add_config"))
    upd = _updates(argv)
    if upd is None:
        if note is not None:
            note(f"sacred: a config file on the launch line ({' '.join(argv)}) is not read: the configuration "
                 "is not known")
        return None
    named, sets = upd
    for name in named:
        got = named_fns.get(name)
        if got is None:
            if note is not None:
                note(f"sacred: the named config '{name}' of the launch line is not a @{ex}.named_config of {home}: "
                     "the configuration is not known")
            return None
        _scope(tree, got[1], got[0], f"sacred named config {name}")
    for key, raw in sets:
        path = tuple(p for p in key.split(".") if p)
        if not path:
            continue
        _set(tree, path, _as_tree(_cli_value(raw), "", None, "launch line", f"with {key}={raw}"))
    out = _clean(tree)
    return out if out else None


def sacred_roots(script: Any, modules: Modules, argv: list[str], combined: Tree,
                 scopes: dict[int, dict[str, tuple]], note: Any = None) -> None:
    """Add ``main(_config)`` -> the experiment's configuration for each ``@ex.automain``/``@ex.main``/
    ``@ex.command``/``@ex.capture`` function of the entry ``script``; its other parameters named like a
    top-level key get that key (sacred injects them by name)."""
    if not isinstance(script.tree, ast.Module):
        return
    trees: dict[str, Optional[Tree]] = {}
    for node in script.tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        exs = [p[0] for p in (_dec_parts(d) for d in node.decorator_list) if p is not None and p[1] in _MAINS]
        if len(exs) != 1:
            continue
        ex = exs[0]
        if ex not in trees:
            trees[ex] = sacred_tree(modules, ex, argv, note)
        tree = trees[ex]
        if not tree:
            continue
        root = f"{ex}.config"
        combined[root] = tree
        for arg in node.args.args + node.args.kwonlyargs:
            if arg.arg == "_config":
                scopes.setdefault(id(node), {})[arg.arg] = (root,)
            elif arg.arg in tree:
                scopes.setdefault(id(node), {})[arg.arg] = (root, arg.arg)


def _copies_only(fn: ast.FunctionDef, name: str, key: str) -> bool:
    """``name`` is stored in ``fn`` only as ``name = copy.deepcopy(name)`` (or not at all), and its ``key`` is
    not written there (``_config["max_steps"] = ...``, or a key not known statically)."""
    from preflight.adapters.config_object_casts import self_casts

    nodes = list(ast.walk(fn))
    for n in nodes:
        if isinstance(n, ast.Subscript) and isinstance(n.ctx, (ast.Store, ast.Del)) \
                and isinstance(n.value, ast.Name) and n.value.id == name \
                and not (isinstance(n.slice, ast.Constant) and n.slice.value != key):
            return False
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("update", "setdefault") \
                and isinstance(n.func.value, ast.Name) and n.func.value.id == name:
            return False
    stored = any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, (ast.Store, ast.Del)) for n in nodes)
    return not stored or name in self_casts(nodes)


def sacred_key(idx: Any, expr: ast.AST, note: Any = None) -> Any:
    """``_config["precision"]`` inside an ``@ex.automain``/``@ex.main``/``@ex.command`` function of the entry
    (``def main(_config)``): the key's value as a :class:`preflight.script_index_core.Resolved` (kind ``cli``
    for a launch-line update, else ``config`` with the config file as its detail), or None."""
    from preflight.script_index_core import Resolved

    if not (isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name)
            and isinstance(expr.slice, ast.Constant) and isinstance(expr.slice.value, str)):
        return None
    tree = getattr(getattr(idx, "script", None), "tree", None)
    path = getattr(getattr(getattr(idx, "script", None), "source", None), "path", None)
    line = getattr(expr, "lineno", None)
    if not isinstance(tree, ast.Module) or path is None or line is None:
        return None
    fn = next((n for n in tree.body if isinstance(n, ast.FunctionDef)
               and n.lineno <= line <= (n.end_lineno or n.lineno)), None)
    if fn is None or "_config" not in [a.arg for a in fn.args.args + fn.args.kwonlyargs] \
            or expr.value.id != "_config" or not _copies_only(fn, "_config", expr.slice.value):
        return None
    exs = [p[0] for p in (_dec_parts(d) for d in fn.decorator_list) if p is not None and p[1] in _MAINS]
    if len(exs) != 1:
        return None
    cache = idx.__dict__.setdefault("_sacred_trees", {})
    if exs[0] not in cache:
        from pathlib import Path

        display = getattr(idx.script.source, "display", None) or Path(str(path)).name
        full = str(Path(str(path)).resolve())
        # the files shown as the entry is (``run.py`` -> ``vilt/config.py``, not a path from the file system's top)
        root = Path(full[:-len(display)]) if full.endswith("/" + display) else Path(full).parent
        modules = Modules(Path(str(path)), tree, display, root)
        cache[exs[0]] = sacred_tree(modules, exs[0], list(getattr(idx, "args", []) or []), note)
        # a key any module read writes on some object (``config["precision"] = 32`` in a helper the config is
        # handed to) is not claimed: which object it is is not followed here
        cache[f"<written {exs[0]}>"] = {n.slice.value for _, _, t in modules.trees for n in ast.walk(t)
                                        if isinstance(n, ast.Subscript) and isinstance(n.ctx, (ast.Store, ast.Del))
                                        and isinstance(n.slice, ast.Constant) and isinstance(n.slice.value, str)}
    if expr.slice.value in cache[f"<written {exs[0]}>"]:
        return None
    got = (cache[exs[0]] or {}).get(expr.slice.value)
    if not isinstance(got, Leaf) or isinstance(got.value, (dict, list, tuple, set)):
        return None
    key = f"{exs[0]}.config.{expr.slice.value}"
    if got.how == "launch line":
        return Resolved(got.value, "cli", None, got.key, f"{got.key} (sacred {exs[0]}, the launch line)")
    return Resolved(got.value, "config", got.line, key, got.file)
