"""PF140 checkpoint-every-micro-step: ``accelerator.save_state`` gated on an optimizer-step counter's
multiple but tested on every micro-batch of an ``accelerator.accumulate`` loop."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import accelerator_calls
from preflight.rules.base import Rule, examples

_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_SAVES = ("save_state", "save_model")


def _synced(test: ast.expr) -> bool:
    """A test that holds once per optimizer update: ``accelerator.sync_gradients``, an accumulation window."""
    text = ast.unparse(test)
    return "sync_gradients" in text or "accum" in text.lower() or "step_was_skipped" in text


def _has_accumulate(loop: ast.AST) -> bool:
    return any(isinstance(n, (ast.With, ast.AsyncWith)) and any(
        isinstance(i.context_expr, ast.Call) and isinstance(i.context_expr.func, ast.Attribute)
        and i.context_expr.func.attr == "accumulate" for i in n.items) for n in ast.walk(loop))


def _update_counters(loop: ast.AST, manual: bool) -> set[str]:
    """``c += 1`` directly under ``if accelerator.sync_gradients:`` inside the loop (``manual``: under an
    accumulation-window test such as ``if step % args.gradient_accumulation_steps == 0:``)."""
    return {s.target.id for node in ast.walk(loop) if isinstance(node, ast.If) and _synced(node.test)
            and (not manual or "accum" in ast.unparse(node.test).lower())
            for s in node.body if isinstance(s, ast.AugAssign) and isinstance(s.op, ast.Add)
            and isinstance(s.target, ast.Name)}


def _skips_micro_steps(loop: ast.AST) -> bool:
    """``if not accelerator.sync_gradients: continue`` in the loop's own body."""
    return any(isinstance(s, ast.If) and _synced(s.test) and isinstance(s.body[0], ast.Continue)
               for s in getattr(loop, "body", []))


def _counter_multiple(test: ast.expr, counters: set[str]) -> Optional[str]:
    for node in ast.walk(test):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Name) \
                and node.left.id in counters:
            return node.left.id
    return None


@register
class CheckpointEveryMicroStep(Rule):
    code = "PF140"
    name = "checkpoint-every-micro-step"
    severity = Severity.WARNING
    category = Category.PERFORMANCE
    frameworks = ("accelerate",)
    needs_text = ("save_", "accumulate")
    summary = ("`accelerator.save_state` gated on `completed_steps % N == 0` but tested on every micro-batch: "
               "under gradient accumulation each checkpoint is written once per micro-step of the update")
    explanation = """
## What it finds

A training loop over batches with `with accelerator.accumulate(model):`, a counter incremented
under `if accelerator.sync_gradients:` (`completed_steps += 1`) (or, without `accumulate`, under a
hand-written window test `if step % args.gradient_accumulation_steps == 0:`), and an `accelerator.save_state(...)`
(or `save_model`) under a test of that counter's multiple (`if completed_steps % checkpointing_steps
== 0:`) that is not itself under a `sync_gradients` (or accumulation-window) test.

## Why it matters

The counter only advances once per optimizer update, while the test runs on every micro-batch:
once `completed_steps` reaches a multiple of N it stays there for the following
`gradient_accumulation_steps - 1` micro-batches, and the full state (model, optimizer, scheduler,
RNG; a collective save on every process) is written again on each of them. The checkpoint I/O is
multiplied by the accumulation window and training stalls at every checkpoint (transformers PR
33131 fixed this in all the `*_no_trainer.py` examples by adding `and accelerator.sync_gradients`).

## How to fix it

`if accelerator.sync_gradients and completed_steps % checkpointing_steps == 0:` (or move the
save under the `if accelerator.sync_gradients:` block that increments the counter).

## When preflight stays silent

* The save is under a test of `sync_gradients`, of an accumulation window, or the loop skips
  micro-steps (`if not accelerator.sync_gradients: continue`).
* The counter advances on every batch (incremented outside a `sync_gradients` or window test); without
  an `accelerator.accumulate` block, a counter under a `sync_gradients` test (which then holds on every
  batch).
"""
    bad_examples = examples("preflight.rules.code._pf140_examples", "PF140_BAD")
    good_examples = examples("preflight.rules.code._pf140_examples", "PF140_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for method in _SAVES:
            for call in accelerator_calls(ctx, method):
                found = self._micro_step_gate(ctx, call)
                if found is not None:
                    test, counter = found
                    yield ctx.finding(
                        self, call,
                        f"`accelerator.{method}` runs when `{counter}` is a multiple, but `{counter}` advances once "
                        "per optimizer update while this test runs on every micro-batch of the accumulation "
                        "window: each checkpoint is written again on every micro-step of that update. Add "
                        "`accelerator.sync_gradients` to the condition",
                        evidence=[ctx.evidence(test, "tested on every micro-batch")])

    @staticmethod
    def _micro_step_gate(ctx: FileContext, call: ast.Call) -> Optional[tuple[ast.expr, str]]:
        tests: list[ast.expr] = []
        cur = ctx.parent(call)
        while cur is not None and not isinstance(cur, _LOOPS):
            if isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                return None
            if isinstance(cur, ast.If):
                tests.append(cur.test)
            cur = ctx.parent(cur)
        if cur is None or not tests or any(_synced(t) for t in tests):
            return None
        if _skips_micro_steps(cur):
            return None
        counters = _update_counters(cur, manual=not _has_accumulate(cur))
        for test in tests:
            counter = _counter_multiple(test, counters)
            if counter is not None:
                return test, counter
        return None
