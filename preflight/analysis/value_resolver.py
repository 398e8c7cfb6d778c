"""Follow a value back to the expressions that created it (per value, per file).

``value_resolver(ctx)`` (:class:`ValueResolver`, read by :mod:`preflight.analysis.losses`,
:mod:`preflight.analysis.distributed` and the loader rules) follows a value back, *per
value*, to the expressions that created it: a Name to its reaching definitions in the
function (the latest earlier assignment that dominates the use, joined with earlier ones
when it sits in a branch; unknown if the name is redefined later in an enclosing loop); a
parameter to the arguments of every in-file call site (or its default); ``self.x`` to every
``self.x = ...`` of the class; ``a, b = helper()`` to the elements of returned tuples;
wrappers (``DDP(m)``, ``m.to(dev)``) to the module. Anything else is a *leaf*
(:class:`Leaf`); where any path is unknown the answer is None.
"""

from __future__ import annotations

import ast
import bisect
from typing import TYPE_CHECKING, Optional, Union

from preflight._record import dataclass
from preflight.analysis import tensor_ops as tables
from preflight.analysis.binding_syntax import short_call
from preflight.analysis.scopes import ClassInfo, FunctionInfo, ScopeIndex, scope_index

if TYPE_CHECKING:
    from preflight.analysis.context import FileContext

MAX_DEPTH = 24
Chain = tuple[tuple[ast.AST, str], ...]


def text(node: ast.AST, limit: int = 60) -> str:
    out = ast.unparse(node)
    if len(out) > limit and isinstance(node, ast.Call):
        return short_call(node)
    return out if len(out) <= limit else out[: limit - 3] + "..."


@dataclass(eq=False)
class Def:
    stmt: ast.AST  # the binding statement (or the function node for a parameter)
    value: Optional[ast.expr]  # None: not a plain value we can follow
    index: Optional[int] = None  # element of an unpacked tuple
    param: Optional[str] = None  # a function parameter


@dataclass(frozen=True)
class Leaf:
    node: ast.AST  # an expression the resolver cannot go behind (a call, a literal...)
    fn: FunctionInfo
    chain: Chain = ()


WRAPPER_NAMES = tables.WRAPPERS - {"get_peft_model", "unwrap_model", "BetterTransformer"}
_MODULE_MOVES = ("to", "cuda", "cpu", "train", "half", "float", "bfloat16", "double")


class ValueResolver:
    """See the module docstring."""

    def __init__(self, ctx: FileContext, scopes: ScopeIndex) -> None:
        self.ctx = ctx
        self.scopes = scopes
        self.imports = scopes.imports
        self.bindings = scopes.bindings
        self.name_defs: dict[tuple[FunctionInfo, str], list[Def]] = {}
        self.attr_defs: dict[tuple[ClassInfo, str], list[tuple[Def, FunctionInfo]]] = {}
        self.returns: dict[FunctionInfo, list[ast.Return]] = {}
        self._block: dict[int, int] = {}
        self._lists: dict[int, dict[int, int]] = {}
        self._def_indexes: dict[tuple[FunctionInfo, str],
                                tuple[list[tuple[int, int]], dict[int, list[int]], int]] = {}
        self._index()

    def _index(self) -> None:
        ctx, scopes = self.ctx, self.scopes
        for fn in scopes.functions.values():
            for param in fn.params:
                self.name_defs.setdefault((fn, param), []).append(Def(fn.node, None, param=param))
        for name in ctx.select(ast.Name, _not_loaded):
            stmt = scopes.statement_of(name)
            if stmt is None:
                continue
            fn = scopes.function_of(name)
            self.name_defs.setdefault((fn, name.id), []).append(self._def_of(name, stmt))
        for attr in ctx.select(ast.Attribute, _not_loaded):
            if not (isinstance(attr.value, ast.Name) and attr.value.id == "self"):
                continue
            stmt = scopes.statement_of(attr)
            if stmt is None:
                continue
            fn = scopes.function_of(attr)
            cls = fn.method_class()
            if cls is not None:
                self.attr_defs.setdefault((cls, attr.attr), []).append((self._def_of(attr, stmt), fn))
        for ret in ctx.nodes(ast.Return):
            self.returns.setdefault(scopes.function_of(ret), []).append(ret)
        for defs in self.name_defs.values():
            defs.sort(key=lambda d: _pos(d.stmt) if d.param is None else (0, 0))

    def _def_of(self, target: ast.expr, stmt: ast.stmt) -> Def:
        parent = self.ctx.parent(target)
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and parent is stmt and stmt.value is not None:
            return Def(stmt, stmt.value)
        if isinstance(parent, ast.NamedExpr):
            return Def(stmt, parent.value)
        if isinstance(stmt, ast.Assign) and isinstance(parent, ast.Tuple) and (
                self.ctx.parent(parent) is stmt) and not any(
                isinstance(e, ast.Starred) for e in parent.elts):
            index = next(i for i, e in enumerate(parent.elts) if e is target)
            value = stmt.value
            if isinstance(value, ast.Tuple) and len(value.elts) == len(parent.elts):
                return Def(stmt, value.elts[index])
            return Def(stmt, value, index=index)
        return Def(stmt, None)

    # -- reaching definitions ----------------------------------------------
    def _block_of(self, stmt: ast.AST) -> int:
        """Identity of the statement list holding ``stmt`` (``with`` bodies lifted)."""
        key = id(stmt)
        found = self._block.get(key)
        if found is not None:
            return found
        cur = stmt
        while True:
            parent = self.ctx.parent(cur)
            if isinstance(parent, (ast.With, ast.AsyncWith)) and self._list_of(parent, cur) == id(parent.body):
                cur = parent
                continue
            break
        out = self._list_of(parent, cur) if parent is not None else 0
        self._block[key] = out
        return out

    def _list_of(self, parent: ast.AST, stmt: ast.AST) -> int:
        """Identity of ``parent``'s body, orelse or finalbody list holding ``stmt`` (0: none);
        each parent's lists are mapped once, not scanned per statement."""
        lists = self._lists.get(id(parent))
        if lists is None:
            lists = self._lists[id(parent)] = {}
            for field in ("body", "orelse", "finalbody"):
                lst = getattr(parent, field, None)
                if isinstance(lst, list):
                    for item in lst:
                        lists.setdefault(id(item), id(lst))
        return lists.get(id(stmt), 0)

    def reaching(self, name: ast.Name, fn: FunctionInfo) -> Optional[list[Def]]:
        scope = self.scopes.scope_of_name(name.id, fn)
        defs = self.name_defs.get((scope, name.id), [])
        if not defs:
            return None
        if scope is not fn:
            return list(defs)
        stmt = self.scopes.statement_of(name)
        if stmt is None:
            return None
        where = _pos(stmt)
        loop = self.scopes.loop_of(name)
        loops = {id(lp.node) for lp in (loop.chain() if loop else ())}
        # defs are sorted (parameters first): those before the use are a prefix, found by
        # bisection, and only the defs up to the end of the outermost loop around the use can
        # redefine it later in that loop, so a name defined n times costs log n per use
        keys, by_block, params = self._def_index(scope, name.id, defs)
        cut = bisect.bisect_left(keys, where)
        if loops:
            outer = next(lp for lp in loop.chain() if lp.parent is None).node  # type: ignore[union-attr]
            end = bisect.bisect_right(keys, (outer.end_lineno or 0, outer.end_col_offset or 0))
            for d in defs[cut:end]:
                if any(id(a) in loops for a in self.ctx.ancestors(d.stmt)):
                    return None  # redefined later in a loop around the use
        if cut == 0:
            return None
        chain = [stmt, *[a for a in self.ctx.ancestors(stmt) if isinstance(a, ast.stmt)]]
        blocks = {self._block_of(s) for s in chain}
        # the nearest def before the use that is a parameter or sits in a block around the use
        first = max(params - 1, 0)
        for block in blocks:
            at = by_block.get(block)
            if at:
                i = bisect.bisect_left(at, cut) - 1
                if i >= 0 and at[i] > first:
                    first = at[i]
        return defs[first:cut][::-1]

    def _def_index(self, scope: FunctionInfo, name: str,
                   defs: list[Def]) -> tuple[list[tuple[int, int]], dict[int, list[int]], int]:
        """Sort keys of ``defs``, the indexes of the defs in each block, and the number of
        parameters (first in ``defs``), built once per name."""
        found = self._def_indexes.get((scope, name))
        if found is None:
            keys = [_pos(d.stmt) if d.param is None else (0, 0) for d in defs]
            by_block: dict[int, list[int]] = {}
            for i, d in enumerate(defs):
                if d.param is None:
                    by_block.setdefault(self._block_of(d.stmt), []).append(i)
            params = sum(1 for d in defs if d.param is not None)
            found = self._def_indexes[(scope, name)] = (keys, by_block, params)
        return found

    # -- sources -----------------------------------------------------------
    def sources(self, expr: ast.AST, fn: FunctionInfo, depth: int = 0,
                chain: Chain = ()) -> Optional[list[Leaf]]:
        """Leaves ``expr`` may come from, or None when some path is unknown."""
        if depth > MAX_DEPTH:
            return None
        pairs: Optional[list[tuple[Def, FunctionInfo]]] = None
        if isinstance(expr, ast.Name):
            scope = self.scopes.scope_of_name(expr.id, fn)
            pairs = [(d, scope) for d in self.reaching(expr, fn) or ()]
        elif isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and (
                expr.value.id == "self"):
            cls = fn.method_class()
            pairs = [x for c in cls.mro() for x in self.attr_defs.get((c, expr.attr), ())] if (
                cls is not None) else []
        if pairs is not None:
            out: list[Leaf] = []
            for d, where in pairs:
                got = self._from_def(d, where, depth, chain)
                if got is None:
                    return None
                out.extend(got)
            return out or None
        if isinstance(expr, ast.IfExp):
            a = self.sources(expr.body, fn, depth + 1, chain)
            b = self.sources(expr.orelse, fn, depth + 1, chain)
            return None if a is None or b is None else a + b
        if isinstance(expr, ast.Call):
            inner = self._wrapped(expr)
            if inner is not None:
                return self.sources(inner, fn, depth + 1, chain)
        return [Leaf(expr, fn, chain)]

    def _wrapped(self, call: ast.Call) -> Optional[ast.expr]:
        func = call.func
        qual = self.imports.qualify(func) or ""
        last = qual.rsplit(".", 1)[-1]
        if (last in WRAPPER_NAMES or qual in tables.QUALIFIED_WRAPPERS) and call.args:
            return call.args[0]
        if isinstance(func, ast.Attribute) and func.attr in _MODULE_MOVES and (
                self.bindings.classify(func.value, self.scopes.function_of(call)) is not None):
            return func.value
        return None

    def _from_def(self, d: Def, fn: FunctionInfo, depth: int, chain: Chain) -> Optional[list[Leaf]]:
        if d.param is not None:
            return self._from_param(d.param, fn, depth, chain)
        if d.value is None:
            return None
        step = (*chain, (d.stmt, f"`{text(d.stmt, 70)}`"))
        if d.index is None:
            return self.sources(d.value, fn, depth + 1, step)
        value = d.value
        if isinstance(value, ast.Call):
            target = self.bindings.target_of(value)
            if target is not None and not self.bindings.calls[value][1]:
                out: list[Leaf] = []
                rets = self.returns.get(target, [])
                if not rets:
                    return None
                for ret in rets:
                    if not (isinstance(ret.value, ast.Tuple) and len(ret.value.elts) > d.index):
                        return None
                    got = self.sources(ret.value.elts[d.index], target, depth + 1,
                                       (*step, (ret, f"`{target.name}()` returns it")))
                    if got is None:
                        return None
                    out.extend(got)
                return out
        return None

    def _from_param(self, param: str, fn: FunctionInfo, depth: int, chain: Chain) -> Optional[list[Leaf]]:
        node = fn.node
        if isinstance(node, ast.Module) or param in ("self", "cls"):
            return None
        if not fn.call_sites:
            annotated = self.module_annotation(node, param)
            if annotated is None:
                return None
            return [Leaf(annotated, fn, (*chain, (annotated, f"`{param}` is annotated `{text(annotated)}`")))]
        default = default_of(node, param)
        out: list[Leaf] = []
        for site in fn.call_sites:
            if any(isinstance(a, ast.Starred) for a in site.call.args) or any(
                    k.arg is None for k in site.call.keywords):
                return None
            passed = dict(self.bindings.iter_arg_params(site.call, fn))
            arg = passed.get(param, default)
            if arg is None:
                return None
            where = site.caller if arg is passed.get(param) else fn
            got = self.sources(arg, where, depth + 1,
                               (*chain, (site.call, f"`{fn.name}()` is called with it here")))
            if got is None:
                return None
            out.extend(got)
        return out


    def module_annotation(self, node: Union[ast.FunctionDef, ast.AsyncFunctionDef], param: str) -> Optional[ast.Name]:
        """``backbone: Backbone`` / ``Optional[Backbone] = None`` (Lightning's example
        ``LitClassifier``, built by ``LightningCLI`` from the annotation): a parameter the file
        never passes, annotated with one ``nn.Module`` class the file defines, holds an instance
        of it (or of a subclass: the same rules then follow the subclass's own code)."""
        args = node.args
        arg = next((a for a in [*getattr(args, "posonlyargs", []), *args.args, *args.kwonlyargs]
                    if a.arg == param), None)
        ann = arg.annotation if arg is not None else None
        if isinstance(ann, ast.Subscript) and isinstance(ann.value, (ast.Name, ast.Attribute)) and (
                last_name(ann.value) == "Optional"):
            ann = ann.slice
        elif isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr) and (
                isinstance(ann.right, ast.Constant) and ann.right.value is None):
            ann = ann.left
        if not isinstance(ann, ast.Name):
            return None
        cls = self.scopes.classes_by_name.get(ann.id)
        if cls is None or not cls.is_module or not self.scopes.scope_of_name(
                ann.id, self.scopes.function_of(node)).is_module_scope:
            return None
        return ann


def default_of(node: Union[ast.FunctionDef, ast.AsyncFunctionDef], param: str) -> Optional[ast.expr]:
    args = node.args
    positional = [*getattr(args, "posonlyargs", []), *args.args]
    pairs = [*zip(positional[len(positional) - len(args.defaults):], args.defaults),
             *zip(args.kwonlyargs, args.kw_defaults)]
    return next((default for arg, default in pairs if arg.arg == param), None)


def _pos(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def value_resolver(ctx: FileContext) -> ValueResolver:
    return ctx.cached("values", lambda: ValueResolver(ctx, scope_index(ctx)))


def last_name(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _not_loaded(node: ast.Name | ast.Attribute) -> bool:
    return not isinstance(node.ctx, ast.Load)
