"""PF274 name-bound-on-main-process-only: a name is assigned only inside ``if accelerator.is_main_process:``
(or ``rank == 0``) and read after that block by every process."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator, Optional, Union

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf427_support import (
    rank_expr,
    rank_zero_flags_in,
    rank_zero_guard,
    rank_zero_test,
)
from preflight.rules.base import Rule, examples

_Scope = Union[ast.Module, ast.FunctionDef, ast.AsyncFunctionDef]
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_EXITS = (ast.Return, ast.Continue, ast.Break, ast.Raise)


def _own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a scope, not of the functions and classes defined in it."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, _NESTED):
            stack.extend(ast.iter_child_nodes(node))


def _assigned(stmts: list[ast.stmt]) -> list[ast.Name]:
    """Names the statements assign with ``=`` (``x = ...``, ``a, b = ...``, ``x: T = ...``); not the names an
    item or attribute assignment reads (``os.environ["RANK"] = ...`` binds no ``os``)."""
    out: list[ast.Name] = []
    for stmt in stmts:
        for node in [stmt, *_own_nodes(stmt)]:
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = list(node.targets)
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                targets = [node.target]
            for target in targets:
                out.extend(n for n in ast.walk(target) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    return out


def _bound_elsewhere(scope: _Scope, guard: ast.If, name: str) -> bool:
    """``name`` is bound in the scope outside ``guard`` (an assignment, a loop or ``with`` target, an
    import, a parameter) or declared ``global``/``nonlocal`` there."""
    if not isinstance(scope, ast.Module):
        args = scope.args
        if any(a.arg == name for a in [*args.posonlyargs, *args.args, *args.kwonlyargs,
                                       *([args.vararg] if args.vararg else []),
                                       *([args.kwarg] if args.kwarg else [])]):
            return True
    inside = {id(n) for n in ast.walk(guard)}
    # ``train_loader, model = accelerator.prepare(train_loader, model)`` after the block (accelerate issue
    # 496): the statement reads the name before it rebinds it, so the read fails first
    end = guard.end_lineno or guard.lineno
    inside |= {id(t) for a in _own_nodes(scope) if isinstance(a, ast.Assign) and a.lineno > end
               and any(isinstance(v, ast.Name) and v.id == name for v in ast.walk(a.value))
               for target in a.targets for t in ast.walk(target)}
    for node in _own_nodes(scope):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, (ast.Store, ast.Del)) \
                and id(node) not in inside:
            return True
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return True
        if isinstance(node, (ast.Import, ast.ImportFrom)) and any(
                (a.asname or a.name.split(".")[0]) == name for a in node.names):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            return True
    return False


def _early_exit_off_main(scope: _Scope, flags: frozenset[str]) -> bool:
    """``if not accelerator.is_main_process: return`` somewhere in the scope: the code after it runs on the
    main process only (left to the reader, not followed)."""
    for node in _own_nodes(scope):
        if isinstance(node, ast.If) and isinstance(node.test, ast.UnaryOp) and isinstance(node.test.op, ast.Not) \
                and rank_zero_test(node.test.operand, flags) and node.body and isinstance(node.body[-1], _EXITS):
            return True
    return False


@register
class NameBoundOnMainProcessOnly(Rule):
    code = "PF274"
    name = "name-bound-on-main-process-only"
    severity = Severity.WARNING
    category = Category.DISTRIBUTED
    frameworks = ("accelerate", "pytorch", "lightning")
    summary = ("A name assigned only inside `if accelerator.is_main_process:` (or `rank == 0`) is read after "
               "the block by every process: the other processes stop with a NameError")
    explanation = """
## What it finds

In one function (or at module level): an `if` on the main process
(`accelerator.is_main_process`, `is_local_main_process`, `trainer.is_global_zero`,
`rank == 0`, `dist.get_rank() == 0`, a flag assigned one of those) without an `else`,
whose body assigns a name (`results = sample(...)`), and a read of that name after the
block that is not itself under a main-process test, while the name is bound nowhere
else in the function (no earlier `results = None`, no parameter, no loop target).

## Why it matters

Only the main process runs the block; every other process reaches the read with the
name unbound and stops with `NameError` (`UnboundLocalError` in a function) while the
main process is still inside the block, or waits forever in its next collective for
the processes that died. Reported in accelerate issue 133: results sampled under
`if accelerator.is_main_process:` and then written to JSON by every rank.

## How to fix it

Move the reads into the main-process block (and `accelerator.wait_for_everyone()`
after it when the others must wait), or bind the name on every process first
(`results = None`) and test it where it is read.

## When preflight stays silent

* The block has an `else` branch, or the name is bound elsewhere in the function
  (before the block, in a loop target, as a parameter, `global`); a later statement that
  reads the name before rebinding it (`loader, model = accelerator.prepare(loader, model)`,
  accelerate issue 496) does not count.
* The read is under a main-process test of its own (`if accelerator.is_main_process:`
  again, a `@rank_zero_only` function), or under `rank == -1` (a run without
  distribution: its one process is the main one).
* The function leaves early on the other processes (`if not accelerator.is_main_process:
  return`).
* Reads inside a function or lambda defined in the scope (it may run on the main
  process only).
"""
    bad_examples = examples("preflight.rules.code._pf274_examples", "PF274_BAD")
    good_examples = examples("preflight.rules.code._pf274_examples", "PF274_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        flags = rank_zero_flags_in(ctx)
        scopes: list[_Scope] = [ctx.tree, *ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef)]
        for scope in scopes:
            guards = [n for n in _own_nodes(scope) if isinstance(n, ast.If) and not n.orelse
                      and rank_zero_test(n.test, flags)]
            if not guards or _early_exit_off_main(scope, flags):
                continue
            for guard in guards:
                for name in sorted({n.id for n in _assigned(guard.body)}):
                    if _bound_elsewhere(scope, guard, name):
                        continue
                    read = self._read_after(ctx, scope, guard, name, flags)
                    if read is None:
                        continue
                    yield ctx.finding(
                        self, read,
                        f"`{name}` is assigned only inside the main-process block at line {guard.lineno} "
                        f"(`if {ast.unparse(guard.test)}:`) but read here by every process: on the others it is "
                        f"unbound and they stop with a NameError. Read it inside the block, or bind `{name}` "
                        f"on every process first",
                        evidence=[ctx.evidence(guard, "only the main process runs this block")])

    @staticmethod
    def _read_after(ctx: FileContext, scope: _Scope, guard: ast.If, name: str,
                    flags: frozenset[str]) -> Optional[ast.Name]:
        end = guard.end_lineno or guard.lineno
        reads = [n for n in _own_nodes(scope) if isinstance(n, ast.Name) and n.id == name
                 and isinstance(n.ctx, ast.Load) and n.lineno > end]
        for read in sorted(reads, key=lambda n: (n.lineno, n.col_offset)):
            if rank_zero_guard(ctx.ancestors, read, flags) is None and not _single_process_guard(ctx, read) \
                    and not _short_circuited(ctx, read, flags):
                return read
        return None


def _single_process_test(test: ast.AST) -> bool:
    """``RANK == -1`` (a run without distribution, so the one process is the main one), alone or in an
    ``and``: YOLOv5's ``if RANK == -1 and batch_size == -1:`` after ``if RANK in {-1, 0}:``."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return any(_single_process_test(v) for v in test.values)
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    left, right = test.left, test.comparators[0]
    minus_one = [s for s in (left, right) if isinstance(s, ast.UnaryOp) and isinstance(s.op, ast.USub)
                 and isinstance(s.operand, ast.Constant) and s.operand.value == 1]
    other = right if minus_one and minus_one[0] is left else left
    return bool(minus_one) and rank_expr(other)


def _short_circuited(ctx: FileContext, node: ast.AST, flags: frozenset[str]) -> bool:
    """The read is an operand of an ``and`` after a main-process test (``if RANK in {-1, 0} and
    final_epoch:``), or the chosen branch of a conditional expression on one (``A if is_main else B``):
    the other processes stop at the test and never evaluate the name."""
    child = node
    for anc in ctx.ancestors(node):
        if isinstance(anc, ast.IfExp) and child is anc.body and (
                rank_zero_test(anc.test, flags) or _single_process_test(anc.test)):
            return True  # ``profile(..., prof_dir) if do_profile else nullcontext()`` (DeepSpeedExamples)
        if isinstance(anc, ast.BoolOp) and isinstance(anc.op, ast.And) and child in anc.values:
            earlier = anc.values[:anc.values.index(child)]
            if any(rank_zero_test(v, flags) or _single_process_test(v) for v in earlier):
                return True
        if isinstance(anc, (ast.stmt, *_NESTED)):
            return False
        child = anc
    return False


def _single_process_guard(ctx: FileContext, node: ast.AST) -> bool:
    child = node
    for anc in ctx.ancestors(node):
        if isinstance(anc, ast.If) and child in anc.body and _single_process_test(anc.test):
            return True
        if isinstance(anc, _NESTED):
            return False
        child = anc
    return False
