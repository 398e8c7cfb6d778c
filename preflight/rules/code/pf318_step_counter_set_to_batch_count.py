"""PF318 step-counter-set-to-batch-count: an optimizer-step counter restored on resume from a count of
batches (steps multiplied by the accumulation window)."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _accum(node: ast.AST) -> bool:
    return "accum" in ast.unparse(node).lower()


def _times_window(value: ast.expr) -> Optional[ast.BinOp]:
    """``n * args.gradient_accumulation_steps`` (either side) inside ``value``."""
    for node in ast.walk(value):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and (_accum(node.left) or _accum(node.right)):
            return node
    return None


def _scope_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of one scope, nested blocks included, in source order."""
    for stmt in body:
        if isinstance(stmt, _SCOPES):
            continue
        yield stmt
        for field in ("body", "orelse", "finalbody"):
            yield from _scope_statements(getattr(stmt, field, []) or [])
        for handler in getattr(stmt, "handlers", []) or []:
            yield from _scope_statements(handler.body)


def _step_counters(tree: ast.AST) -> set[str]:
    """Names incremented by one per optimizer step: ``c += 1`` under ``if accelerator.sync_gradients:`` or an
    accumulation test (``if (step + 1) % accum == 0:``), or next to an ``optimizer.step()``."""
    out: set[str] = set()
    for node in ast.walk(tree):
        blocks: list[list[ast.stmt]] = []
        if isinstance(node, ast.If) and ("sync_gradients" in ast.unparse(node.test) or _accum(node.test)):
            blocks.append(node.body)
        elif isinstance(node, (ast.For, ast.While, ast.With, ast.If)):
            body = node.body
            if any(isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Attribute)
                   and s.value.func.attr == "step" and "optim" in ast.unparse(s.value.func.value).lower()
                   for s in body):
                blocks.append(body)
        for block in blocks:
            for s in block:
                if isinstance(s, ast.AugAssign) and isinstance(s.op, ast.Add) and isinstance(s.target, ast.Name) \
                        and isinstance(s.value, ast.Constant) and s.value.value == 1:
                    out.add(s.target.id)
    return out


@register
class StepCounterSetToBatchCount(Rule):
    code = "PF318"
    needs_text = ("accum",)
    name = "step-counter-set-to-batch-count"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "accelerate")
    summary = ("An optimizer-step counter is restored on resume from a count of batches (steps x the "
               "accumulation window)")
    explanation = """
## What it finds

`completed_steps = resume_step` where `resume_step` was last computed as a number of
batches, the checkpoint's optimizer steps times the accumulation window
(`int(name.replace("step_", "")) * args.gradient_accumulation_steps`, possibly minus the
finished epochs), and `completed_steps` counts optimizer steps: the file increments it by
one under `if accelerator.sync_gradients:`, under an accumulation test, or next to
`optimizer.step()`.

## Why it matters

After resuming, the counter is off by the accumulation factor: checkpoints are written
under wrong step names, logging steps jump, and a `max_train_steps` stop ends the run
early (transformers issue 24186, "In examples, complete steps not correct when load from
checkpoint", the `run_*_no_trainer.py` resume code).

## How to fix it

Restore the counter in optimizer steps: `completed_steps = resume_step //
args.gradient_accumulation_steps` before the finished epochs are subtracted, or set it from
the checkpoint's step number directly and derive the batch count from it.

## When preflight stays silent

* The value assigned is divided back (`resume_step // args.gradient_accumulation_steps`) or
  is not the batch count itself.
* The batch count was not computed with an accumulation factor in the same function, or was
  rebound since.
* The counter is not incremented once per optimizer step in the file.
"""
    bad_examples = examples("preflight.rules.code._pf318_examples", "PF318_BAD")
    good_examples = examples("preflight.rules.code._pf318_examples", "PF318_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        counters = ctx.cached("pf318-step-counters", lambda: _step_counters(ctx.tree))
        if not counters:
            return
        scopes: list[list[ast.stmt]] = [ctx.tree.body]
        scopes += [f.body for f in ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef)]
        for body in scopes:
            batches: dict[str, ast.BinOp] = {}
            for stmt in _scope_statements(body):
                if isinstance(stmt, ast.Assign):
                    names = [t.id for t in stmt.targets if isinstance(t, ast.Name)]
                    if len(stmt.targets) == 1 and len(names) == 1:
                        target, value = names[0], stmt.value
                        if target in counters and isinstance(value, ast.Name) and value.id in batches:
                            made = batches[value.id]
                            yield ctx.finding(
                                self, stmt,
                                f"`{target}` counts optimizer steps (it is incremented once per step) but is set to "
                                f"`{value.id}`, a number of batches (line {made.lineno}: `{ast.unparse(made)}`): after "
                                "resuming, checkpoint names, logging steps and the max-steps stop are off by the "
                                f"accumulation factor. Divide it back (`{value.id} // <accumulation steps>`, before "
                                "the finished epochs are subtracted) or set it from the checkpoint's step number",
                                evidence=[ctx.evidence(made, "the batch count: optimizer steps x the window")])
                            continue
                        made_here = _times_window(value)
                        if made_here is not None:
                            batches[target] = made_here
                            continue
                    for t in stmt.targets:
                        for n in ast.walk(t):
                            if isinstance(n, ast.Name):
                                batches.pop(n.id, None)
