"""PF430 prepared-epoch-scheduler: a scheduler passed to ``accelerator.prepare`` and stepped once per epoch."""

from __future__ import annotations

import ast
from typing import Iterable, Optional, Sequence

from preflight.analysis.context import FileContext
from preflight.analysis.syntax import walk
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls_by_attr
from preflight.rules._pf414_support import last_name
from preflight.rules.base import Rule, examples

_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def _is_scheduler(call: ast.AST) -> bool:
    if not isinstance(call, ast.Call):
        return False
    name = last_name(call.func)
    text = ast.unparse(call.func)
    return "lr_scheduler" in text or (name.endswith("LR") and name[:1].isupper()) \
        or name == "ReduceLROnPlateau" or (name.startswith("get_") and "schedule" in name)


def _unlinked(ctx: FileContext) -> bool:
    """An ``Accelerator`` whose prepared schedulers step once per call (or that cannot be read)."""
    for call in ctx.nodes(ast.Call):
        if last_name(call.func) != "Accelerator":
            continue
        for kw in call.keywords:
            if kw.arg is None:
                return True
            if kw.arg in ("step_scheduler_with_optimizer", "split_batches"):
                value = kw.value.value if isinstance(kw.value, ast.Constant) else None
                if kw.arg == "step_scheduler_with_optimizer" and value is not True:
                    return True
                if kw.arg == "split_batches" and value is not False:
                    return True
        if any(kw.arg == "dataloader_config" for kw in call.keywords):
            return True  # split_batches may be set there
    return False


def _bound_call(nodes: Sequence[ast.AST], name: str, before: int) -> Optional[ast.Call]:
    """The last ``name = <call>`` of ``nodes`` (a function walked) before line ``before``."""
    found = None
    for node in nodes:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and node.lineno < before \
                and any(isinstance(t, ast.Name) and t.id == name for t in node.targets) \
                and (found is None or node.lineno > found.lineno):
            found = node
    return found.value if found is not None and isinstance(found.value, ast.Call) else None


def _assigns_of(ctx: FileContext, name: str) -> list[ast.Assign]:
    """The file's ``name = <call>`` assignments (by name, built once)."""
    def build() -> dict[str, list[ast.Assign]]:
        out: dict[str, list[ast.Assign]] = {}
        for node in ctx.unordered(ast.Assign):
            if isinstance(node.value, ast.Call):
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        out.setdefault(t.id, []).append(node)
        return out

    return ctx.cached("pf430-assigns-by-name", build).get(name, [])


def _own(node: ast.AST) -> Iterable[ast.AST]:
    stack = list(ast.iter_child_nodes(node))
    while stack:
        cur = stack.pop()
        yield cur
        if not isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(cur))


def _epoch_level(ctx: FileContext, step: ast.Call) -> Optional[ast.AST]:
    """The loop that repeats ``step`` when that loop also holds the batch loop (the one that runs
    backward) and the step is not in it."""
    loop = next((a for a in ctx.ancestors(step) if isinstance(a, (*_LOOPS, ast.FunctionDef))), None)
    if not isinstance(loop, _LOOPS):
        return None
    inner = [n for n in _own(loop) if isinstance(n, _LOOPS) and _trains(n)]
    if not inner or any(step in set(walk(n)) for n in inner):
        return None
    # an optimizer stepped at the scheduler's level (manual accumulation: micro-batches in an inner loop)
    for node in _level(loop):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "step" \
                and node is not step and ast.unparse(node.func.value) != ast.unparse(step.func.value):  # type: ignore[attr-defined]
            return None
    return loop


def _level(loop: ast.AST) -> Iterable[ast.AST]:
    """The nodes of a loop's body outside its nested loops and functions."""
    stack = list(ast.iter_child_nodes(loop))
    while stack:
        cur = stack.pop()
        yield cur
        if not isinstance(cur, (*_LOOPS, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(cur))


def _trains(loop: ast.AST) -> bool:
    """The loop runs backward (the batch loop): ``backward(...)`` / ``accelerator.backward(...)``."""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "backward"
               for n in walk(loop))


@register
class PreparedEpochScheduler(Rule):
    code = "PF430"
    needs_text = ("prepare",)
    name = "prepared-epoch-scheduler"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = "A scheduler passed to `accelerator.prepare` is stepped once per epoch (it advances once per process)"
    explanation = """
## What it finds

A learning-rate scheduler that goes through `accelerator.prepare(...)` and whose
`.step()` is called in the epoch loop, outside the batch loop (an epoch schedule:
`StepLR(step_size=20)` meant as "every 20 epochs").

## Why it matters

`prepare` wraps the scheduler in `AcceleratedScheduler`, which assumes one
`step()` per optimizer step and, because each process sees only its shard of the
batches, calls the real `scheduler.step()` `num_processes` times per call. A
schedule counted in epochs then runs `num_processes` times too fast: on 4 GPUs
`StepLR(step_size=20)` decays every 5 epochs (accelerate issue 2926).

## How to fix it

Keep the epoch scheduler out of `prepare` (step it yourself once per epoch), or
build the `Accelerator(step_scheduler_with_optimizer=False)`.

## When preflight stays silent

* The scheduler is stepped inside the batch loop (a per-step schedule: that is
  what `prepare` expects).
* `Accelerator(step_scheduler_with_optimizer=False)` or `split_batches=True`
  (one step per call), or Accelerator arguments preflight cannot read.
* Schedulers never passed to `prepare`.
"""
    bad_examples = examples("preflight.rules.code._pf430_examples", "PF430_BAD")
    good_examples = examples("preflight.rules.code._pf430_examples", "PF430_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        prepares = [call for call in calls_by_attr(ctx).get("prepare", ())
                    if isinstance(call.func, ast.Attribute) and "accelerator" in last_name(call.func.value).lower()]
        if not prepares or _unlinked(ctx):
            return  # no `accelerator.prepare(...)` call: nothing to look at
        for call in prepares:
            fn = ctx.enclosing_function(call) or ctx.tree
            parent = ctx.parent(call)
            targets = parent.targets[0] if isinstance(parent, ast.Assign) and len(parent.targets) == 1 else None
            for i, arg in enumerate(call.args):
                if not isinstance(arg, ast.Name):
                    continue
                # the function's assignments of the name, in walk order (the file's few, not a walk)
                binds = ctx.walk_order([a for a in _assigns_of(ctx, arg.id) if ctx.under(a, fn)], fn)
                built = _bound_call(binds, arg.id, call.lineno)
                if built is None or not _is_scheduler(built):
                    continue
                elt = targets.elts[i] if isinstance(targets, ast.Tuple) and i < len(targets.elts) else None
                if isinstance(elt, ast.Name):
                    name = elt.id
                elif isinstance(targets, ast.Name) and len(call.args) == 1:
                    name = targets.id
                else:
                    continue
                steps = [s for s in calls_by_attr(ctx).get("step", ())
                         if isinstance(s.func, ast.Attribute) and isinstance(s.func.value, ast.Name)
                         and s.func.value.id == name and ctx.under(s, fn)]
                for step in ctx.walk_order(steps, fn):  # the first in a walk of the function wins
                    if not step.lineno > call.lineno:
                        continue
                    epoch = _epoch_level(ctx, step)
                    if epoch is None:
                        continue
                    yield ctx.finding(
                        self, built,
                        f"`{last_name(built.func)}` goes through `accelerator.prepare` but is stepped once per epoch "
                        f"(line {step.lineno}): the prepared scheduler steps `num_processes` times per call, so an "
                        "epoch schedule runs that many times too fast on several GPUs. Leave it out of `prepare` "
                        "or build `Accelerator(step_scheduler_with_optimizer=False)`",
                        evidence=[ctx.evidence(call, "prepared here"),
                                  ctx.evidence(step, "stepped once per epoch here")])
                    break
