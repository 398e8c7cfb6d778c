"""A project's own configuration object, with its values: the class's literal defaults, the
keywords it is built with, attributes assigned in a builder function, and the launch line's
updates. Real shapes (each pinned by a test in ``tests/test_config_object.py``):

* meta-llama/llama-cookbook ``src/llama_cookbook/finetuning.py:89-90`` (0e00335):
  ``train_config, fsdp_config = TRAIN_CONFIG(), FSDP_CONFIG()`` (dataclasses of
  ``configs/training.py``/``configs/fsdp.py`` re-exported by ``configs/__init__.py``), then
  ``update_config((train_config, fsdp_config), **kwargs)`` from ``fire.Fire(main)``: the launch
  line's ``--key value`` sets every object that has the field (``update_config`` is a local
  function that calls ``setattr``);
* karpathy/minGPT ``projects/chargpt/chargpt.py:18-38,89-90`` (37baab7): ``C = CN(); C.trainer =
  Trainer.get_default_config(); C.model.model_type = 'gpt-mini'; return C`` then
  ``config.merge_from_args(sys.argv[1:])`` with ``--trainer.batch_size=32``;
* CarperAI/trlx ``examples/hh/ppo_hh.py:27-41`` (a literal tree of nested config classes:
  ``TRLConfig(train=TrainConfig(seq_length=1024, batch_size=4), ...)``);
* huggingface/accelerate ``examples/nlp_example.py:200-205``: ``config = {"lr": 2e-5, ...,
  "batch_size": 16}`` handed to ``training_function(config, args)``.

The value tree is a nested dict of :class:`Leaf` (value + where it was set); what the code then
does with the object (across calls into the project's own functions and classes) is read by
:mod:`preflight.adapters.config_object_reads`. Nothing is imported or executed; an expression
that is not a literal, a project config class, a builder of one or a dict literal leaves the
key unknown (never guessed).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from preflight.analysis.syntax import dotted_name, keyed_chain
from preflight.local_trees import parse_file

_MAX_BYTES = 500_000
_MAX_MODULES = 40
_DEPTH = 4
_LEVELS = 3  # imports followed: the script's, theirs, and theirs


@dataclass
class Leaf:
    value: Any
    file: str  # display path ("" for the launch line)
    line: Optional[int]
    how: str  # "class default", "constructor keyword", "assigned", "launch line"
    key: Optional[str] = None  # the flag as the launch line gives it, when known


class Enum:
    """A class attribute default that names an enum member (``ShardingStrategy.FULL_SHARD``)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Enum) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)


Tree = dict  # str -> Leaf | Tree


class Namespace(dict):
    """The parsed options of the job (``args = parser.parse_args()``, the dataclasses of
    ``parse_args_into_dataclasses()``): a key is an option the job declares, its value the
    launch line's, else the declared default (:func:`preflight.adapters.cliargs.option_resolver`)."""

    def __init__(self, resolve: Any, display: str = "") -> None:
        super().__init__()
        self.resolve = resolve
        self.display = display
        self.memo: dict[str, Optional[Leaf]] = {}
        self.unset: Any = None  # name -> a Leaf argparse gives and the index does not (config_object_argv)
        self.raw: Any = None  # name -> the option's value before the script rewrites it (config_object_rewrites)

    def _leaf(self, key: object) -> Optional[Leaf]:
        if not isinstance(key, str):
            return None
        if key not in self.memo:
            got = self.resolve(key)
            if got is None:
                self.memo[key] = None
            elif got.kind == "cli":
                self.memo[key] = Leaf(got.value, "", None, "launch line", got.key)
            else:
                self.memo[key] = Leaf(got.value, self.display if got.line else "", got.line,
                                      f"declared default: {got.detail}")
        return self.memo[key]

    def __contains__(self, key: object) -> bool:
        return self._leaf(key) is not None

    def __getitem__(self, key: Any) -> Any:
        got = self._leaf(key)
        if got is None:
            raise KeyError(key)
        return got

    def get(self, key: Any, default: Any = None) -> Any:
        got = self._leaf(key)
        return default if got is None else got


def _parse(path: Path) -> Optional[ast.Module]:
    """The module's tree from the process's shared parses (:mod:`preflight.local_trees`:
    parsed once while the file is unchanged), or None when it is too large or does not parse."""
    try:
        if path.stat().st_size > _MAX_BYTES:
            return None
        return parse_file(path)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _top_imports(tree: ast.Module) -> list[ast.stmt]:
    """The module's imports at its top level, and under a top-level ``if``/``try`` (not those
    inside functions: walking every node of 40 modules is what an audit must not pay for)."""
    out: list[ast.stmt] = []
    stack: list[ast.stmt] = list(tree.body)
    while stack:
        node = stack.pop(0)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.append(node)
        elif isinstance(node, ast.If):
            stack.extend(node.body + node.orelse)
        elif isinstance(node, ast.Try):
            stack.extend(node.body + node.orelse + node.finalbody)
            for h in node.handlers:
                stack.extend(h.body)
    return out


def _bases(script: Path) -> list[Path]:
    """The script's folder and those above it up to the repository root (``.git``, at most 5
    levels), and ``src/`` of each: where a project's own package is found."""
    bases: list[Path] = []
    d = script.resolve().parent
    for _ in range(5):
        bases.append(d)
        if (d / ".git").exists() or d.parent == d:
            break
        d = d.parent
    return bases + [b / "src" for b in bases if (b / "src").is_dir()]


class Modules:
    """The script and the project modules it imports (two levels deep), read, never imported."""

    def __init__(self, script: Path, tree: ast.Module, display: str, root: Optional[Path] = None,
                 extra: Optional[list[Path]] = None) -> None:
        self.root = root
        self.trees: list[tuple[str, Path, ast.Module]] = [(display, script.resolve(), tree)]
        self.bases = _bases(script)
        self.top = [b for b in self.bases if b.name != "src" or b.parent not in self.bases][-1]
        from preflight.adapters.self_package import self_package_root

        self.package = self_package_root(script, tree)  # the root imported by its own name (self_package.py)
        seen = {script.resolve()}
        frontier = [(script.resolve(), tree)]
        for more in extra or []:
            t = _parse(more)
            if t is not None and more.resolve() not in seen:
                seen.add(more.resolve())
                self.trees.append((self._show(more), more.resolve(), t))
                frontier.append((more.resolve(), t))
        for _ in range(_LEVELS):
            nxt = []
            for path, t in frontier:
                for cand in self._imports(path, t):
                    if cand in seen or len(self.trees) >= _MAX_MODULES:
                        continue
                    seen.add(cand)
                    parsed = _parse(cand)
                    if parsed is not None:
                        self.trees.append((self._show(cand), cand, parsed))
                        nxt.append((cand, parsed))
            frontier = nxt
        self.classes: dict[str, list[tuple[str, ast.ClassDef]]] = {}
        self.functions: dict[str, list[tuple[str, ast.FunctionDef, Optional[ast.ClassDef]]]] = {}
        self.aliases: dict[str, str] = {}
        for shown, _, t in self.trees:
            for node in t.body:
                if isinstance(node, ast.ClassDef):
                    self.classes.setdefault(node.name, []).append((shown, node))
                    for item in node.body:
                        if isinstance(item, ast.FunctionDef):
                            self.functions.setdefault(item.name, []).append((shown, item, node))
                elif isinstance(node, ast.FunctionDef):
                    self.functions.setdefault(node.name, []).append((shown, node, None))
            for sub in _top_imports(t):
                if isinstance(sub, ast.ImportFrom):
                    for a in sub.names:
                        if a.asname and a.asname != a.name:
                            self.aliases.setdefault(a.asname, a.name)
        for _, _, t in self.trees:
            # an import inside a function of a class or function of the project under another name
            # (facebookresearch/drqv2 @ c0c650b train.py:208-210: ``def main(cfg): from train import Workspace
            # as W; workspace = W(cfg)``, the entry importing itself)
            for inner in ast.walk(t):
                if isinstance(inner, ast.ImportFrom) and inner not in t.body:
                    for a in inner.names:
                        if a.asname and a.asname != a.name and (a.name in self.classes or a.name in self.functions):
                            self.aliases.setdefault(a.asname, a.name)

    def _show(self, path: Path) -> str:
        import os

        return os.path.relpath(path, self.root if self.root is not None else self.top)

    def _imports(self, path: Path, tree: ast.Module) -> list[Path]:
        out: list[Path] = []
        for node in _top_imports(tree):
            mods: list[str] = []
            bases = self.bases
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                mods = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level:
                up = path.parent
                for _ in range(node.level - 1):
                    up = up.parent
                bases = [up]
                prefix = node.module or ""
                mods = ([prefix] if prefix else []) + [f"{prefix}.{a.name}".lstrip(".") for a in node.names]
            elif isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                from preflight.adapters.foreign_sibling import foreign_sibling

                sibling = foreign_sibling(node.module, path.parent, bases)  # SlowFast's vision.fair.slowfast.tools
                if sibling is not None:
                    out.append(sibling.resolve())
                    mods = []
            for mod in mods:
                rel = mod.replace(".", "/")
                for base in bases:
                    for cand in (base / f"{rel}.py", base / rel / "__init__.py"):
                        try:
                            if cand.is_file():
                                out.append(cand.resolve())
                                break
                        except OSError:
                            continue
                    else:
                        continue
                    break
                else:
                    inside = self._in_package(rel) if bases is self.bases else None
                    if inside is not None:  # ``from pseudoESM.trainer import Trainer`` (self_package.py)
                        out.append(inside.resolve())
        return out

    def _in_package(self, rel: str) -> Optional[Path]:
        from preflight.adapters.self_package import self_package_rest

        return self_package_rest(rel, self.package, self.bases)

    def function_in(self, name: str, shown: str, depth: int = 0
                    ) -> Optional[tuple[str, ast.FunctionDef, Optional[ast.ClassDef]]]:
        """The module-level function ``name`` as the module ``shown`` sees it: its own ``def``, else the
        one its ``from M import f [as name]`` names (through a package's ``__init__`` re-export, 3 deep).
        Two modules defining a function of the same name (Swin ``data/__init__.py`` ``build_loader``
        wrapping ``data/build.py``'s, imported as ``_build_loader``) are told apart this way."""
        got = next(((p, t) for s, p, t in self.trees if s == shown), None)
        if got is None or depth > 3:
            return None
        path, tree = got
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name == name:
                return shown, node, None
        for node in _top_imports(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            for a in node.names:
                if (a.asname or a.name) != name:
                    continue
                if node.level:
                    up = path.parent
                    for _ in range(node.level - 1):
                        up = up.parent
                    bases = [up]
                else:
                    bases = self.bases
                rel = (node.module or "").replace(".", "/")
                inside = self._in_package(rel) if not node.level and rel else None
                for base in bases:
                    for cand in ((base / f"{rel}.py", base / rel / "__init__.py") if rel else (base / "__init__.py",)):
                        target = next((s for s, p, _ in self.trees if p == cand.resolve()), None) \
                            if cand.is_file() else None
                        if target is not None:
                            return self.function_in(a.name, target, depth + 1)
                if inside is not None:
                    target = next((s for s, p, _ in self.trees if p == inside.resolve()), None)
                    if target is not None:
                        return self.function_in(a.name, target, depth + 1)
        return None

    def klass(self, name: str) -> Optional[tuple[str, ast.ClassDef]]:
        got = self.classes.get(name) or self.classes.get(self.aliases.get(name, ""))
        return got[0] if got and len({id(c) for _, c in got}) == 1 else None

    def klass_seen(self, name: str, shown: str) -> Optional[tuple[str, ast.ClassDef]]:
        """``klass``, or where several modules define ``name``, the one the module ``shown`` means by it: its
        own class, else the module it imports the name from (mindslab-ai/nuwave @ 88aba86: ``trainer.py:1``
        ``from lightning_model import NuWave``, while ``model.py`` defines another ``NuWave``)."""
        got = self.klass(name)
        if got is not None:
            return got
        tree = next((t for s, _, t in self.trees if s == shown), None)
        if tree is None:
            return None
        own = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name]
        if own:
            return (shown, own[0]) if len(own) == 1 else None
        froms = [(sub.module, a.name) for sub in _top_imports(tree) if isinstance(sub, ast.ImportFrom)
                 and sub.module and not sub.level for a in sub.names if (a.asname or a.name) == name]
        if len(froms) != 1:
            return None
        module, real = froms[0]
        rel = module.replace(".", "/")

        inside = self._in_package(rel)
        inside_shown = next((s for s, p, _ in self.trees if p == inside.resolve()), None) if inside else None

        def names(shown_path: str) -> bool:
            if shown_path == inside_shown:
                return True
            stem = Path(shown_path).with_suffix("").as_posix()
            stem = stem[:-len("/__init__")] if stem.endswith("/__init__") else stem
            return stem == rel or stem.endswith(f"/{rel}")

        found = [(s, c) for s, c in self.classes.get(real, []) if names(s)]
        return found[0] if len(found) == 1 else None

    def function(self, name: str, owner: Optional[str] = None
                 ) -> Optional[tuple[str, ast.FunctionDef, Optional[ast.ClassDef]]]:
        name = self.aliases.get(name, name) if name not in self.functions else name
        got = [f for f in self.functions.get(name, []) if owner is None or (f[2] is not None and f[2].name == owner)]
        if owner is None:
            got = [f for f in got if f[2] is None] or got
        return got[0] if len(got) == 1 else None


def _literal(node: Optional[ast.AST]) -> tuple[bool, Any]:
    if node is None:
        return False, None
    try:
        return True, ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        return False, None


def _name(node: ast.AST) -> str:
    return dotted_name(node) or ""


class Builder:
    """Evaluates the expressions that build a config object into a :data:`Tree`."""

    def __init__(self, modules: Modules, argv: Optional[list[str]] = None) -> None:
        self.m = modules
        self.argv = argv  # the launch line's options, for a class built from them (``config_object_pydantic``)

    def class_tree(self, shown: str, cls: ast.ClassDef, depth: int = 0) -> Tree:
        out: Tree = {}
        if depth > _DEPTH:
            return out
        for base in cls.bases:  # inherited defaults first
            got = self.m.klass(_name(base).rsplit(".", 1)[-1])
            if got is not None and got[1] is not cls:
                out.update(self.class_tree(got[0], got[1], depth + 1))
        from preflight.adapters.config_object_init_attrs import init_attrs

        for key, (lit, line) in init_attrs(cls).items():  # ``def __init__(self): self.batch_size = [8, 4][0]``
            out[key] = Leaf(lit, shown, line, "assigned in __init__")
        for stmt in cls.body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                key, value = stmt.target.id, stmt.value
            elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                key, value = stmt.targets[0].id, stmt.value
            else:
                continue
            if key.startswith("_") or value is None:
                continue
            if isinstance(value, ast.Call) and _name(value.func).rsplit(".", 1)[-1] in ("field", "Field", "ib", "attrib"):
                kw = {k.arg: k.value for k in value.keywords if k.arg}
                if "default" in kw:
                    value = kw["default"]
                elif "default_factory" in kw or "factory" in kw:
                    factory = kw.get("default_factory", kw.get("factory"))
                    got = self.m.klass(_name(factory).rsplit(".", 1)[-1]) if factory is not None else None
                    if got is not None:
                        out[key] = self.class_tree(got[0], got[1], depth + 1)
                    continue
                elif value.args:
                    value = value.args[0]
                else:
                    continue
            got_value = self.value(value, shown, depth + 1, how="class default")
            member = self.member(value)
            if got_value is not None:
                out[key] = got_value
            elif member is not None:  # OLMo ``distributed_strategy = DistributedStrategy.fsdp`` (a StrEnum)
                out[key] = Leaf(member, shown, stmt.lineno, "class default")
            elif isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) \
                    and value.value.id[:1].isupper() and value.attr.isupper():
                out[key] = Leaf(Enum(f"{value.value.id}.{value.attr}"), shown, stmt.lineno, "class default")
        return out

    def member(self, node: ast.AST) -> Any:
        """The literal value of ``Cls.member`` with ``Cls`` a project enum (a class with an ``*Enum`` base
        whose member is assigned a literal), else None."""
        if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
            return None
        got = self.m.klass(node.value.id)
        if got is None or not any("Enum" in _name(b) for b in got[1].bases):
            return None
        for stmt in got[1].body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                    and stmt.targets[0].id == node.attr:
                ok, lit = _literal(stmt.value)
                return lit if ok and isinstance(lit, (str, int)) else None
        return None

    def value(self, node: ast.AST, shown: str, depth: int = 0, how: str = "assigned") -> Any:
        """A Leaf, a Tree, or None (unknown)."""
        if depth > _DEPTH:
            return None
        if isinstance(node, ast.Dict):
            tree: Tree = {}
            for k, v in zip(node.keys, node.values):
                if isinstance(k, ast.Constant) and isinstance(k.value, str):
                    got = self.value(v, shown, depth + 1, how)
                    if got is not None:
                        tree[k.value] = got
            return tree
        ok, lit = _literal(node)
        if ok:
            return Leaf(lit, shown, getattr(node, "lineno", None), how)
        if isinstance(node, ast.Call):
            return self.call(node, shown, depth)
        return None

    def call(self, call: ast.Call, shown: str, depth: int = 0) -> Optional[Tree]:
        """The tree of ``Cls(...)`` (a project config class), ``builder()`` or ``Cls.builder()``."""
        name = _name(call.func)
        if not name or depth > _DEPTH:
            return None
        last = name.rsplit(".", 1)[-1]
        if name in ("dict",) and not call.args:
            return {k.arg: v for k in call.keywords if k.arg
                    for v in [self.value(k.value, shown, depth + 1, "constructor keyword")] if v is not None}
        got = self.m.klass(last) if "." not in name or last[:1].isupper() else None
        if got is not None:
            if self.argv is not None:
                from preflight.adapters.config_object_pydantic import argv_tree, parse_argv_spread

                if parse_argv_spread(call, self.m.trees[0][2]):  # ``Config(**parse_argv())``
                    return argv_tree(self.class_tree(got[0], got[1], depth + 1), self.argv)
            if call.args or any(kw.arg is None for kw in call.keywords):
                return None  # positional or ``**mapping`` arguments: which field gets what is not read
            tree = self.class_tree(got[0], got[1], depth + 1)
            for kw in call.keywords:
                sub = self.value(kw.value, shown, depth + 1, "constructor keyword")
                if sub is not None:
                    tree[kw.arg] = sub
                else:
                    tree.pop(str(kw.arg), None)  # given, but not a value read here: unknown, not the default
            return tree
        owner = name.rsplit(".", 1)[0] if "." in name else None
        fn = self.m.function(last, owner if owner and owner[:1].isupper() else None)
        if fn is None or (fn[1].args.args and not (fn[2] is not None and _static(fn[1]))):
            return None
        return self.built(fn[0], fn[1], depth + 1)

    def built(self, shown: str, fn: ast.FunctionDef, depth: int) -> Optional[Tree]:
        """A builder: ``C = X(); C.a = ...; C.b.c = ...; return C`` (statements at its top level)."""
        returned = [s.value for s in fn.body if isinstance(s, ast.Return) and s.value is not None]
        if len(returned) != 1 or not isinstance(returned[0], ast.Name):
            return None
        var = returned[0].id
        tree: Optional[Tree] = None
        for stmt in fn.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target = stmt.targets[0]
                if isinstance(target, ast.Name) and target.id == var:
                    got = self.value(stmt.value, shown, depth + 1)
                    tree = got if isinstance(got, dict) else None
                    if tree is None:
                        return None
                elif tree is not None:
                    path = attr_path(target, var)
                    if path:
                        got = self.value(stmt.value, shown, depth + 1)
                        assign(tree, path, got)
        return tree


def _static(fn: ast.FunctionDef) -> bool:
    return any(_name(d) in ("staticmethod", "classmethod") for d in fn.decorator_list) and \
        (not fn.args.args or any(_name(d) == "classmethod" for d in fn.decorator_list))


def attr_path(node: ast.AST, var: str) -> Optional[tuple]:
    """``var.a.b`` / ``var["a"]["b"]`` -> ("a", "b")."""
    got = keyed_chain(node)
    if got is not None and got[0].id == var and got[1]:
        return got[1]
    return None


def assign(tree: Tree, path: tuple, value: Any) -> None:
    """Set ``path`` in ``tree``; an unknown value (None) removes what was known there."""
    node = tree
    for part in path[:-1]:
        nxt = node.get(part)
        if not isinstance(nxt, dict):
            if value is None:
                return
            nxt = {}
            node[part] = nxt
        node = nxt
    if value is None and isinstance(node, Namespace):
        node.memo[path[-1]] = None  # an option the code sets itself: no longer the launch line's
    elif value is None:
        node.pop(path[-1], None)
    else:
        node[path[-1]] = value


def lookup(tree: Tree, path: tuple) -> Any:
    node: Any = tree
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def leaves(tree: Tree) -> int:
    return sum(leaves(v) if isinstance(v, dict) else 1 for v in tree.values())


def launch_options(argv: list[str]) -> list[tuple[str, Any]]:
    """``--key value`` / ``--key=value`` / bare ``--flag`` (True) of a launch line, as fire and
    ``merge_from_args`` read them (values through ``literal_eval``, else strings)."""
    out: list[tuple[str, Any]] = []
    i = 0
    while i < len(argv):
        tok = argv[i]
        if tok.startswith("--") and len(tok) > 2:
            key, eq, raw = tok[2:].partition("=")
            if not eq:
                if i + 1 < len(argv) and not argv[i + 1].startswith("--"):
                    raw = argv[i + 1]
                    i += 1
                else:
                    out.append((key.replace("-", "_"), True))
                    i += 1
                    continue
            ok, val = _literal_text(raw)
            out.append((key.replace("-", "_"), val if ok else raw))
        i += 1
    return out


def _literal_text(raw: str) -> tuple[bool, Any]:
    try:
        return True, ast.literal_eval(raw)
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        return False, None
