"""PF642 bound-only-on-main-process: a name or attribute is created only under ``if
accelerator.is_main_process:`` (or a rank-0 test) and then read where every process runs."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_MAIN_WORDS = ("is_main_process", "is_local_main_process", "is_main", "is_global_zero", "is_master",
               "is_world_process_zero", "is_local_process_zero")
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module, ast.ClassDef, ast.Lambda)


def _main_test(test: ast.expr) -> bool:
    """``accelerator.is_main_process``, ``self.is_main``, ``rank == 0``, ``dist.get_rank() == 0``."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return any(_main_test(v) for v in test.values)
    if isinstance(test, (ast.Attribute, ast.Name, ast.Call)):
        text = ast.unparse(test)
        return any(text.endswith(w) or text.endswith(w + "()") for w in _MAIN_WORDS)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
        left, right = test.left, test.comparators[0]
        if isinstance(left, ast.Constant):
            left, right = right, left
        return isinstance(right, ast.Constant) and right.value == 0 and "rank" in ast.unparse(left).lower()
    return False


def _main_flag(ctx: FileContext, test: ast.expr) -> bool:
    """``do_profile`` where the file assigns ``do_profile = args.profile and accelerator.is_main_process``."""
    names = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)}
    if not names:
        return False
    flags = ctx.cached("pf642-main-flags", lambda: {
        t.id for a in ctx.nodes(ast.Assign) for t in a.targets if isinstance(t, ast.Name)
        and any(w in ast.unparse(a.value) for w in _MAIN_WORDS)})
    return bool(names & flags)


def _rank_param_test(ctx: FileContext, test: ast.expr, scope: ast.AST) -> bool:
    """``if device == 0:`` where ``device`` is a parameter of the function and its callers pass a rank there
    (``self.train_epoch(epoch, weight, local_rank)`` into ``def train_epoch(self, epoch, weight, device)``)."""
    if not (isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and isinstance(test, ast.Compare)
            and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    left, right = test.left, test.comparators[0]
    if isinstance(left, ast.Constant):
        left, right = right, left
    if not (isinstance(left, ast.Name) and isinstance(right, ast.Constant) and right.value == 0):
        return False
    params = [a.arg for a in scope.args.posonlyargs + scope.args.args]
    if left.id not in params:
        return False
    index = params.index(left.id) - (1 if params and params[0] in ("self", "cls") else 0)
    for call in ctx.nodes(ast.Call):
        func = call.func
        if not ((isinstance(func, ast.Attribute) and func.attr == scope.name)
                or (isinstance(func, ast.Name) and func.id == scope.name)):
            continue
        passed = [k.value for k in call.keywords if k.arg == left.id]
        if 0 <= index < len(call.args) and not isinstance(call.args[index], ast.Starred):
            passed.append(call.args[index])
        if any("rank" in ast.unparse(v).lower() for v in passed):
            return True
    return False


def _not_main_test(test: ast.expr) -> bool:
    return isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and _main_test(test.operand)


def _guarded(ctx: FileContext, node: ast.AST, scope: ast.AST) -> bool:
    """``node`` runs only on the main process, or only where the object exists: inside the body of a
    main-process test (or the else of a negated one), under a ``hasattr``/``exists``/``is not None``
    test, or after an early ``if not <main>: return`` of its function."""
    child: ast.AST = node
    cur = ctx.parent(node)
    while cur is not None and cur is not scope:
        if isinstance(cur, (ast.If, ast.IfExp, ast.While)):
            in_body = any(child is s for s in (cur.body if isinstance(cur.body, list) else [cur.body]))
            test = cur.test
            if (in_body and _main_test(test)) or (not in_body and _not_main_test(test)):
                return True
            text = ast.unparse(test)
            if any(w in text for w in ("hasattr", "exists(", "is not None", "getattr", "rank")) \
                    or _main_flag(ctx, test) or _rank_param_test(ctx, test, scope):
                return True  # a test on some rank (which one: not read), or a flag derived from the main test
        child = cur
        cur = ctx.parent(cur)
    body = getattr(scope, "body", [])
    for stmt in body:
        if getattr(stmt, "lineno", 0) >= getattr(node, "lineno", 0):
            break
        if isinstance(stmt, ast.If) and _not_main_test(stmt.test) and stmt.body and isinstance(
                stmt.body[-1], (ast.Return, ast.Raise, ast.Continue)):
            return True
    return False


def _statement(ctx: FileContext, node: ast.AST) -> ast.stmt:
    cur: ast.AST = node
    while not isinstance(cur, ast.stmt):
        parent = ctx.parent(cur)
        if parent is None:
            break
        cur = parent
    return cur  # type: ignore[return-value]


def _comprehension_bound(ctx: FileContext, name: ast.Name) -> bool:
    """``output`` in ``[output.ids for output in outputs]``: a comprehension's own variable."""
    cur = ctx.parent(name)
    while cur is not None and not isinstance(cur, (ast.stmt, ast.Lambda)):
        if isinstance(cur, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)) and any(
                isinstance(t, ast.Name) and t.id == name.id for g in cur.generators for t in ast.walk(g.target)):
            return True
        cur = ctx.parent(cur)
    return False


def _in_body(ctx: FileContext, node: ast.AST, guard: ast.If) -> bool:
    return any(node is s or ctx.under(node, s) for s in guard.body)


def _scope_of(ctx: FileContext, node: ast.AST) -> Optional[ast.AST]:
    cur = ctx.parent(node)
    while cur is not None and not isinstance(cur, _SCOPES):
        cur = ctx.parent(cur)
    return cur


@register
class BoundOnlyOnMainProcess(Rule):
    code = "PF642"
    needs_text = ("main_process", "is_main", "rank", "is_global_zero", "is_master")
    name = "bound-only-on-main-process"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("accelerate", "pytorch", "deepspeed")
    summary = ("A name or attribute is created only under `if accelerator.is_main_process:` (or a rank-0 test) "
               "and read where every process runs: the other processes fail with NameError/AttributeError")
    explanation = """
## What it finds

An attribute `self.x` assigned only inside an `if self.accelerator.is_main_process:` block
(also `is_local_main_process`, `self.is_main`, `trainer.is_global_zero`, `rank == 0`) — an
EMA model built `if self.is_main:` in `__init__` — and read, outside any main-process test,
in a method that the class calls where every process runs (`save_checkpoint` called from the
training loop). Reported on the read. (Plain names bound only under such a test are PF274's.)

## Why it matters

Every process runs the same script; a block under a main-process test runs on one of them.
`accelerator.prepare` does not ship objects between processes: on the other N-1 processes
the names do not exist, they stop with `NameError` at the first read, and the main process
waits in the next collective until the job times out (accelerate issue 496: "download on the
main process only, the objects must be created on every process"; e2-tts-pytorch PR 17: the
checkpoint read the EMA model only the main process had, and every other process raised
`AttributeError` at the first save).

## How to fix it

Keep only the side effect on the main process (the download, the EMA, the logging), then
`accelerator.wait_for_everyone()` and build the objects every process needs on every process.
Guard the reads of main-only objects with the same test (`if self.is_main:`), or create them
on every process.

## When preflight stays silent

* The name is also bound outside the block (`writer = None` before it, an `else:` branch),
  or every read is under a main-process test, a `hasattr`/`exists`/`is not None` test, or
  after an early `if not accelerator.is_main_process: return`.
* The reading method is never called in the class, or only under a main-process test.
"""
    bad_examples = examples("preflight.rules.code._pf642_examples", "PF642_BAD")
    good_examples = examples("preflight.rules.code._pf642_examples", "PF642_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        guards = [n for n in ctx.nodes(ast.If) if _main_test(n.test)]
        if not guards:
            return
        yield from self._attributes(ctx, guards)

    def _attributes(self, ctx: FileContext, guards: list[ast.If]) -> Iterable[Finding]:
        for cls in ctx.nodes(ast.ClassDef):
            methods = {m.name: m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}
            assigned_in: dict[str, list[ast.Attribute]] = {}
            for n in ast.walk(cls):
                if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store) and isinstance(n.value, ast.Name) \
                        and n.value.id == "self":
                    assigned_in.setdefault(n.attr, []).append(n)
            for attr, stores in assigned_in.items():
                if not all(any(_in_body(ctx, s, g) for g in guards) for s in stores):
                    continue
                read = self._unguarded_read(ctx, cls, methods, attr)
                if read is None:
                    continue
                node, method = read
                store = stores[0]
                yield ctx.finding(
                    self, node,
                    f"`self.{attr}` is created only on the main process (line {store.lineno}, under a main-process "
                    f"test) but `{method.name}` reads it on every process: the other processes raise AttributeError "
                    f"here and the job dies (or hangs in the next collective). Read it under the same test, or "
                    f"create it on every process",
                    evidence=[ctx.evidence(store, "created only on the main process")])

    @staticmethod
    def _unguarded_read(ctx: FileContext, cls: ast.ClassDef, methods: dict, attr: str):
        reads = []
        for name, method in methods.items():
            if name == "__init__":
                continue
            for n in ast.walk(method):
                if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load) and n.attr == attr \
                        and isinstance(n.value, ast.Name) and n.value.id == "self" and not _guarded(ctx, n, method):
                    reads.append((n, method))
        for node, method in sorted(reads, key=lambda r: (r[0].lineno, r[0].col_offset)):
            if _reached_by_all(ctx, cls, methods, method.name, set()):
                return node, method
        return None


def _reached_by_all(ctx: FileContext, cls: ast.ClassDef, methods: dict, name: str, seen: set) -> bool:
    """Some call of ``self.<name>()`` in the class runs on every process: unguarded, in a method that is
    itself reached by all (a method the class never calls is not followed: its callers are unknown)."""
    if name in seen or len(seen) > 8:
        return False
    seen.add(name)
    calls = [c for c in ast.walk(cls) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
             and c.func.attr == name and isinstance(c.func.value, ast.Name) and c.func.value.id == "self"]
    for call in calls:
        caller = _scope_of(ctx, call)
        if caller is None or _guarded(ctx, call, caller):
            continue
        outer = getattr(caller, "name", None)
        if outer not in methods or outer == "__init__":
            return True
        others = [c for c in ast.walk(cls) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
                  and c.func.attr == outer and isinstance(c.func.value, ast.Name) and c.func.value.id == "self"]
        if not others or _reached_by_all(ctx, cls, methods, str(outer), seen):
            return True
    return False
