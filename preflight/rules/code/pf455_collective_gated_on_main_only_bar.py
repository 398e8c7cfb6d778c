"""PF455 collective-gated-on-main-only-bar: a collective under a condition read from a progress bar only rank 0 advances."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg, target_text
from preflight.rules.base import Rule, examples

_COLLECTIVES = frozenset({"gather", "gather_for_metrics", "reduce", "wait_for_everyone", "all_reduce",
                          "all_gather", "all_gather_object", "barrier", "broadcast", "pad_across_processes",
                          "save_state"})
_RANK_WORDS = ("is_main_process", "is_local_main_process", "local_rank", "rank", "process_index",
               "is_world_process_zero", "is_local_process_zero")
# the fields of a tqdm bar that only advance when the bar is enabled
_BAR_FIELDS = frozenset({"n", "last_print_n"})


def _main_only(expr: Optional[ast.AST]) -> bool:
    """``disable=not accelerator.is_main_process``, ``disable=rank != 0``, ``disable=local_rank > 0``."""
    if expr is None or isinstance(expr, ast.Constant):
        return False
    for node in ast.walk(expr):
        name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
        if name in _RANK_WORDS:
            return True
    return False


def _collective(root: ast.AST, functions: dict[str, ast.FunctionDef], depth: int = 0) -> Optional[ast.Call]:
    """A collective call in ``root``, or in a function of the file it calls (two levels)."""
    for node in ast.walk(root):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if isinstance(func, ast.Attribute) and name in _COLLECTIVES:
            return node
        callee = functions.get(name)
        if callee is not None and depth < 2 and callee is not root \
                and _collective(callee, functions, depth + 1) is not None:
            return node
    return None


def _tests_reading(ctx: FileContext, bars: dict[str, ast.Call]) -> set[ast.AST]:
    """The ``if`` statements whose test reads a field of one of ``bars`` (``bar.n``): found from
    the file's few such attributes, so that only those tests are walked."""
    out: set[ast.AST] = set()
    for attr in ctx.unordered(ast.Attribute):
        if attr.attr not in _BAR_FIELDS or target_text(attr.value) not in bars:
            continue
        child: ast.AST = attr
        parent = ctx.parent(attr)
        while parent is not None and not isinstance(parent, ast.stmt):
            child, parent = parent, ctx.parent(parent)
        if isinstance(parent, ast.If) and parent.test is child:
            out.add(parent)
    return out


@register
class CollectiveGatedOnMainOnlyBar(Rule):
    code = "PF455"
    needs_text = ("tqdm",)
    name = "collective-gated-on-main-only-bar"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("accelerate", "pytorch")
    summary = "A collective runs under a condition read from a progress bar that only the main process advances"
    explanation = """
## What it finds

A tqdm bar built with `disable=` tied to the process rank (`disable=not
accelerator.is_main_process`, `disable=rank != 0`), and an `if` that tests the bar's
counter (`progress_bar.n % eval_steps == 0`) around a collective: an evaluation
that calls `accelerator.gather_for_metrics`, `gather`, `reduce`,
`wait_for_everyone`, `save_state`, or `torch.distributed` collectives (directly or in a
function of the file it calls).

## Why it matters

A disabled tqdm bar does not count: `update()` returns at once and `n` stays 0 on
every other process. Only the main process enters the block, and its collective
waits for ranks that never come: the job hangs at the first evaluation
(transformers issue 31532: "I set the progress_bar enabled only on the main process").

## How to fix it

Count steps in a variable every process updates (`completed_steps += 1`) and test
that, or gate on `accelerator.sync_gradients`/the step index.

## When preflight stays silent

* The bar is enabled on every process (no `disable=`, or one not tied to the rank).
* The block holds no collective (logging, printing on the main process only).
"""
    bad_examples = examples("preflight.rules.code._pf455_examples", "PF455_BAD")
    good_examples = examples("preflight.rules.code._pf455_examples", "PF455_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        bars: dict[str, ast.Call] = {}
        for assign in ctx.nodes(ast.Assign):
            value = assign.value
            if not isinstance(value, ast.Call):
                continue
            func = value.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name != "tqdm" or not _main_only(kwarg(value, "disable")):
                continue
            for target in assign.targets:
                text = target_text(target)
                if text:
                    bars[text] = value
        if not bars:
            return
        functions = {f.name: f for f in ctx.nodes(ast.FunctionDef)}
        tests = _tests_reading(ctx, bars)
        for node in ctx.nodes(ast.If):
            if node not in tests:
                continue
            read = next((n for n in ast.walk(node.test) if isinstance(n, ast.Attribute) and n.attr in _BAR_FIELDS
                         and target_text(n.value) in bars), None)
            if read is None:
                continue
            call = None
            for stmt in node.body:
                call = _collective(stmt, functions)
                if call is not None:
                    break
            if call is None:
                continue
            bar = target_text(read.value)
            yield ctx.finding(
                self, node.test,
                f"`{ast.unparse(read)}` only advances on the main process (`{bar}` is disabled elsewhere), so "
                f"only the main process enters this block, and `{ast.unparse(call.func)}(...)` "
                "waits there for processes that never come: the job hangs. Count steps in a variable every "
                "process updates and test that",
                evidence=[ctx.evidence(bars[str(bar)], "disabled on all but the main process"),
                          ctx.evidence(call, "a collective every process must reach")])
