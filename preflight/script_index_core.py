"""The walk that builds a script's index: calls with their guards, assignments, imports, argparse.

Part of the script index (`preflight.script_index.ScriptIndex`), split by concern."""

from __future__ import annotations

import ast
import operator
from typing import Any, Callable, Optional, Sequence, Union

from preflight._record import dataclass
from preflight.analysis.syntax import child_fields, dotted_name, target_names, walk
from preflight.script_argv import (
    ArgSpec,
    _arg_spec,
)
from preflight.sources import ParsedPython

MAX_RESOLVE_DEPTH = 8


Guard = tuple[ast.expr, bool]  # an if-test and whether the node is in its body (True) or else


_Env = tuple[tuple[Guard, ...], Optional[str], Optional[str]]  # guards, enclosing function, class


# library functions returning the parsed options: drscotthawley/prefigure prefigure/prefigure.py get_all_args
_LIBRARY_PARSERS = ("prefigure.prefigure.get_all_args", "prefigure.get_all_args")


@dataclass(frozen=True, eq=False)
class CallSite:
    """One call in a script, with what is known about its context."""

    script: ParsedPython
    call: ast.Call
    name: Optional[str]  # dotted name as written: "nn.DataLoader"
    qualified: Optional[str]  # with imports resolved: "torch.utils.data.DataLoader"
    target: Optional[str]  # dotted name the call's result is assigned to: "train_loader"
    guards: tuple[Guard, ...] = ()
    function: Optional[str] = None  # enclosing function
    klass: Optional[str] = None  # enclosing class

    @property
    def line(self) -> int:
        return self.call.lineno

    @property
    def label(self) -> str:
        """How the callee reads in a message: ``torch.compile`` or ``scaler.scale(loss).backward``."""
        if self.name is not None:
            return self.name
        text = ast.unparse(self.call.func)
        return text if len(text) <= 60 else "..." + text[-57:]

    @property
    def last(self) -> Optional[str]:
        return self.qualified.rsplit(".", 1)[-1] if self.qualified else None

    def matches(self, pattern: str) -> bool:
        """``pattern`` is the qualified name or a dotted suffix of it (``DataLoader``,
        ``data.DataLoader``, ``torch.utils.data.DataLoader``)."""
        q = self.qualified
        return q is not None and (q == pattern or q.endswith("." + pattern))

    def kwarg(self, name: str) -> Optional[ast.expr]:
        """Keyword ``name`` as written, or through a ``**options`` dict literal of the same function
        (:mod:`preflight.call_splat`)."""
        for kw in self.call.keywords:
            if kw.arg == name:
                return kw.value
        from preflight.call_splat import keyword_through_splat

        return keyword_through_splat(getattr(self.script, "tree", None), self.call, name)

    def arg(self, position: int, name: Optional[str] = None) -> Optional[ast.expr]:
        """Keyword ``name`` if given, else the positional argument at ``position``."""
        if name is not None:
            value = self.kwarg(name)
            if value is not None:
                return value
        args = self.call.args
        if position < len(args) and not any(isinstance(a, ast.Starred) for a in args[: position + 1]):
            return args[position]
        return None


_STR_METHODS = ("lower", "upper", "strip", "casefold", "lstrip", "rstrip")


@dataclass(frozen=True)
class Resolved:
    """A value found statically, and where: the code, or the launch command."""

    value: Any
    kind: str  # "code" or "cli"
    line: Optional[int] = None
    key: Optional[str] = None  # the CLI flag
    detail: Optional[str] = None
    # the most a fact from this value may claim: "low" for a declared default that a config file
    # named on the launch line, not read into the options, may override
    cap: Optional[str] = None


def _bool_op(values: list[Any], is_and: bool) -> Any:
    result: Any = values[0]
    for v in values[1:]:
        result = (result and v) if is_and else (result or v)
    return result


def _lowest_cap(*values: Optional[Resolved]) -> Optional[str]:
    """The lowest confidence cap among resolved operands (None: no cap)."""
    caps = [v.cap for v in values if v is not None and v.cap is not None]
    order = {"low": 0, "medium": 1, "high": 2}
    return min(caps, key=lambda c: order.get(c, 2)) if caps else None


_KEEP = object()  # ScriptIndex._reassigned_value: no reassignment runs before the use


_COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}


_ARITH: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
}


# the node types the walk of ScriptIndex does more with than walk into (ast.parse makes no subclasses)
_SPECIAL_NODES = frozenset({
    ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr, ast.For,
    ast.AsyncFor, ast.comprehension, ast.withitem, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
    ast.ClassDef, ast.Call, ast.If, ast.IfExp,
})


# fields walked into: not the shared singletons (expression contexts, operators), which no
# branch of the walk below reads, nor names and flags (child_fields, as the per-file index does)
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


_REVERSED_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}  # the same, last first (the walk's pushes)


def _children(node: ast.AST) -> list[ast.AST]:
    """``ast.iter_child_nodes(node)`` in the same order, less the shared singletons."""
    kind = type(node)
    fields = _CHILD_FIELDS.get(kind)
    if fields is None:
        fields = _CHILD_FIELDS[kind] = child_fields(kind)
    out: list[ast.AST] = []
    for name in fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            out.append(value)
        elif isinstance(value, list):
            out += [item for item in value if isinstance(item, ast.AST)]
    return out


def _locals_call(node: ast.AST) -> bool:
    """``locals()`` or ``dict(locals())``."""
    if isinstance(node, ast.Call) and dotted_name(node.func) == "dict" and len(node.args) == 1 and not node.keywords:
        node = node.args[0]
    return isinstance(node, ast.Call) and dotted_name(node.func) == "locals" and not node.args and not node.keywords


def _merged_namespace(node: ast.AST) -> bool:
    """``argparse.Namespace(**vars(a), **vars(b))`` (or ``Namespace(**a.__dict__)``): a namespace
    built only from other objects' attributes, so its attributes are theirs."""
    if not isinstance(node, ast.Call) or node.args or not node.keywords:
        return False
    if (dotted_name(node.func) or "").rsplit(".", 1)[-1] != "Namespace":
        return False
    return all(k.arg is None for k in node.keywords)


def _built_parser(call: ast.Call, idx: Any) -> bool:
    """``f().parse_args()`` where ``f`` is one function of this file that builds an ``ArgumentParser``."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr in ("parse_args", "parse_known_args")
            and isinstance(func.value, ast.Call) and isinstance(func.value.func, ast.Name)):
        return False
    defs = idx.functions.get(func.value.func.id) or []
    return len(defs) == 1 and any(isinstance(n, ast.Call) and (dotted_name(n.func) or "").endswith("ArgumentParser")
                                  for n in ast.walk(defs[0]))


class _IndexCore:
    def __init__(self, script: ParsedPython, args: Sequence[str] = ()) -> None:
        self.script = script
        self.args = list(args)
        self.calls: list[CallSite] = []
        self.imports: dict[str, str] = {}  # local name -> qualified name
        self.assigns: dict[str, list[Optional[ast.expr]]] = {}  # None: bound some other way
        self.arguments: dict[str, list[ArgSpec]] = {}
        self.odd_positionals = False
        self.parsed_args: set[str] = set()  # names bound to parser.parse_args()
        self.set_defaults: dict[str, tuple[ast.expr, int]] = {}  # parser.set_defaults(dest=value)
        self.classes: dict[str, ast.ClassDef] = {}
        self.functions: dict[str, list[ast.AST]] = {}  # name -> its def(s) (any nesting)
        self.param_count: dict[str, int] = {}  # name -> how many def statements take it as a parameter
        self.class_level: dict[str, int] = {}  # name -> how many of its bindings are class attributes
        self._parse_functions: Optional[set[str]] = None
        self._helper_written: Optional[set[str]] = None
        self._reassigned: Optional[dict[str, Any]] = None  # preflight.script_reassign
        self._computing: set[str] = set()
        self._capped_seen = False
        # what the launcher sets in the environment of the processes it starts (preflight.script_env)
        self.launch_env: dict[str, tuple[str, str]] = {}
        # ``owner.name`` for an object the script did not build itself (a parameter, or one of
        # the dataclasses ``HfArgumentParser`` returns): the value of the option ``name`` the
        # job declares, from the launch line or its default. Set by the project (cliargs knows
        # the declared options); None: such attributes stay unknown.
        self.options: Optional[Callable[[str], Optional[Resolved]]] = None
        # (function, parameter) -> what the launched script passes that parameter of this module's function it
        # calls with ``**mapping`` (preflight.adapters.splat_call.binder); None: nothing called from outside
        self.called_with: Optional[Callable[[str, str], Any]] = None
        # (spread, def, parameter) -> what ``f(**OmegaConf.load(path))`` of this script passes that parameter
        # (preflight.adapters.config_object_splat_file.splat_file_binder); None: such splats stay unknown
        self.loaded_kwargs: Optional[Callable[[ast.expr, Any, str], Any]] = None
        self._walk()
        self._collect_argparse()

    # -- building ----------------------------------------------------------
    def _walk(self) -> None:
        targets: dict[int, str] = {}
        pending: list[tuple[ast.Call, tuple[Guard, ...], Optional[str], Optional[str]]] = []
        # (node, its _Env): the second item is shared by every node of the same context
        top: _Env = ((), None, None)
        stack: list[tuple[ast.AST, _Env]] = [(self.script.tree, top)]
        pop, push, special, ast_type = stack.pop, stack.append, _SPECIAL_NODES, ast.AST
        reversed_fields = _REVERSED_CHILD_FIELDS
        while stack:
            node, env = pop()
            kind = type(node)
            if kind not in special:  # most nodes (names, attributes, constants): only walked into
                fields = reversed_fields.get(kind)
                if fields is None:
                    fields = reversed_fields[kind] = child_fields(kind)[::-1]
                for name in fields:  # children pushed last first: popped in source order
                    value = getattr(node, name, None)
                    if type(value) is list:
                        for child in reversed(value):
                            if isinstance(child, ast_type):
                                push((child, env))
                    elif isinstance(value, ast_type):
                        push((value, env))
                continue
            guards, func, klass = env
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                self._import(node)
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
                self._assign(node, targets)
                if klass is not None and func is None:  # a class attribute, not a module name
                    for tgt in getattr(node, "targets", None) or [getattr(node, "target", None)]:
                        if isinstance(tgt, ast.Name):
                            self.class_level[tgt.id] = self.class_level.get(tgt.id, 0) + 1
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                self._bind_other(node.target)
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                self._bind_other(node.optional_vars)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                if not isinstance(node, ast.Lambda):
                    self.functions.setdefault(node.name, []).append(node)
                    for param in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs):
                        self.param_count[param.arg] = self.param_count.get(param.arg, 0) + 1
                for a in walk(node.args):
                    if isinstance(a, ast.arg):
                        self.assigns.setdefault(a.arg, []).append(None)
            elif isinstance(node, ast.ClassDef):
                self.classes.setdefault(node.name, node)
            elif isinstance(node, ast.Call):
                pending.append((node, guards, func, klass))
            if isinstance(node, ast.If):
                inside: _Env = ((*guards, (node.test, True)), func, klass)
                outside: _Env = ((*guards, (node.test, False)), func, klass)
                for child in reversed(node.orelse):
                    push((child, outside))
                for child in reversed(node.body):
                    push((child, inside))
                push((node.test, env))
                continue
            if isinstance(node, ast.IfExp):  # ``X if test else Y``: a guard like an ``if`` statement
                push((node.orelse, ((*guards, (node.test, False)), func, klass)))
                push((node.body, ((*guards, (node.test, True)), func, klass)))
                push((node.test, env))
                continue
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                env = (guards, node.name, klass)
            elif isinstance(node, ast.ClassDef):
                env = (guards, None, node.name)
            stack += [(child, env) for child in reversed(_children(node))]
        for call, guards, func, klass in pending:
            called = dotted_name(call.func)
            self.calls.append(CallSite(self.script, call, called, self.qualify(called), targets.get(id(call)),
                                       guards, func, klass))
        self.calls.sort(key=lambda s: (s.call.lineno, s.call.col_offset))

    def _import(self, node: Union[ast.Import, ast.ImportFrom]) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    self.imports[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    self.imports.setdefault(top, top)
        elif node.module and not node.level:
            for alias in node.names:
                if alias.name != "*":
                    self.imports[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    def _assign(self, node: ast.AST, targets: dict[int, str]) -> None:
        value: Optional[ast.expr]
        if isinstance(node, ast.Assign):
            tgts, value = node.targets, node.value
        elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)):
            tgts, value = [node.target], node.value
        else:  # AugAssign: the name no longer has one known value
            self._bind_other(node.target)  # type: ignore[attr-defined]
            return
        if value is None:
            return
        for tgt in tgts:
            if isinstance(tgt, ast.Name) and len(tgts) == 1:
                self.assigns.setdefault(tgt.id, []).append(value)
            else:
                self._bind_other(tgt)
        if isinstance(value, ast.Call) and len(tgts) == 1:
            name = dotted_name(tgts[0])
            if name is not None:
                targets[id(value)] = name
            elif isinstance(tgts[0], (ast.Tuple, ast.List)) and tgts[0].elts:
                first = dotted_name(tgts[0].elts[0])  # args, unknown = parser.parse_known_args()
                if first is not None:
                    targets[id(value)] = first

    def _bind_other(self, target: ast.AST) -> None:
        for name in target_names(target):
            self.assigns.setdefault(name, []).append(None)

    def qualify(self, name: Optional[str]) -> Optional[str]:
        if name is None:
            return None
        head, _, rest = name.partition(".")
        base = self.imports.get(head)
        if base is None:
            return name
        return f"{base}.{rest}" if rest else base

    def _collect_argparse(self) -> None:
        from preflight.library_parsers import library_parser

        self._stubbed = False  # a library parser's options added (preflight/library_parsers.py)
        for site in self.calls:
            last = site.name.rsplit(".", 1)[-1] if site.name else None
            if last in ("parse_args", "parse_known_args") and site.target and "." not in site.target:
                self.parsed_args.add(site.target)
            elif site.name is None and site.target and "." not in site.target and _built_parser(site.call, self):
                # ``args = make_parser().parse_args()`` (Megvii-BaseDetection/YOLOX @ 6ddff48
                # ``tools/train.py:122``): the parser a local function of this file builds and returns
                self.parsed_args.add(site.target)
            if last == "set_defaults":
                for kw in site.call.keywords:
                    if kw.arg is not None:
                        self.set_defaults[kw.arg] = (kw.value, site.line)
                continue
            stub = library_parser(self.qualify(site.name), self.script.source.path) \
                if last == "default_argument_parser" else None
            for node in ast.walk(stub) if stub is not None and not self._stubbed else ():
                # ``args = default_argument_parser().parse_args()`` (detectron2): the library's options
                spec = _arg_spec(node) if isinstance(node, ast.Call) else None
                if spec is not None:
                    self.arguments.setdefault(spec.dest, []).append(spec)
            self._stubbed = self._stubbed or stub is not None
            if last != "add_argument":
                continue
            spec = _arg_spec(site.call)
            if spec is not None:
                self.arguments.setdefault(spec.dest, []).append(spec)
            elif site.call.args and isinstance(site.call.args[0], ast.Constant) \
                    and isinstance(site.call.args[0].value, str) and not site.call.args[0].value.startswith("-"):
                self.odd_positionals = True  # a positional not read (``nargs``): the others' places are not known

    # -- queries -------------------------------------------------------------
    def find(self, *patterns: str) -> list[CallSite]:
        return [s for s in self.calls if any(s.matches(p) for p in patterns)]

    def imports_any(self, *prefixes: str) -> bool:
        return any(q == p or q.startswith(p + ".") for q in self.imports.values() for p in prefixes)
