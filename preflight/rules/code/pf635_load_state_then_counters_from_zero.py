"""PF635 load-state-then-counters-from-zero: ``accelerator.load_state`` restores the states, but the
training loop after it starts again at epoch 0."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import accelerator_names, calls_by_attr, is_accelerator_receiver
from preflight.rules.base import Rule, examples

_COUNTER_WORDS = ("epoch", "step", "iter", "resume", "skip", "global", "start", "batch")


def _scope_of(ctx: FileContext, node: ast.AST) -> ast.AST:
    for anc in ctx.ancestors(node):
        if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
            return anc
    return ctx.tree


def _is_zero(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value in (0, None) and not isinstance(node.value, bool)


def _assigned(scope: ast.AST, name: str) -> list[ast.expr]:
    """Every value assigned to ``name`` in the scope (plain, annotated and augmented assignments)."""
    out: list[ast.expr] = []
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                for sub in ast.walk(t):
                    if isinstance(sub, ast.Name) and sub.id == name:
                        out.append(node.value if t is sub else ast.Name("?"))
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name) \
                and node.target.id == name and node.value is not None:
            out.append(node.value if isinstance(node, ast.AnnAssign) else ast.Name("?"))
    return out


def _counter_read_back(scope: ast.AST, after: int, before: int) -> bool:
    """Something named like a counter is given a computed value between the load and the loop
    (``starting_epoch = int(path.split("_")[1])``, ``resume_step = ...``, ``state = json.load(f)``)."""
    for node in ast.walk(scope):
        if not isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            continue
        if not (after <= node.lineno < before) or node.value is None or _is_zero(node.value):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for t in targets:
            for sub in ast.walk(t):
                name = sub.id if isinstance(sub, ast.Name) else sub.attr if isinstance(sub, ast.Attribute) else ""
                if any(w in name.lower() for w in _COUNTER_WORDS):
                    return True
    return False


def _start(loop: ast.For) -> Optional[ast.expr]:
    """The start of ``for x in range(...)``: None for ``range(n)``; else the first argument."""
    it = loop.iter
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and it.args):
        return ast.Name("?")
    return it.args[0] if len(it.args) >= 2 else None


@register
class LoadStateThenCountersFromZero(Rule):
    code = "PF635"
    needs_text = ("load_state",)
    name = "load-state-then-counters-from-zero"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = ("`accelerator.load_state(...)` restores the model, optimizer and scheduler, but the training loop "
               "after it starts again at epoch 0: the resumed job trains its whole length again")
    explanation = """
## What it finds

`accelerator.load_state(path)` followed, in the same function, by a training loop
`for epoch in range(start, num_epochs)` (or `range(num_epochs)`) whose start is 0 and never
set from the checkpoint, with nothing named like a counter (`starting_epoch`,
`resume_step`, `completed_steps`, `global_step`) given a computed value between the load
and the loop.

## Why it matters

`save_state`/`load_state` restore the model, the optimizer, the registered objects (the
scheduler) and the RNG states, but not the training loop's own epoch and step counters
(accelerate issue 2702: "Is it possible to get save_state to save step as well?"). A job
resumed at step 6000 of 9000 trains 9000 more steps: the restored schedule runs past its
end, and the checkpoints it writes overwrite the later ones of the first run.

## How to fix it

Recover the epoch and step from the checkpoint (its folder name, as the `no_trainer`
examples do, or a small JSON saved beside it), start the loop there and skip the batches
already seen with `accelerator.skip_first_batches`.

## When preflight stays silent

* A counter is given a computed value between the load and the loop (`starting_epoch =
  int(...)`, `resume_step = ...`), or the loop's start is such a value.
* The loop after the load does not train (no `backward`).
* The load and the loop sit in different functions (preflight cannot tell what the caller passes).
"""
    bad_examples = examples("preflight.rules.code._pf635_examples", "PF635_BAD")
    good_examples = examples("preflight.rules.code._pf635_examples", "PF635_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        names = accelerator_names(ctx)
        for load in calls_by_attr(ctx).get("load_state", []):
            func = load.func
            if not (isinstance(func, ast.Attribute) and is_accelerator_receiver(func.value, names)):
                continue
            scope = _scope_of(ctx, load)
            loop = next((n for n in ast.walk(scope) if isinstance(n, ast.For) and n.lineno > load.lineno
                         and _scope_of(ctx, n) is scope and any(
                             isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
                             and c.func.attr == "backward" for c in ast.walk(n))), None)
            if loop is None:
                continue
            start = _start(loop)
            if start is not None and not _is_zero(start):
                if not isinstance(start, ast.Name) or start.id == "?":
                    continue
                values = _assigned(scope, start.id)
                if not values or not all(_is_zero(v) for v in values):
                    continue
            if _counter_read_back(scope, load.lineno, loop.lineno):
                continue
            where = f"`{ast.unparse(start)}`, only ever 0" if start is not None else "0"
            yield ctx.finding(
                self, loop,
                f"`{ast.unparse(load)}` restores the model, optimizer and scheduler, but this training loop still "
                f"starts at {where}: `load_state` does not restore the loop's epoch and step counters, so a resumed "
                "job trains its whole length again on top of the restored state (the schedule runs past its end). "
                "Recover the epoch and step from the checkpoint and skip the batches already seen",
                evidence=[ctx.evidence(load, "the states are restored here")])
