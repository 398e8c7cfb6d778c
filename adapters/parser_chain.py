"""An argparse parser that a script's framework builds and parses for it, found by following the
script's calls (nothing is imported or run): Megatron-style entry points (Megatron-LM ``pretrain_gpt.py``,
Megatron-DeepSpeed, epfLLM/Megatron-LLM ``finetune.py``) call ``initialize_megatron(extra_args)`` or
``pretrain(..., extra_args_provider=...)``, which reach ``parse_args`` in ``megatron/arguments.py``:
``parser = argparse.ArgumentParser(allow_abbrev=False)``, ``parser = _add_training_args(parser)``, ...,
``parser = extra_args_provider(parser)``, ``parser.parse_args()``.

The chain is followed from the entry script's top-level statements through calls to functions of
the project (imports, re-exports in ``__init__.py``, ``import a.b`` + ``a.b.f()``), a function value
handed down as an argument (``extra_args_provider``) bound to the parameter that receives it, until a
function that builds an ``ArgumentParser`` and calls ``parse_args``/``parse_known_args``. Its options
are the ``add_argument`` calls made before that call, in the function and in the helpers it hands the
parser to. :func:`parse_argv` then reads a launch line as argparse would: option strings (with
prefixes when ``allow_abbrev``), ``=`` values, ``nargs``, ``store_true``/``store_false``/
``store_const``, ``type=int/float`` conversion, the last occurrence winning, defaults for the rest."""

from __future__ import annotations

import ast
import builtins
import os
from pathlib import Path
from typing import Any, Optional

from preflight._record import dataclass, field
from preflight.adapters_api import Project
from preflight.analysis.syntax import dotted_name
from preflight.local_trees import source_and_tree
from preflight.sources import ParsedPython

_MAX_MODULES = 40
_MAX_FUNCTIONS = 160
_MAX_BYTES = 600_000
_MAX_DEPTH = 4  # re-exports followed, helpers nested
_MAX_HELPERS = 200  # functions read for options, in all
_NO_VALUE = object()
ABSENT = ("absent",)  # a parameter bound to None: calling it is skipped (``if extra_args_provider is not None``)


@dataclass
class ArgOption:
    dest: str
    flags: tuple = ()
    kind: str = ""  # "int", "float", "str"; "": another type, the word is kept as written
    default: Any = None
    known_default: bool = True  # a literal default, or the one the action implies
    action: str = "store"  # store, store_true, store_false, store_const, append, count, other
    const: Any = None
    nargs: Any = None  # None, an int, "?", "*", "+"
    where: str = ""  # file:line of the add_argument call


@dataclass
class ParserChain:
    options: dict = field(default_factory=dict)  # option string ("--micro-batch-size") -> ArgOption
    dests: dict = field(default_factory=dict)  # dest -> ArgOption (the first declaration)
    chain: list = field(default_factory=list)  # "file:line name()" from the entry to the parse call
    allow_abbrev: bool = True
    unread: list = field(default_factory=list)  # helpers handed the parser that were not read
    where: str = ""  # file:line of parse_args()
    helpers: int = 0  # functions read for options so far


@dataclass
class _Mod:
    path: Path
    shown: str
    tree: ast.Module
    functions: dict = field(default_factory=dict)  # top-level name -> FunctionDef
    imports: dict = field(default_factory=dict)  # local name -> (module, attr or "", level)
    modules: set = field(default_factory=set)  # ``import a.b`` dotted names


class _Modules:
    def __init__(self, project: Project, script: ParsedPython) -> None:
        self.project = project
        path = Path(str(script.source.path)).resolve()
        self.bases: list[Path] = []
        d = path.parent
        for _ in range(8):
            self.bases.append(d)
            if (d / ".git").exists() or d.parent == d or d == Path(str(project.root)).resolve().parent:
                break
            d = d.parent
        self.held: dict[str, Optional[_Mod]] = {}
        self.entry = self._make(path, script.tree, str(script.source.display))

    def _make(self, path: Path, tree: ast.Module, shown: str) -> _Mod:
        mod = _Mod(path, shown, tree)
        for stmt in tree.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                mod.functions[stmt.name] = stmt
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    mod.imports[alias.asname or alias.name] = (node.module or "", alias.name, node.level)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        mod.imports[alias.asname] = (alias.name, "", 0)
                    else:
                        mod.modules.add(alias.name)
        return mod

    def load(self, module: str, level: int, here: Path) -> Optional[_Mod]:
        rel = module.replace(".", "/")
        if level:
            folder = here
            for _ in range(level - 1):
                folder = folder.parent
            search = [folder]
        else:
            search = self.bases
        for base in search:
            for cand in ((base / f"{rel}.py", base / rel / "__init__.py") if rel else (base / "__init__.py",)):
                if cand.is_file():
                    return self._read(cand)
        return None

    def _read(self, path: Path) -> Optional[_Mod]:
        key = str(path)
        if key in self.held:
            return self.held[key]
        mod = None
        if len(self.held) < _MAX_MODULES and self.project.may_read(path):
            try:
                if path.stat().st_size <= _MAX_BYTES:
                    _, tree = source_and_tree(path)
                    root = str(self.project.root)
                    shown = os.path.relpath(path, root) if str(path).startswith(root) else str(path)
                    mod = self._make(path, tree, shown)
            except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
                mod = None
        self.held[key] = mod
        return mod

    def function(self, mod: _Mod, name: str, depth: int = 0) -> Optional[tuple[_Mod, ast.FunctionDef]]:
        """The function ``name`` means in ``mod``: defined there, or imported from a project module
        (through re-exports)."""
        if name in mod.functions:
            return mod, mod.functions[name]
        if name not in mod.imports or depth > _MAX_DEPTH:
            return None
        module, attr, level = mod.imports[name]
        if not attr:
            return None
        target = self.load(module, level, mod.path.parent)
        if target is None or target is mod:
            return None
        return self.function(target, attr, depth + 1)

    def resolve(self, mod: _Mod, func: ast.expr) -> Optional[tuple[_Mod, ast.FunctionDef]]:
        if isinstance(func, ast.Name):
            return self.function(mod, func.id)
        dotted = dotted_name(func)
        if not dotted or "." not in dotted:
            return None
        prefix, attr = dotted.rsplit(".", 1)
        head, _, rest = prefix.partition(".")
        if head in mod.imports:
            module, name, level = mod.imports[head]
            module = ".".join(p for p in (module, name, rest) if p)
        elif any(m == prefix or m.startswith(prefix + ".") for m in mod.modules):
            module, level = prefix, 0
        else:
            return None
        target = self.load(module, level, mod.path.parent)
        return self.function(target, attr) if target is not None else None


def _calls(nodes: list[ast.stmt]) -> list[ast.Call]:
    """The calls of these statements in source order, not those inside nested functions or classes."""
    out: list[ast.Call] = []
    stack: list[ast.AST] = list(nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Call):
            out.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return sorted(out, key=lambda c: (c.lineno, c.col_offset))


def _method(call: ast.Call) -> str:
    return call.func.attr if isinstance(call.func, ast.Attribute) else ""


def _builds_parser(call: ast.Call) -> bool:
    name = dotted_name(call.func) or ""
    return name == "ArgumentParser" or name.endswith(".ArgumentParser")


def _params(fn: ast.FunctionDef) -> list[str]:
    return [a.arg for a in [*fn.args.posonlyargs, *fn.args.args]]


def _bind(resolver: _Modules, mod: _Mod, call: ast.Call, fn: ast.FunctionDef, bound: dict) -> dict:
    """The function values a call hands to ``fn``'s parameters: ``initialize_megatron(extra_args)``
    binds ``extra_args_provider`` to the caller's ``extra_args``."""
    out: dict = {}
    names = _params(fn)
    pairs = list(zip(names, call.args)) + [(k.arg, k.value) for k in call.keywords if k.arg]
    for param, value in pairs:
        if isinstance(value, ast.Name):
            target = bound.get(value.id) or resolver.function(mod, value.id)
            if target is not None:
                out[param] = target
        elif isinstance(value, ast.Constant) and value.value is None:
            out[param] = ABSENT
    given = {p for p, _ in pairs}
    defaults = [*fn.args.posonlyargs, *fn.args.args][-len(fn.args.defaults):] if fn.args.defaults else []
    for arg, default in zip(defaults, fn.args.defaults):
        if arg.arg not in given and isinstance(default, ast.Constant) and default.value is None:
            out[arg.arg] = ABSENT  # ``extra_args_provider=None`` not passed: nothing is added
    for arg, kw_default in zip(fn.args.kwonlyargs, fn.args.kw_defaults):
        if arg.arg not in given and isinstance(kw_default, ast.Constant) and kw_default.value is None:
            out[arg.arg] = ABSENT
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        out = {k: v for k, v in out.items() if v is not ABSENT}  # ``f(*args, **kwargs)``: not known what is passed
    return out


def _parser_built(resolver: _Modules, mod: _Mod, calls: list[ast.Call]) -> bool:
    """An ``ArgumentParser`` built by these calls, or by a project function one of them calls
    (``parser = build_base_parser()``)."""
    for call in calls:
        if _builds_parser(call):
            return True
        target = resolver.resolve(mod, call.func) if not _method(call).startswith("add_") else None
        if target is not None and any(_builds_parser(c) for c in _calls(target[1].body)):
            return True
    return False


def find_parser(project: Project, script: ParsedPython) -> Optional[ParserChain]:
    """The parser the entry ``script`` reaches through the project's functions, or None (no chain
    followed within the bounds; the script parses its own options)."""
    if script.tree is None:
        return None
    resolver = _Modules(project, script)
    entry = resolver.entry
    top = [s for s in entry.tree.body if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    queue: list[tuple[_Mod, list[ast.stmt], dict, list[str]]] = [(entry, top, {}, [])]
    seen: set[int] = set()
    visits = 0
    while queue and visits < _MAX_FUNCTIONS:
        mod, body, bound, chain = queue.pop(0)
        visits += 1
        calls = _calls(body)
        # ``parser.parse_args()``, not ``arguments.parse_args()`` (a project function, followed below)
        parse = next((c for c in calls if _method(c) in ("parse_args", "parse_known_args")
                      and resolver.resolve(mod, c.func) is None), None)
        if parse is not None and _parser_built(resolver, mod, [c for c in calls if (c.lineno, c.col_offset)
                                                               < (parse.lineno, parse.col_offset)]):
            if mod is entry:
                return None  # the script parses its own options: the cliargs reader's work
            found = ParserChain(chain=chain, where=f"{mod.shown}:{parse.lineno}")
            _collect(resolver, mod, [c for c in calls if (c.lineno, c.col_offset) < (parse.lineno, parse.col_offset)],
                     bound, found, 0)
            return found
        for call in calls:
            target = bound.get(call.func.id) if isinstance(call.func, ast.Name) and call.func.id in bound else None
            target = target or resolver.resolve(mod, call.func)
            if target is None or target is ABSENT or id(target[1]) in seen:
                continue
            seen.add(id(target[1]))
            step = f"{mod.shown}:{call.lineno} {dotted_name(call.func) or '?'}()"
            queue.append((target[0], target[1].body, _bind(resolver, mod, call, target[1], bound), [*chain, step]))
    return None


def _collect(resolver: _Modules, mod: _Mod, calls: list[ast.Call], bound: dict, found: ParserChain,
             depth: int) -> None:
    """Options of the calls made before ``parse_args``: ``add_argument`` calls, ``set_defaults``, and the
    functions they hand a value to (``_add_training_args(parser)``, ``extra_args_provider(parser)``) or
    that build the parser (``parser = build_base_parser()``)."""
    for call in calls:
        method = _method(call)
        if _builds_parser(call):
            for kw in call.keywords:
                if kw.arg == "allow_abbrev" and isinstance(kw.value, ast.Constant):
                    found.allow_abbrev = bool(kw.value.value)
            continue
        if method == "add_argument":
            _option(call, mod, found)
            continue
        if method == "set_defaults":
            for kw in call.keywords:
                if kw.arg and kw.arg in found.dests:
                    ok, value = _literal(kw.value)
                    found.dests[kw.arg].default, found.dests[kw.arg].known_default = value, ok
            continue
        if method in ("add_argument_group", "add_mutually_exclusive_group", "parse_args", "parse_known_args"):
            continue
        name = call.func.id if isinstance(call.func, ast.Name) else ""
        target = bound.get(name) if name in bound else resolver.resolve(mod, call.func)
        if target is ABSENT:
            continue
        handed = bool(call.args) or bool(call.keywords)
        if target is None:
            dotted = dotted_name(call.func) or ""
            if dotted.endswith("add_config_arguments") and dotted.split(".")[0] in _deepspeed_names(mod):
                _deepspeed_options(mod, call, found)
            elif dotted and handed and not hasattr(builtins, dotted) \
                    and any(isinstance(a, ast.Name) for a in call.args):
                found.unread.append(f"{mod.shown}:{call.lineno} {dotted}()")  # extra_args_provider(parser), unbound
            continue
        if depth >= _MAX_DEPTH or found.helpers >= _MAX_HELPERS:
            found.unread.append(f"{mod.shown}:{call.lineno} {name}()")
            continue
        found.helpers += 1
        tmod, fn = target
        inner = _calls(fn.body)
        if not any(_method(c) == "add_argument" or _builds_parser(c) for c in inner) and not any(
                isinstance(c.func, ast.Name) and c.func.id in _params(fn) for c in inner) and depth:
            continue
        _collect(resolver, tmod, inner, _bind(resolver, mod, call, fn, bound), found, depth + 1)


def _deepspeed_names(mod: _Mod) -> set[str]:
    names = {alias for alias, (module, attr, _) in mod.imports.items() if module == "deepspeed" and not attr}
    return names | ({"deepspeed"} if "deepspeed" in mod.modules else set())


def _deepspeed_options(mod: _Mod, call: ast.Call, found: ParserChain) -> None:
    """``deepspeed.add_config_arguments(parser)`` (DeepSpeed ``deepspeed/__init__.py``
    ``_add_core_arguments``): ``--deepspeed`` (store_true), ``--deepspeed_config`` (str), and the
    deprecated ``--deepscale``/``--deepscale_config``, ``--deepspeed_mpi``."""
    where = f"{mod.shown}:{call.lineno}"
    for flag, action, kind in (("--deepspeed", "store_true", "str"), ("--deepspeed_config", "store", "str"),
                               ("--deepscale", "store_true", "str"), ("--deepscale_config", "store", "str"),
                               ("--deepspeed_mpi", "store_true", "str")):
        opt = ArgOption(flag[2:], (flag,), kind, False if action == "store_true" else None, True, action, None, None,
                        where)
        found.options.setdefault(flag, opt)
        found.dests.setdefault(opt.dest, opt)


def _literal(node: Optional[ast.AST]) -> tuple[bool, Any]:
    if node is None:
        return True, None
    try:
        return True, ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return False, None


def _option(call: ast.Call, mod: _Mod, found: ParserChain) -> None:
    flags = tuple(a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str))
    if not flags or not all(f.startswith("-") for f in flags):
        return
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    ok_dest, dest = _literal(kw.get("dest"))
    if not (ok_dest and isinstance(dest, str)):
        longs = [f for f in flags if f.startswith("--")]
        dest = (longs[0] if longs else flags[0]).lstrip("-").replace("-", "_")
    ok_action, action = _literal(kw.get("action"))
    action = action if ok_action and isinstance(action, str) else ("store" if "action" not in kw else "other")
    typ = kw.get("type")
    kind = "str" if typ is None else (typ.id if isinstance(typ, ast.Name) and typ.id in ("int", "float", "str")
                                       else "")
    ok_default, default = _literal(kw.get("default"))
    if "default" not in kw and action in ("store_true", "store_false"):
        default = action == "store_false"
    _, const = _literal(kw.get("const"))
    _, nargs = _literal(kw.get("nargs"))
    opt = ArgOption(dest, flags, kind, default, ok_default, action, const, nargs, f"{mod.shown}:{call.lineno}")
    for flag in flags:
        found.options.setdefault(flag, opt)
    found.dests.setdefault(dest, opt)


def _convert(opt: ArgOption, word: str) -> Any:
    if opt.kind == "int":
        return int(word)
    if opt.kind == "float":
        return float(word)
    return word


def _negative_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return word.startswith("-")


def parse_argv(found: ParserChain, args: list[str]) -> tuple[dict[str, tuple[Any, str]], list[str]]:
    """(dest -> (value, what gave it), problems) for a launch line's words after the script, as the
    parser would read them: given options with their converted values, every other dest at its
    literal default ("default"). A word the parser would reject (``--seq_length none`` for
    ``type=int``) leaves that dest out and is named in the problems; so is an unknown option."""
    given: dict[str, tuple[Any, str]] = {}
    problems: list[str] = []
    longs = [f for f in found.options if f.startswith("--")]
    k = 0
    while k < len(args):
        tok = args[k]
        k += 1
        if not tok.startswith("-") or _negative_number(tok) or tok == "--":
            continue
        flag, eq, inline = tok.partition("=")
        opt = found.options.get(flag)
        if opt is None and found.allow_abbrev and flag.startswith("--"):
            near = [f for f in longs if f.startswith(flag)]
            opt = found.options[near[0]] if len(near) == 1 else None
        if opt is None:
            problems.append(f"{flag} is not an option of the parser ({found.where})")
            continue
        if opt.action in ("store_true", "store_false", "store_const"):
            value: Any = {"store_true": True, "store_false": False}.get(opt.action, opt.const)
            given[opt.dest] = (value, tok)
            continue
        if opt.action not in ("store", "append"):
            given[opt.dest] = (_NO_VALUE, tok)  # count, version, a custom action: not followed
            continue
        if eq:
            words = [inline]
        else:
            want = opt.nargs
            words = []
            while k < len(args) and (not args[k].startswith("-") or _negative_number(args[k])):
                words.append(args[k])
                k += 1
                if want in (None, "?") or (isinstance(want, int) and len(words) == want):
                    break
        if not words and opt.nargs not in ("?", "*"):
            problems.append(f"{flag} without a value")
            given[opt.dest] = (_NO_VALUE, tok)
            continue
        try:
            converted = [_convert(opt, w) for w in words]
        except ValueError:
            problems.append(f"{flag} {' '.join(words)}: not a {opt.kind} ({opt.where}); the parser would stop")
            given[opt.dest] = (_NO_VALUE, tok)
            continue
        value = converted[0] if opt.nargs in (None, "?") and converted else converted
        given[opt.dest] = (value, f"{tok} {' '.join(words)}".strip() if not eq else tok)
    out: dict[str, tuple[Any, str]] = {}
    for dest, opt in found.dests.items():
        if dest in given:
            if given[dest][0] is not _NO_VALUE:
                out[dest] = given[dest]
        elif opt.known_default:
            out[dest] = (opt.default, "default")
    return out, problems
