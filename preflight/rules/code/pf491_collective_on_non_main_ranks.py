"""PF491 collective-on-non-main-ranks: a barrier or collective reached only by the processes that
are not the main one (the ``else`` of a main-process test, or ``if not accelerator.is_main_process``)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf427_support import rank_zero_flags_in, rank_zero_test
from preflight.rules.base import Rule, examples
from preflight.rules.code.pf436_collective_on_rank_zero import collective_calls


def _non_main_branch(ctx: FileContext, call: ast.Call, flags: frozenset[str]) -> Optional[ast.If]:
    """The ``if`` whose ``else`` (of a main-process test) or body (of ``not`` such a test) holds
    ``call``, within its function; None when no such test guards it."""
    child: ast.AST = call
    for anc in ctx.ancestors(call):
        if isinstance(anc, ast.If):
            if child in anc.orelse and rank_zero_test(anc.test, flags):
                return anc
            if child in anc.body and isinstance(anc.test, ast.UnaryOp) and isinstance(anc.test.op, ast.Not) \
                    and rank_zero_test(anc.test.operand, flags):
                return anc
        if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            return None
        child = anc
    return None


@register
class CollectiveOnNonMainRanks(Rule):
    code = "PF491"
    needs_text = ("main_process", "rank", "is_global_zero", "master", "is_main", "process_zero")
    name = "collective-on-non-main-ranks"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("accelerate", "pytorch")
    summary = "A barrier or collective is reached by every process except the main one"
    explanation = """
## What it finds

`accelerator.wait_for_everyone()`, `gather`, `reduce` or a `torch.distributed`
collective (`barrier`, `all_reduce`, ...) in the `else` branch of
`if accelerator.is_main_process:` / `if rank == 0:`, or under
`if not accelerator.is_main_process:`, when the function makes no matching call
that the main process reaches.

## Why it matters

A barrier completes only when every process enters it. The other processes wait
in it while the main process saves a checkpoint and goes on to the next epoch's
all-reduces: the two sides sit in different collectives and the job hangs until
the NCCL timeout (accelerate issue 2690: `wait_for_everyone()` in the `else` of the
main-process save).

## How to fix it

Call it on every process, after the `if`:
`if accelerator.is_main_process: save(...)` then `accelerator.wait_for_everyone()`.

## When preflight stays silent

* The "main process first" pattern: the function also makes the same call where
  the main process reaches it (`if not is_main: barrier()` ... work ...
  `if is_main: barrier()`), so every process enters the barrier once.
* Both branches make the call.
* Collectives on the main process only are PF436's.
"""
    bad_examples = examples("preflight.rules.code._pf491_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf491_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        flags: Optional[frozenset[str]] = None
        for call, why in collective_calls(ctx):
            if flags is None:
                flags = rank_zero_flags_in(ctx)
            guard = _non_main_branch(ctx, call, flags)
            if guard is None or self._matched(ctx, call, guard):
                continue
            what = ast.unparse(call.func)
            yield ctx.finding(
                self, call,
                f"`{what}(...)` runs on every process except the main one, but {why}: the other processes "
                "wait in it while the main process goes on to its next collective, and the job hangs until "
                "the NCCL timeout. Call it on every process, after the `if`",
                evidence=[ctx.evidence(guard.test, "the main process takes the other branch")])

    @staticmethod
    def _matched(ctx: FileContext, call: ast.Call, guard: ast.If) -> bool:
        """The function makes the same call outside the non-main branch (the main process reaches
        one: "main process first"), or the main branch makes it too."""
        fn = ctx.enclosing_function(call)
        same = ast.unparse(call.func)
        region = guard.orelse if call in {n for s in guard.orelse for n in ast.walk(s)} else guard.body
        inside = {id(n) for s in region for n in ast.walk(s)}
        for other in ctx.nodes(ast.Call):
            if other is call or id(other) in inside or ctx.enclosing_function(other) is not fn:
                continue
            if ast.unparse(other.func) == same:
                return True
        return False
