"""A yacs ``CfgNode`` configuration system, read without importing it, as a configuration object of
:mod:`preflight.adapters.config_object` (its keys then flow across the project's calls like any other
object's: :mod:`preflight.adapters.config_object_reads`). Real shapes, each pinned by a test in
``tests/test_config_object_yacs.py``:

* microsoft/Swin-Transformer (f82860b) ``config.py:16-245``: ``_C = CN(); _C.DATA = CN();
  _C.DATA.BATCH_SIZE = 128`` at module level, ``get_config(args)`` returning ``_C.clone()`` after
  ``update_config(config, args)``: ``merge_from_file(args.cfg)`` (the launch line's YAML, its ``BASE``
  files first), ``merge_from_list(args.opts)`` under ``if args.opts:``, then ``if _check_args('batch_size'):
  config.DATA.BATCH_SIZE = args.batch_size`` (``_check_args`` a nested function testing
  ``hasattr(args, name) and eval(f'args.{name}')``); ``main.py:36-87,303``: ``args, config = parse_option()``
  (a helper that returns the parsed options and the config together);
* facebookresearch/detectron2-style ``setup(args)``: ``cfg = get_cfg(); cfg.merge_from_file(args.config_file);
  cfg.merge_from_list(args.opts); cfg.freeze(); return cfg`` (the library's defaults are not known: only the
  YAML's keys and those the code sets are);
* STVIR/pysot ``tools/train.py``: ``from pysot.core.config import cfg`` (a module-level ``CN()`` of the
  project) then ``cfg.merge_from_file(args.cfg)`` in ``main()``.

The code is interpreted, never executed: literals, the job's options (the launch line's value, else the
declared default), ``if`` tests those decide (an undecided ``if`` makes what it assigns unknown), calls of
the project's own functions (their parameters bound to the call's arguments, 5 deep). Anything else
leaves a key unknown, never guessed.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.config_object import (
    Leaf,
    Modules,
    Namespace,
    Tree,
    assign,
    attr_path,
    lookup,
)

from preflight.analysis.syntax import dotted_name

_CN = ("CN", "CfgNode", "ConfigNode")
_NOOP = ("defrost", "freeze", "set_new_allowed", "register_deprecated_key", "register_renamed_key")
_DEPTH = 5
_BASES = ("BASE", "_BASE_")
_MISSING = object()
_MAX_STEPS = 3000


def _dotted(node: ast.AST) -> str:
    return dotted_name(node) or ""


def _copy(tree: Tree) -> Tree:
    return {k: _copy(v) if isinstance(v, dict) and not isinstance(v, Namespace) else v for k, v in tree.items()}


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Leaf) else value


def _option(args: Namespace, name: str) -> Any:
    """``args.<name>``: what argparse gives that the option index does not (None for an option declared
    without a default and not given, the tokens of an ``nargs`` option) first, else the index's value."""
    got = args.unset(name) if args.unset is not None else None
    return got if got is not None else args.get(name)


class _Return(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


class Yacs:
    """Interprets the project code that builds a ``CfgNode`` (see the module's docstring)."""

    def __init__(self, modules: Modules, namespace: Optional[Namespace], project: Any, argv: list[str]) -> None:
        self.m = modules
        self.namespace = namespace
        self.project = project
        self.argv = argv
        self.found = False  # a CfgNode was built or merged: only then is a result a config object
        self._module_cn: dict[tuple[str, str], Optional[Tree]] = {}
        self._misses: set[str] = set()
        self.running: list[ast.FunctionDef] = []  # project functions being run, one inside another
        self.steps = 0  # statements interpreted (bounded: the audit's cost must not grow with the project)
        self.enabled = any(isinstance(stmt, ast.Assign) and self._is_cn(stmt.value)
                           for _, _, tree in modules.trees for stmt in tree.body) or self._merges_in_entry()

    def _merges_in_entry(self) -> bool:
        from preflight.sources import read_text_limited

        try:
            return "merge_from_file" in read_text_limited(self.m.trees[0][1], errors="replace")
        except (OSError, ValueError):
            return False

    # -- module-level ``_C = CN(); _C.A.B = 1`` -------------------------------------------------------

    def module_node(self, name: str) -> Optional[Tree]:
        """The tree of the project's module-level ``name = CN()`` (one module defines it), or None."""
        if name in self._misses:
            return None
        real = self.m.aliases.get(name, name)
        hits = []
        for shown, _, tree in self.m.trees:
            cns = {s.targets[0].id for s in tree.body if isinstance(s, ast.Assign) and len(s.targets) == 1
                   and isinstance(s.targets[0], ast.Name) and self._is_cn(s.value)}
            for stmt in tree.body:
                if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                        and isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id in (name, real)):
                    continue
                if self._is_cn(stmt.value):
                    hits.append((shown, tree, stmt.targets[0].id))
                    break
                if isinstance(stmt.value, ast.Name) and stmt.value.id in cns:
                    # ``_C = CfgNode(); cfg = _C`` (pycls ``pycls/core/config.py:17-18``): the same node
                    hits.append((shown, tree, stmt.value.id))
                    break
        if len({id(t) for _, t, _ in hits}) != 1:
            self._misses.add(name)
            return None
        shown, tree, var = hits[0]
        key = (shown, var)
        if key not in self._module_cn:
            self._module_cn[key] = self._module_tree(shown, tree, var)
        return self._module_cn[key]

    def _is_cn(self, node: ast.AST) -> bool:
        return isinstance(node, ast.Call) and _dotted(node.func).rsplit(".", 1)[-1] in _CN and not node.args

    def _module_tree(self, shown: str, tree: ast.Module, var: str) -> Tree:
        out: Tree = {}
        self.found = True
        for stmt in tree.body:
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
                continue
            path = attr_path(stmt.targets[0], var)
            if not path:
                continue
            if self._is_cn(stmt.value):
                if not isinstance(lookup(out, path), dict):
                    assign(out, path, {})
                continue
            try:
                value: Any = Leaf(ast.literal_eval(stmt.value), shown, stmt.lineno, "yacs default")
            except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
                value = None
            assign(out, path, value)
        return out

    # -- files and lists merged in -----------------------------------------------------------------------

    def merge_file(self, tree: Tree, raw: Any, depth: int = 0) -> bool:
        """``merge_from_file(raw)``: the YAML's keys over ``tree`` (its ``BASE``/``_BASE_`` files first);
        False when the file is not known (the tree is then unknown as a whole)."""
        from preflight.adapters.config_object_files import _load, _merge, _to_tree

        if not isinstance(raw, str) or not raw or depth > 3 or self.project is None:
            return False
        root = Path(str(self.project.root))
        cands = [Path(raw)] if Path(raw).is_absolute() else [root / raw, self.m.trees[0][1].parent / raw]
        for cand in cands:
            try:
                if cand.is_file() and self.project.may_read(cand):
                    break
            except OSError:
                continue
        else:
            return False
        loaded = _load(self.project, cand, root)
        if loaded is None or not isinstance(loaded.data, dict):
            return False
        for key in _BASES:
            bases = loaded.data.get(key)
            for base in [bases] if isinstance(bases, str) else bases if isinstance(bases, list) else []:
                if isinstance(base, str) and base and not self.merge_file(tree, str(cand.parent / base), depth + 1):
                    return False
        over = _to_tree({k: v for k, v in loaded.data.items() if k not in _BASES}, loaded.lines, loaded.path, ())
        _merge(tree, over if isinstance(over, dict) else {})
        self.found = True
        return True

    def merge_list(self, tree: Tree, value: Any) -> bool:
        """``merge_from_list(opts)``: ``KEY VALUE`` pairs (values through ``literal_eval`` as yacs does)."""
        if value is None:
            return False  # not known (a positional ``opts`` of argparse.REMAINDER, a library's parser)
        items = _plain(value)
        if items is None or items == [] or items == ():
            return True
        if not isinstance(items, (list, tuple)) or len(items) % 2:
            return False
        for key, raw in zip(items[::2], items[1::2]):
            if not isinstance(key, str):
                return False
            try:
                val = ast.literal_eval(raw) if isinstance(raw, str) else raw
            except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
                val = raw
            src = value if isinstance(value, Leaf) else None
            assign(tree, tuple(key.split(".")), Leaf(val, src.file if src else "", src.line if src else None,
                                                     "launch line", src.key if src else None))
        return True

    # -- the interpreter -------------------------------------------------------------------------------

    def call_value(self, call: ast.Call, env: dict, shown: str, depth: int = 0) -> Any:
        """The value ``call`` returns (a tree, the options, a tuple of them, a Leaf), or None."""
        return self.expr(call, env, shown, depth) if self.enabled else None

    def run(self, shown: str, fn: ast.FunctionDef, call: ast.Call, env: dict, depth: int,
            closure: Optional[dict] = None) -> Any:
        if len(self.running) >= _DEPTH:
            return None
        params = fn.args.args
        local: dict[str, Any] = dict(closure or {})
        defaults = [None] * (len(params) - len(fn.args.defaults)) + list(fn.args.defaults)
        for p, d in zip(params, defaults):
            local[p.arg] = self.expr(d, {}, shown, depth + 1) if d is not None else None
        for p, a in zip(params, call.args):
            if isinstance(a, ast.Starred):
                return None
            local[p.arg] = self.expr(a, env, shown, depth + 1)
        names = {p.arg for p in params}
        for kw in call.keywords:
            if kw.arg is None:
                return None
            if kw.arg in names:
                local[kw.arg] = self.expr(kw.value, env, shown, depth + 1)
        self.running.append(fn)
        try:
            self.body(fn.body, local, shown, depth + 1, True)
        except _Return as r:
            return r.value
        finally:
            self.running.pop()
        return None

    def body(self, stmts: list[ast.stmt], env: dict, shown: str, depth: int, sure: bool) -> None:
        for stmt in stmts:
            self.stmt(stmt, env, shown, depth, sure)

    def stmt(self, stmt: ast.stmt, env: dict, shown: str, depth: int, sure: bool) -> None:
        self.steps += 1
        if self.steps > _MAX_STEPS:
            raise _Return(None)
        if isinstance(stmt, ast.Return):
            if not sure:
                raise _Return(None)
            raise _Return(self.expr(stmt.value, env, shown, depth) if stmt.value is not None else None)
        if isinstance(stmt, ast.FunctionDef):
            env[stmt.name] = ("def", stmt, env)
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            self.assign(stmt.targets[0], stmt.value, env, shown, depth, sure)
        elif isinstance(stmt, ast.AugAssign):
            self.augment(stmt, env, shown, depth, sure)
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            self.effect(stmt.value, env, shown, depth, sure)
        elif isinstance(stmt, ast.If):
            decided = self.test(stmt.test, env, shown, depth) if sure else None
            if decided is None:
                self.body(stmt.body, env, shown, depth, False)
                self.body(stmt.orelse, env, shown, depth, False)
            else:
                self.body(stmt.body if decided else stmt.orelse, env, shown, depth, sure)
        elif isinstance(stmt, (ast.With, ast.Try)):
            for item in getattr(stmt, "items", []):  # ``with pathmgr.open(cfg_file) as f``: ``f`` is that file
                call = item.context_expr
                if isinstance(call, ast.Call) and _dotted(call.func).rsplit(".", 1)[-1] == "open" and call.args \
                        and isinstance(item.optional_vars, ast.Name):
                    env[item.optional_vars.id] = ("opened", call.args[0])
            self.body(stmt.body, env, shown, depth, sure)
        elif isinstance(stmt, (ast.For, ast.While, ast.AsyncFor)):
            self.body(stmt.body + stmt.orelse, env, shown, depth, False)

    def assign(self, target: ast.AST, value: ast.AST, env: dict, shown: str, depth: int, sure: bool) -> None:
        if isinstance(target, ast.Name):
            env[target.id] = self.expr(value, env, shown, depth) if sure else None
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            got = self.expr(value, env, shown, depth) if sure else None
            elts = target.elts
            for i, t in enumerate(elts):
                if isinstance(t, ast.Name):
                    env[t.id] = got[i] if isinstance(got, tuple) and len(got) == len(elts) else None
            return
        base = target
        while isinstance(base, (ast.Attribute, ast.Subscript)):
            base = base.value
        tree = self._node(base.id, env, False) if isinstance(base, ast.Name) else None
        path = attr_path(target, base.id) if tree is not None and isinstance(base, ast.Name) else None
        if tree is not None and path:
            got = self.expr(value, env, shown, depth) if sure else None
            if isinstance(got, Leaf) and got.how == "literal":
                got = Leaf(got.value, shown, getattr(value, "lineno", None), "assigned")
            assign(tree, path, got if isinstance(got, (Leaf, dict)) else None)

    def augment(self, stmt: ast.AugAssign, env: dict, shown: str, depth: int, sure: bool) -> None:
        """``cfg.SOLVER.BASE_LR *= cfg.NUM_SHARDS`` (SlowFast ``slowfast/config/defaults.py:1281-1284``): the key
        is the product when both numbers are known on a path that surely runs, else unknown."""
        if isinstance(stmt.target, ast.Name):
            env[stmt.target.id] = None
            return
        base: ast.expr = stmt.target
        while isinstance(base, (ast.Attribute, ast.Subscript)):
            base = base.value
        tree = self._node(base.id, env, False) if isinstance(base, ast.Name) else None
        path = attr_path(stmt.target, base.id) if tree is not None and isinstance(base, ast.Name) else None
        if tree is None or not path:
            return
        old, by = _plain(lookup(tree, path)), _plain(self.expr(stmt.value, env, shown, depth)) if sure else None
        new: Any = None
        if sure and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (old, by)):
            ops = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b}
            op = ops.get(type(stmt.op))
            new = Leaf(op(old, by), shown, stmt.lineno, "assigned") if op is not None else None
        assign(tree, path, new)

    def effect(self, call: ast.Call, env: dict, shown: str, depth: int, sure: bool) -> None:
        f = call.func
        if not self.enabled:
            return
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.attr in ("merge_from_file",
                                                                                       "merge_from_list"):
            tree = self._node(f.value.id, env)
            if tree is None:
                return
            arg = self.expr(call.args[0], env, shown, depth) if call.args else None
            ok = sure and (self.merge_file(tree, _plain(arg)) if f.attr == "merge_from_file"
                           else self.merge_list(tree, arg))
            if not ok:
                tree.clear()  # merged from what is not known: every key is unknown
            return
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.attr == "merge_from_other_cfg":
            # facebookresearch/pycls @ 5719de6 ``pycls/core/config.py:502-506`` ``load_cfg(cfg_file)``: ``with
            # pathmgr.open(cfg_file, "r") as f: _C.merge_from_other_cfg(_C.load_cfg(f))``, a merge_from_file
            tree = self._node(f.value.id, env)
            if tree is None:
                return
            inner = call.args[0] if len(call.args) == 1 else None
            handle = inner.args[0] if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) \
                and inner.func.attr == "load_cfg" and len(inner.args) == 1 else None
            opened = env.get(handle.id) if isinstance(handle, ast.Name) else None
            raw = self.expr(opened[1], env, shown, depth) if isinstance(opened, tuple) and len(opened) == 2 \
                and opened[0] == "opened" else None
            if not (sure and self.merge_file(tree, _plain(raw))):
                tree.clear()
            return
        if isinstance(f, ast.Attribute) and f.attr in _NOOP:
            return
        fn = self._project_fn(call)
        if fn is not None and any(fn[1] is r for r in self.running):
            return  # recursion: Swin's ``_update_config_from_file`` over the YAML's ``BASE`` files, which
            # merge_file reads itself
        if sure:
            self.expr(call, env, shown, depth)
        else:
            for a in call.args:  # a project function run under an undecided test: what it sets is unknown
                got = self.expr(a, env, shown, depth) if isinstance(a, ast.Name) else None
                if isinstance(got, dict) and not isinstance(got, Namespace) and self._project_fn(call):
                    got.clear()

    def _node(self, name: str, env: dict, open_unknown: bool = True) -> Optional[Tree]:
        got = env.get(name, _MISSING)
        if isinstance(got, dict) and not isinstance(got, Namespace):
            return got
        if got is _MISSING:
            got = self.module_node(name)
            if got is not None:
                env[name] = got
                return got
            return None
        if got is None and open_unknown:  # ``cfg = get_cfg()`` of a library: its defaults are not known, the YAML's keys are
            env[name] = {}
            return env[name]
        return None

    def _project_fn(self, call: ast.Call, env: Optional[dict] = None) -> Optional[tuple]:
        """The project function ``f(...)`` calls; with ``env``, also ``module.f(...)`` of a project module
        named ``module`` (pycls ``tools/run_net.py:13,40`` ``import pycls.core.config as config`` then
        ``config.load_cfg(args.cfg)``)."""
        func = call.func
        if env is not None and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and func.value.id not in env and self.module_node(func.value.id) is None:
            return self._module_fn(func.value.id, func.attr)
        name = func.id if isinstance(func, ast.Name) else ""
        got = self.m.function(name) if name else None
        return got if got is not None and got[2] is None else None

    def _module_fn(self, alias: str, name: str) -> Optional[tuple]:
        """``name`` defined at the top of the project module the entry imports as ``alias`` (``import
        pycls.core.config as config``; ``from pycls.core import config``), or None."""
        dotted = None
        for node in ast.walk(self.m.trees[0][2]):
            if isinstance(node, ast.Import):
                dotted = next((a.name for a in node.names if (a.asname or a.name) == alias), dotted)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                dotted = next((f"{node.module}.{a.name}" for a in node.names if (a.asname or a.name) == alias), dotted)
        if dotted is None:
            return None
        tail = "/" + dotted.replace(".", "/") + ".py"
        for shown, path, tree in self.m.trees:
            if not str(path).replace("\\", "/").endswith(tail):
                continue
            fn = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name), None)
            return (shown, fn, None) if fn is not None else None
        return None

    def expr(self, node: Optional[ast.AST], env: dict, shown: str, depth: int = 0) -> Any:
        if node is None or depth > 100:
            return None
        try:
            return Leaf(ast.literal_eval(node), shown, getattr(node, "lineno", None), "literal")
        except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
            pass
        if isinstance(node, ast.Name):
            got = env.get(node.id, _MISSING)
            if got is _MISSING:
                return self.module_node(node.id)
            return got
        if isinstance(node, ast.Tuple):
            return tuple(self.expr(e, env, shown, depth + 1) for e in node.elts)
        if isinstance(node, ast.Attribute):
            owner = self.expr(node.value, env, shown, depth + 1)
            if isinstance(owner, Namespace):
                return _option(owner, node.attr)
            if isinstance(owner, dict):
                return owner.get(node.attr)
            return None
        if isinstance(node, ast.JoinedStr):
            parts = []
            for v in node.values:
                got = v.value if isinstance(v, ast.Constant) else _plain(self.expr(v.value, env, shown, depth + 1)) \
                    if isinstance(v, ast.FormattedValue) and v.conversion == -1 and v.format_spec is None else None
                if not isinstance(got, (str, int)):
                    return None
                parts.append(str(got))
            return Leaf("".join(parts), shown, node.lineno, "literal")
        if isinstance(node, ast.Call):
            return self._call(node, env, shown, depth)
        return None

    def _call(self, node: ast.Call, env: dict, shown: str, depth: int) -> Any:
        f = node.func
        name = _dotted(f)
        last = name.rsplit(".", 1)[-1] if name else ""
        if isinstance(f, ast.Attribute) and f.attr == "clone" and not node.args:
            got = self.expr(f.value, env, shown, depth + 1)
            return _copy(got) if isinstance(got, dict) and not isinstance(got, Namespace) else None
        if last in _CN and not node.args:
            self.found = True
            return {}
        if last in ("parse_args", "parse_known_args") and isinstance(f, ast.Attribute) and self.namespace is not None:
            return self.namespace if last == "parse_args" else (self.namespace, None)
        if name in ("getattr", "hasattr") and len(node.args) >= 2:
            owner = self.expr(node.args[0], env, shown, depth + 1)
            key = _plain(self.expr(node.args[1], env, shown, depth + 1))
            if not isinstance(owner, (dict, Namespace)) or not isinstance(key, str):
                return None
            got = _option(owner, key) if isinstance(owner, Namespace) else owner.get(key)
            if name == "hasattr":
                return Leaf(True, "", None, "literal") if got is not None else None
            if got is None and len(node.args) > 2 and not isinstance(owner, Namespace):
                return self.expr(node.args[2], env, shown, depth + 1)
            return got
        if name == "eval" and len(node.args) == 1:  # ``eval(f'args.{name}')`` (Swin config.py:278)
            text = _plain(self.expr(node.args[0], env, shown, depth + 1))
            try:
                parsed = ast.parse(text, mode="eval").body if isinstance(text, str) and len(text) < 200 else None
            except SyntaxError:
                return None
            if isinstance(parsed, (ast.Attribute, ast.Name)):
                return self.expr(parsed, env, shown, depth + 1)
            return None
        if isinstance(f, ast.Name):
            local = env.get(f.id)
            if isinstance(local, tuple) and len(local) == 3 and local[0] == "def":
                return self.run(shown, local[1], node, env, depth + 1, local[2]) if node.args else None
            got = self._project_fn(node)
            if got is not None:
                return self.run(got[0], got[1], node, env, depth + 1)
        if isinstance(f, ast.Attribute):
            got = self._project_fn(node, env)
            if got is not None:
                return self.run(got[0], got[1], node, env, depth + 1)
        return None

    def test(self, node: ast.AST, env: dict, shown: str, depth: int) -> Optional[bool]:
        if isinstance(node, ast.BoolOp):
            got = [self.test(v, env, shown, depth) for v in node.values]
            stop = isinstance(node.op, ast.Or)
            if stop in got:
                return stop
            return None if None in got else not stop
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            inner = self.test(node.operand, env, shown, depth)
            return None if inner is None else not inner
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            op, right = node.ops[0], node.comparators[0]
            if isinstance(op, ast.In) and isinstance(node.left, ast.Constant):
                owner = self.expr(right, env, shown, depth)
                if isinstance(owner, Namespace) and isinstance(node.left.value, str):
                    return True if owner.get(node.left.value) is not None else None
                return None
            left = self.expr(node.left, env, shown, depth)
            if left is None:
                return None
            lv = _plain(left)
            if isinstance(op, (ast.Is, ast.IsNot)) and isinstance(right, ast.Constant) and right.value is None:
                return (lv is None) == isinstance(op, ast.Is)
            rv = self.expr(right, env, shown, depth)
            if not isinstance(rv, Leaf) or isinstance(lv, dict):
                return None
            if isinstance(op, ast.Eq):
                return lv == rv.value
            if isinstance(op, ast.NotEq):
                return lv != rv.value
            return None
        got = self.expr(node, env, shown, depth)
        if isinstance(got, Leaf):
            return bool(got.value)
        return None
