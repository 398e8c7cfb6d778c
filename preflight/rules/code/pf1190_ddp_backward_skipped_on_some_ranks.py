"""PF1190 ddp-backward-skipped-on-some-ranks: in a loop that trains a DistributedDataParallel model, a
``continue`` taken on a condition of the rank's own batch or loss (an empty mask, a NaN loss) before the
backward: the other ranks run their backward, whose gradient all-reduce waits for this one."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import (
    accelerator_names,
    calls,
    is_accelerator_receiver,
    target_text,
)
from preflight.rules.base import Rule, examples

_DDP = frozenset({"torch.nn.parallel.DistributedDataParallel", "torch.nn.parallel.distributed.DistributedDataParallel"})
# a decision the ranks share (an all-reduced flag) or take per rank on purpose
_SYNC_WORDS = ("reduce", "gather", "broadcast", "sync", "world", "rank", "barrier")
# loop counters: the same on every rank
_COUNTER_WORDS = ("step", "idx", "index", "iter", "epoch", "count", "num_batches")
_LOOPS = (ast.For, ast.AsyncFor, ast.While)
# calls a test may make and still be this rank's own decision; any other call (a helper such as
# `is_loss_nan(loss, num_gpus)`) may all-reduce inside, and the rule stays silent
_LOCAL_OPS = frozenset({"isnan", "isinf", "isfinite", "any", "all", "sum", "numel", "item", "len", "size", "max",
                        "min", "mean", "nelement", "count_nonzero", "float", "int", "bool", "abs", "nonzero"})
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _counter(name: str) -> bool:
    low = name.lower()
    return low in ("i", "j", "k", "n", "b", "it") or any(w in low for w in _COUNTER_WORDS)


def _loop_nodes(loop: ast.AST) -> Iterable[ast.AST]:
    """The nodes of ``loop``'s body, not those of loops, functions or classes nested in it."""
    stack: list[ast.AST] = [n for n in getattr(loop, "body", []) if not isinstance(n, _SCOPES + _LOOPS)]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, _SCOPES + _LOOPS):
                stack.append(child)


def _target_names(loop: ast.AST) -> set[str]:
    """The names a ``for`` loop binds per batch, without an ``enumerate`` counter."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        return set()
    target = loop.target
    it = loop.iter
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "enumerate" \
            and isinstance(target, ast.Tuple) and len(target.elts) == 2:
        target = target.elts[1]
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name) and not _counter(n.id)}


def _is_backward(node: ast.AST) -> bool:
    """``loss.backward()``, ``scaler.scale(loss).backward()``, ``accelerator.backward(loss)``."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "backward"


def _skip_if(stmt: ast.AST) -> bool:
    """An ``if`` without ``else`` whose body ends in ``continue``."""
    return isinstance(stmt, ast.If) and not stmt.orelse and isinstance(stmt.body[-1], ast.Continue)


@register
class DdpBackwardSkippedOnSomeRanks(Rule):
    code = "PF1190"
    needs_text = ("DistributedDataParallel", "prepare")
    name = "ddp-backward-skipped-on-some-ranks"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "accelerate")
    multi_process_only = True
    summary = ("A DDP training loop `continue`s past its backward on a condition of the rank's own batch or loss: "
               "the other ranks' gradient all-reduce waits for a backward this rank never runs")
    explanation = """
## What it finds

A `for` loop of a function that wraps its model in `DistributedDataParallel` (the name bound
to `DDP(...)`, or returned by `accelerator.prepare(model, ...)`, which wraps it in DDP in a
multi-process run, is called in the loop) and calls `.backward()` (`accelerator.backward(loss)`), with an `if <test>: ... continue`
before that backward, where the test reads the rank's own data: a name the loop binds per
batch (`if mask.sum() == 0`, `if batch is None`) or a name computed from it or from the model
in the loop before the test (`loss = ...; if torch.isnan(loss): continue`).

## Why it matters

DDP's backward all-reduces the gradients bucket by bucket; every rank must run the same
number of backwards. A rank that skips one on its own data leaves the others waiting in
their all-reduce: the job hangs until the NCCL watchdog kills it (30 minutes by default),
or, when the skipping rank's next backward pairs with the others' current one, the ranks
average gradients of different steps and their optimizer step counts drift apart.
NVIDIA-NeMo/Automodel PR 2468: "if one rank skips its backward while another runs it, the
NCCL collective mismatches (the others wait on a reduce that never comes -> watchdog hang),
or, short of a hang, the accumulation windows / optimizer-step counts desync across ranks".

## How to fix it

Decide the skip on every rank together: all-reduce a flag (`dist.all_reduce(flag,
op=dist.ReduceOp.MIN)`) and skip only when every rank agrees, or keep the backward and zero
the loss (`loss = loss * 0` keeps the graph, and the all-reduce, on every rank).

## When preflight stays silent

* The test reads only loop counters (`step`, `epoch`, an `enumerate` index) or names not
  computed from the batch: every rank takes the same branch (resuming past done steps).
* The test names a collective or a rank (`reduce`, `gather`, `broadcast`, `sync`, `world`,
  `rank`), or the loop all-reduces a name the test reads before the test: the ranks agree.
* The test calls anything but a tensor's own checks (`isnan`, `isfinite`, `sum`, `numel`,
  `item`, `len`, ...): a helper such as myrtle.ai's `is_loss_nan(loss, num_gpus)` all-reduces
  inside.
* The model is not wrapped by `DistributedDataParallel(...)` or `accelerator.prepare(...)` in
  the same function (a single-process launch: `preflight audit` drops the finding), or the
  `continue` comes after the backward.
"""
    bad_examples = examples("preflight.rules.code._pf1190_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf1190_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        wrapped: dict[int, list[tuple[str, ast.AST]]] = {}
        for call, qual in calls(ctx):
            if qual not in _DDP:
                continue
            assign = ctx.parent(call)
            if isinstance(assign, ast.Assign) and len(assign.targets) == 1:
                text = target_text(assign.targets[0])
                fn = ctx.enclosing_function(assign)
                if text and fn is not None:
                    wrapped.setdefault(id(fn), []).append((text, assign))
        accels = accelerator_names(ctx)
        for assign in ctx.nodes(ast.Assign):
            value = assign.value
            if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                    and value.func.attr == "prepare" and is_accelerator_receiver(value.func.value, accels)
                    and len(assign.targets) == 1):
                continue
            target = assign.targets[0]
            elts = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
            fn = ctx.enclosing_function(assign)
            if fn is None or len(elts) != len(value.args):
                continue
            for tgt, arg in zip(elts, value.args):
                text = target_text(tgt)
                if text and text == target_text(arg):
                    wrapped.setdefault(id(fn), []).append((text, assign))
        if not wrapped:
            return
        for loop in ctx.nodes(ast.For, ast.AsyncFor):
            fn = ctx.enclosing_function(loop)
            if fn is None or id(fn) not in wrapped:
                continue
            found = self._skip(ctx, loop, wrapped[id(fn)])
            if found is not None:
                yield found

    def _skip(self, ctx: FileContext, loop: ast.AST, models: list[tuple[str, ast.AST]]) -> Optional[Finding]:
        nodes = list(_loop_nodes(loop))
        names = {name for name, _ in models}
        model_calls = [n for n in nodes if isinstance(n, ast.Call) and target_text(n.func) in names]
        backwards = [n for n in nodes if isinstance(n, ast.Call) and _is_backward(n)]
        if not model_calls or not backwards:
            return None
        backward = min(backwards, key=lambda n: (n.lineno, n.col_offset))
        data = _target_names(loop)
        assigns = [n for n in nodes if isinstance(n, ast.Assign)]
        for stmt in sorted(assigns, key=lambda n: n.lineno):
            value_names = {n.id for n in ast.walk(stmt.value) if isinstance(n, ast.Name)}
            from_model = any(isinstance(n, ast.Call) and target_text(n.func) in names for n in ast.walk(stmt.value))
            if from_model or value_names & data:
                data |= {n.id for t in stmt.targets for n in ast.walk(t)
                         if isinstance(n, ast.Name) and not _counter(n.id)}
        synced = self._all_reduced(nodes)
        skips = [n for n in nodes if isinstance(n, ast.If) and _skip_if(n)]
        for skip in sorted(skips, key=lambda n: n.lineno):
            if skip.lineno >= backward.lineno:
                break
            test_text = ast.unparse(skip.test).lower()
            if any(w in test_text for w in _SYNC_WORDS):
                continue
            if any(isinstance(n, ast.Call) and (target_text(n.func) or "").rsplit(".", 1)[-1] not in _LOCAL_OPS
                   for n in ast.walk(skip.test)):
                continue
            read = {n.id for n in ast.walk(skip.test) if isinstance(n, ast.Name)}
            if not read & data or read & synced:
                continue
            binding = next(b for name, b in models)
            return ctx.finding(
                self, skip,
                f"this `continue` skips the backward on line {backward.lineno} when `{ast.unparse(skip.test)}` "
                "holds, a test of this rank's own batch or loss, in a loop that trains a "
                "DistributedDataParallel (or prepared) model: the other ranks run their backward, whose gradient all-reduce "
                "waits for this rank, so the job hangs (or the ranks' steps drift apart). Decide the skip on every "
                "rank together (all-reduce a flag), or keep the backward with a zeroed loss",
                evidence=[ctx.evidence(binding, "the model is wrapped (DistributedDataParallel, accelerator.prepare) here"),
                          ctx.evidence(backward, "the backward the other ranks run")])
        return None

    @staticmethod
    def _all_reduced(nodes: list[ast.AST]) -> set[str]:
        """Names a collective of the loop writes into (``dist.all_reduce(flag)``) or returns into
        (``flags = accelerator.gather(flag)``)."""
        out: set[str] = set()

        def collective(node: ast.AST) -> bool:
            return isinstance(node, ast.Call) and any(w in ast.unparse(node.func).lower() for w in _SYNC_WORDS[:3])

        for node in nodes:
            if isinstance(node, ast.Call) and collective(node):
                out |= {n.id for a in node.args for n in ast.walk(a) if isinstance(n, ast.Name)}
            if isinstance(node, ast.Assign) and any(collective(n) for n in ast.walk(node.value)):
                out |= {n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        return out
