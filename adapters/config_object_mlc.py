"""An ml_collections config file given to absl's ``config_flags.DEFINE_config_file`` as a root of the value flow
(:mod:`preflight.adapters.config_object_reads`): ``FLAGS.config`` then carries the file's keys into the
project's functions like any configuration object. Real shape, pinned by tests in
``tests/test_config_object_mlc.py``:

* yang-song/score_sde_pytorch @ cb1f359 ``main.py:26-42`` (``config_flags.DEFINE_config_file("config", None,
  ...)``, then ``run_lib.train(FLAGS.config, FLAGS.workdir)``), launched as ``python main.py --config
  configs/vp/cifar10_ddpmpp_continuous.py --workdir ... --mode train``; the file's ``get_config()`` starts from
  ``get_default_configs()`` imported from ``configs/default_cifar10_configs.py`` (``config.training = training =
  ml_collections.ConfigDict(); config.training.batch_size = 128; training.n_iters = ...``) and changes keys
  through local aliases (``training = config.training; training.sde = 'vpsde'``).

Read, never run: ``get_config()`` is followed when each statement is a new ``ConfigDict()`` (or ``{}``/``dict()``)
bound to names and keys, an alias of a sub-config, a call of another such builder of the file or of a module
it imports by ``from M import f``, a key given a literal, or ``return``. A key given anything else (``torch.device
(...)``) is unknown; any other statement (a loop, an ``if``, a call) makes the whole file unknown. The
launch line's ``--config.a.b=value`` overrides are read as literals (else strings). A file given with a
``:argument`` suffix (``get_config(arg)``) is not read. The flag's default file is read when the line gives
none (``config_flags.DEFINE_config_file('config', 'configs/data_parallel.py', ...)``, seen in public code).
Not read: a ``FlagHolder`` (``_CONFIG = config_flags.DEFINE_config_file('config')`` then ``_CONFIG.value``), flags
defined under ``if __name__ == "__main__":`` only.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.config_object import Leaf, Modules, Tree

from preflight.analysis.syntax import keyed_chain

_CTORS = ("ConfigDict", "FrozenConfigDict", "dict", "EasyDict")
_DEPTH = 3


class _No(Exception):
    """A statement the reader does not follow."""


def _literal(node: ast.AST) -> tuple[bool, Any]:
    try:
        return True, ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None


def _new(node: ast.AST) -> bool:
    if isinstance(node, ast.Dict) and not node.keys:
        return True
    if not isinstance(node, ast.Call) or node.args or node.keywords:
        return False
    f = node.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    return name in _CTORS


def _parse(path: Path) -> Optional[ast.Module]:
    from preflight.local_trees import parse_file

    try:
        return parse_file(path)
    except (OSError, SyntaxError, ValueError, RecursionError):
        return None


class _Builder:
    def __init__(self, root: Path, shown_of: Any) -> None:
        self.root = root
        self.shown_of = shown_of
        self.consts: dict[str, Any] = {}  # plain locals of the builder given a literal once (``_image_size = 32``)

    def value(self, node: ast.AST) -> tuple[bool, Any]:
        """A literal, or a plain local the builder bound once to one."""
        if isinstance(node, ast.Name) and node.id in self.consts:
            return True, self.consts[node.id]
        return _literal(node)

    def function(self, path: Path, tree: ast.Module, name: str) -> Optional[tuple[Path, ast.Module, ast.FunctionDef]]:
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name == name:
                return path, tree, node
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for a in node.names:
                    if (a.asname or a.name) == name:
                        rel = node.module.replace(".", "/") + ".py"
                        for base in (self.root, path.parent):
                            cand = base / rel
                            if cand.is_file():
                                other = _parse(cand)
                                if other is None:
                                    return None
                                return self.function(cand, other, a.name)
        return None

    def build(self, path: Path, tree: ast.Module, fn: ast.FunctionDef, depth: int = 0) -> Tree:
        outer, self.consts = self.consts, {}  # each builder's own locals
        try:
            return self._build(path, tree, fn, depth)
        finally:
            self.consts = outer

    def _build(self, path: Path, tree: ast.Module, fn: ast.FunctionDef, depth: int) -> Tree:
        if depth > _DEPTH or fn.args.args or fn.args.kwonlyargs or fn.args.vararg or fn.args.kwarg:
            raise _No("function")
        shown = self.shown_of(path)
        env: dict[str, Tree] = {}
        for stmt in fn.body:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                continue  # a docstring or a bare string
            if isinstance(stmt, ast.Return):
                if isinstance(stmt.value, ast.Name) and stmt.value.id in env:
                    return env[stmt.value.id]
                raise _No("return")
            if not isinstance(stmt, ast.Assign):
                raise _No(type(stmt).__name__)
            made: Optional[Tree] = None
            filled = None if _new(stmt.value) else self.filled(path, tree, stmt.value, shown)
            if _new(stmt.value):
                made = {}
            elif filled is not None:
                made = filled
            elif isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name) \
                    and not stmt.value.args and not stmt.value.keywords:
                got = self.function(path, tree, stmt.value.func.id)
                if got is None:
                    raise _No("call")
                made = self.build(*got, depth + 1)
            elif isinstance(stmt.value, (ast.Attribute, ast.Subscript)):
                held = self.slot_value(stmt.value, env)
                if isinstance(held, dict):
                    made = held  # ``training = config.training``: the same sub-config
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    if made is None and len(stmt.targets) == 1 and self.value(stmt.value)[0] \
                            and target.id not in env and target.id not in self.consts:
                        self.consts[target.id] = self.value(stmt.value)[1]  # ``_image_size = 32``, bound once
                        continue
                    if made is None or target.id in self.consts:
                        raise _No("a name bound to no config, or a local bound twice")
                    env[target.id] = made
                    continue
                parent, key = self.slot(target, env)
                if made is not None:
                    parent[key] = made
                    continue
                ok, value = self.value(stmt.value)
                if ok and isinstance(value, dict) and all(isinstance(k, str) for k in value):
                    parent[key] = _tree(value, shown, stmt.lineno)  # a dict set on a ConfigDict becomes one
                elif ok and not isinstance(value, (dict, set)):
                    parent[key] = Leaf(value, shown, stmt.lineno, "ml_collections config")
                else:
                    parent.pop(key, None)  # ``config.device = torch.device(...)``: not known
        raise _No("no return")

    def filled(self, path: Path, tree: ast.Module, node: ast.AST, shown: Any) -> Optional[Tree]:
        """The keys of a sub-config made with its keys at once: ``ConfigDict({'a': 1})``, ``ConfigDict(dict(a=1))``,
        ``ConfigDict(initial_dictionary={...})``, ``dict(a=1)``, or a call ``d(a=1, b=2)`` of a helper of the file
        whose body returns its ``**kwargs`` as one (U-ViT's ``def d(**kwargs): return
        ml_collections.ConfigDict(initial_dictionary=kwargs)``). A key given no literal is left out (unknown); any
        other call is None (not followed)."""
        if not isinstance(node, ast.Call) or not isinstance(node.func, (ast.Name, ast.Attribute)):
            return None
        name = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
        given: Optional[list[tuple[Optional[str], ast.AST]]] = None
        if name in _CTORS:
            given = _ctor_items(node)
        elif isinstance(node.func, ast.Name) and not node.args and _kwargs_helper(tree, name):
            given = [(k.arg, k.value) for k in node.keywords]
        if given is None or any(k is None for k, _ in given):
            return None
        out: Tree = {}
        for key, value in given:
            assert key is not None
            sub = self.filled(path, tree, value, shown)
            if sub is not None:
                out[key] = sub
                continue
            ok, lit = self.value(value)
            line: int = getattr(value, "lineno", 0) or getattr(node, "lineno", 0)
            if ok and isinstance(lit, dict) and all(isinstance(k, str) for k in lit):
                out[key] = _tree(lit, shown, line)
            elif ok and not isinstance(lit, (dict, set)):
                out[key] = Leaf(lit, shown, line, "ml_collections config")
        return out

    @staticmethod
    def _path(node: ast.AST) -> Optional[tuple[str, tuple[str, ...]]]:
        got = keyed_chain(node)
        return None if got is None else (got[0].id, got[1])

    def slot_value(self, node: ast.AST, env: dict[str, Tree]) -> Any:
        got = self._path(node)
        if got is None or got[0] not in env:
            return None
        held: Any = env[got[0]]
        for key in got[1]:
            held = held.get(key) if isinstance(held, dict) else None
        return held

    def slot(self, target: ast.AST, env: dict[str, Tree]) -> tuple[Tree, str]:
        got = self._path(target)
        if got is None or got[0] not in env or not got[1]:
            raise _No("target")
        held: Any = env[got[0]]
        for key in got[1][:-1]:
            held = held.get(key) if isinstance(held, dict) else None
            if not isinstance(held, dict):
                raise _No("a step that is no config")
        return held, got[1][-1]


def _tree(value: dict, shown: Any, line: int) -> Tree:
    """A literal dict set on a ConfigDict: a sub-config of its keys, each read at the line it is written on."""
    out: Tree = {}
    for key, item in value.items():
        if isinstance(item, dict) and all(isinstance(k, str) for k in item):
            out[key] = _tree(item, shown, line)
        elif not isinstance(item, set):
            out[key] = Leaf(item, shown, line, "ml_collections config")
    return out


def _ctor_items(node: ast.Call) -> Optional[list[tuple[Optional[str], ast.AST]]]:
    """(key, value node) of ``ConfigDict({...})``, ``ConfigDict(dict(a=1))``, ``ConfigDict(initial_dictionary=
    {...})`` or ``dict(a=1)``; None for a call of another shape (a name, ``**kw``, two arguments)."""
    arg: Optional[ast.AST] = None
    if len(node.args) == 1 and not node.keywords:
        arg = node.args[0]
    elif not node.args and len(node.keywords) == 1 and node.keywords[0].arg == "initial_dictionary":
        arg = node.keywords[0].value
    elif not node.args and node.keywords:
        return [(k.arg, k.value) for k in node.keywords]  # ``dict(a=1)``; ``**kw`` gives a None key: refused
    if isinstance(arg, ast.Dict):
        if not all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in arg.keys):
            return None
        return [(k.value, v) for k, v in zip(arg.keys, arg.values)]  # type: ignore[union-attr]
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id == "dict" and not arg.args:
        return [(k.arg, k.value) for k in arg.keywords]
    return None


def _kwargs_helper(tree: ast.Module, name: str) -> bool:
    """``def d(**kwargs): [docstring] return ml_collections.ConfigDict(initial_dictionary=kwargs)`` (or
    ``ConfigDict(kwargs)``, ``dict(kwargs)``, ``dict(**kwargs)``) at module level: a call returns its keywords."""
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef) or fn.name != name:
            continue
        a = fn.args
        if a.args or a.posonlyargs or a.kwonlyargs or a.vararg or a.kwarg is None or fn.decorator_list:
            return False
        body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(body[0].value, ast.Call):
            return False
        call, kw = body[0].value, a.kwarg.arg
        f = call.func
        ctor = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        if ctor not in _CTORS:
            return False
        if len(call.args) == 1 and not call.keywords:
            return isinstance(call.args[0], ast.Name) and call.args[0].id == kw
        if not call.args and len(call.keywords) == 1:
            k = call.keywords[0]
            return k.arg in ("initial_dictionary", None) and isinstance(k.value, ast.Name) and k.value.id == kw
        return False
    return False


def _flag_names(tree: ast.Module) -> list[tuple[str, Optional[str]]]:
    """(name, default file) of each ``config_flags.DEFINE_config_file("config", "configs/x.py", ...)`` of the entry
    (the default: the second argument or ``default=``, when a string)."""
    out: list[tuple[str, Optional[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "DEFINE_config_file" and node.args \
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            default = node.args[1] if len(node.args) > 1 else next(
                (k.value for k in node.keywords if k.arg == "default"), None)
            given = default.value if isinstance(default, ast.Constant) and isinstance(default.value, str) else None
            out.append((node.args[0].value, given))
    return out


def _flags_name(tree: ast.Module) -> Optional[str]:
    """The module-level name bound to ``flags.FLAGS`` (``FLAGS = flags.FLAGS``)."""
    names = [n.targets[0].id for n in tree.body if isinstance(n, ast.Assign) and len(n.targets) == 1
             and isinstance(n.targets[0], ast.Name) and isinstance(n.value, ast.Attribute)
             and n.value.attr == "FLAGS"]
    return names[0] if len(names) == 1 else None


def _given(argv: list[str], name: str) -> tuple[Optional[str], list[tuple[list[str], str, str]]]:
    """(the file the line gives ``--name``, the ``--name.a.b=value`` overrides as (keys, raw, token))."""
    path: Optional[str] = None
    overrides: list[tuple[list[str], str, str]] = []
    i = 0
    while i < len(argv):
        tok = argv[i]
        if tok in (f"--{name}", f"-{name}") and i + 1 < len(argv):
            path = argv[i + 1]
            i += 2
            continue
        if tok.startswith((f"--{name}=", f"-{name}=")):
            path = tok.split("=", 1)[1]
        elif tok.startswith((f"--{name}.", f"-{name}.")):
            key, eq, raw = tok.lstrip("-").partition("=")
            if not eq and i + 1 < len(argv):
                raw, i = argv[i + 1], i + 1
            overrides.append((key.split(".")[1:], raw, tok))
        i += 1
    return path, overrides


def mlc_roots(project: Any, script: Any, modules: Modules, argv: list[str], combined: Tree,
              scopes: dict[int, dict[str, tuple]], note: Any = None) -> None:
    """Add ``FLAGS`` -> {name: the config file's tree} for each ``DEFINE_config_file(name)`` of the entry."""
    tree = script.tree
    if not isinstance(tree, ast.Module) or "DEFINE_config_file" not in script.source.text:
        return
    flags = _flags_name(tree)
    if flags is None:
        return
    root = Path(str(project.root)) if getattr(project, "root", None) else Path(str(script.source.path)).parent
    found: Tree = {}
    for name, default in _flag_names(tree):
        given, overrides = _given(argv, name)
        given = given if given is not None else default  # ``DEFINE_config_file("config", "configs/base.py")``
        if given is None:
            continue
        if ":" in given:
            if note is not None:
                note(f"--{name} {given}: a config file with an argument (get_config(arg)) is not read")
            continue
        path = (root / given) if not Path(given).is_absolute() else Path(given)
        builder = _Builder(root, lambda p: modules._show(p))
        try:
            parsed = _parse(path) if path.suffix == ".py" and path.is_file() else None
            if parsed is None:
                if note is not None:
                    note(f"--{name} {given}: no readable Python config file there; its keys are not read")
                continue
            got = builder.function(path, parsed, "get_config")
            config = builder.build(*got) if got is not None else None
        except (_No, RecursionError, OSError, ValueError):  # a path the system refuses: not read, no traceback
            config = None
        if config is None:
            if note is not None:
                note(f"--{name} {given}: get_config() is not a builder of literal keys; its keys are not read")
            continue
        for keys, raw, token in overrides:
            try:
                ok, value = True, ast.literal_eval(raw)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                ok, value = False, None
            held: Any = config
            for key in keys[:-1]:
                held = held.setdefault(key, {}) if isinstance(held, dict) else None
            if isinstance(held, dict) and keys:
                held[keys[-1]] = Leaf(value if ok else raw, "", None, "launch line", token)
        found[name] = config
    if found:
        combined[flags] = found
        scopes.setdefault(id(tree), {})[flags] = (flags,)
