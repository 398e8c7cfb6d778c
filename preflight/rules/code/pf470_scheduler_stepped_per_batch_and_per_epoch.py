"""PF470 scheduler-stepped-twice: one LR scheduler stepped per batch and again per epoch."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import FunctionInfo, LoopInfo, ScopeIndex, scope_index
from preflight.analysis.syntax import walk
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import target_text
from preflight.rules.base import Rule, examples

_SCHEDULER_SUFFIXES = ("LR", "Scheduler", "ReduceLROnPlateau", "LRScheduler")


def _bare_step(node: ast.AST) -> Optional[str]:
    """``X.step()`` without arguments -> the text of ``X`` (a name or ``self.x``)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "step"
            and not node.args and not node.keywords):
        return None
    return target_text(node.func.value)


def _is_scheduler_assign(node: ast.Assign) -> bool:
    if not isinstance(node.value, ast.Call):
        return False
    func = node.value.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name.endswith(_SCHEDULER_SUFFIXES) or ("schedule" in name and name.startswith("get_"))


def _scheduler_targets(ctx: FileContext, fn: FunctionInfo) -> set[str]:
    """What ``fn`` (its whole subtree, nested functions included) assigns a scheduler-like
    constructor's result to (``x = StepLR(...)``). The file's few such assignments are found
    once and credited to every node above them, instead of walking each function."""
    def build() -> dict[ast.AST, set[str]]:
        out: dict[ast.AST, set[str]] = {}
        for node in ctx.unordered(ast.Assign):
            if _is_scheduler_assign(node):
                targets = {t for t in map(target_text, node.targets) if t}
                if targets:
                    for above in ctx.ancestors(node):
                        out.setdefault(above, set()).update(targets)
        return out

    return ctx.cached("pf470-scheduler-targets", build).get(fn.node, set())


def _looks_like_scheduler(ctx: FileContext, text: str, fn: FunctionInfo,
                          known: dict[FunctionInfo, set[str]]) -> bool:
    """``text`` is named like a scheduler or ``fn`` assigns it one; ``known`` keeps each function's
    targets (one walk a function, not one a step call: a script of n loops stepping n
    optimizers would walk its n loops n times)."""
    last = text.rsplit(".", 1)[-1].lower()
    if "sched" in last or last in ("lr_decay", "lr_policy"):
        return True
    targets = known.get(fn)
    if targets is None:
        targets = known[fn] = _scheduler_targets(ctx, fn)
    return text in targets


def _guarded(node: ast.AST, stop: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Some ``if``/``try``/``with``-free test between ``node`` and ``stop`` chooses whether it runs,
    other than an accumulation boundary (``if (i + 1) % accum == 0``)."""
    cur = parents.get(node)
    while cur is not None and cur is not stop:
        if isinstance(cur, (ast.If, ast.IfExp)) and not any(
                isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mod) for n in walk(cur.test)):
            return True
        if isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return True
        cur = parents.get(cur)
    return False


def _accumulation_tail(node: ast.AST, stop: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """The per-epoch call sits under a modulo test (``if step % accum != 0:`` after the batch loop):
    it steps the schedule with the optimizer step of the accumulation tail, one per optimizer step."""
    cur = parents.get(node)
    while cur is not None and cur is not stop:
        if isinstance(cur, ast.If) and any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mod)
                                           for n in walk(cur.test)):
            return True
        cur = parents.get(cur)
    return False


def _inner_step(scopes: ScopeIndex, fn: FunctionInfo, text: str, within: Optional[ast.AST],
                parents: dict[ast.AST, ast.AST]) -> Optional[ast.Call]:
    """An unguarded ``text.step()`` inside a loop of ``fn`` (nested in ``within`` when given)."""
    root = within if within is not None else fn.node
    for node in walk(root):
        if node is root or _bare_step(node) != text:
            continue
        assert isinstance(node, ast.Call)
        if scopes.function_of(node) is not fn:
            continue
        loop = scopes.loop_of(node)
        if loop is None or (within is not None and not any(outer.node is within for outer in loop.chain())) or (
                within is not None and loop.node is within):
            continue
        if isinstance(loop.node, ast.While) or not loop.training:
            continue  # (a ``scheduler`` of requests or jobs is stepped outside any training loop)
        if not _guarded(node, loop.node, parents):
            return node
    return None


@register
class SchedulerSteppedPerBatchAndPerEpoch(Rule):
    code = "PF470"
    needs_text = (".step()",)
    name = "scheduler-stepped-per-batch-and-per-epoch"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = "One LR scheduler is stepped per batch inside the epoch and again once per epoch"
    explanation = """
## What it finds

In an epoch loop, `scheduler.step()` (no argument) after the batch loop, while the same
scheduler is also stepped inside a loop over the batches: a nested loop of the same function,
or a loop of a function of this file that the epoch loop calls with the scheduler as an
argument (`train_one_epoch(model, loader, optim, scheduler)`), or, for `self.scheduler`, a
method of the same class.

## Why it matters

Every `step()` advances the schedule by one. Stepped once per batch and again once per
epoch, it advances `num_batches + 1` times per epoch: whichever unit the schedule was written
in (`StepLR(step_size=3)` in epochs, a warmup in steps), one of the two calls puts it out by
a factor of the number of batches: the learning rate decays hundreds of times too fast, or
the warmup and decay end early (meshed-memory-transformer issue 71: "you call
scheduler.step() per epoch, then also call scheduler.step() per batch again").

## How to fix it

Keep the one call that matches the unit the schedule's length was written in: per batch for
step-based schedules (`OneCycleLR`, `get_linear_schedule_with_warmup`), per epoch for
epoch-based ones (`StepLR`, `MultiStepLR`, `CosineAnnealingLR(T_max=epochs)`).

## When preflight stays silent

* Either call passes an argument (`scheduler.step(epoch)` sets the position; `ReduceLROnPlateau`
  steps on a metric), or the two calls are on different schedulers (a warmup per batch, a
  decay per epoch).
* Either call is chosen by a test (`if args.step_per_batch: ...`) other than an accumulation
  boundary (`if (i + 1) % accum == 0:` still steps every optimizer step), or the inner one
  sits in a `while` loop.
* The per-epoch call is the accumulation tail's (`if step % accum != 0:` after the batch
  loop, with the leftover optimizer step): one schedule step per optimizer step.
* The helper is not defined in this file, or is given another object.
* The inner loop trains nothing (no backward or optimizer step in it): a `scheduler` of
  requests or jobs stepped in nested loops is no learning-rate schedule.
* The name is not a scheduler's: its name has no `sched` and it is not built by a
  `...LR`/`...Scheduler` class or a `get_..._schedule...` function in the function.
"""
    bad_examples = examples("preflight.rules.code._pf470_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf470_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        scopes: Optional[ScopeIndex] = None
        parents: Optional[dict[ast.AST, ast.AST]] = None
        reported: set[ast.AST] = set()
        known: dict[FunctionInfo, set[str]] = {}
        for call in ctx.nodes(ast.Call):
            text = _bare_step(call)
            if text is None:
                continue
            if scopes is None:
                scopes, parents = scope_index(ctx), ctx._parents  # the index's map: no second walk
            assert parents is not None
            fn = scopes.function_of(call)
            loop: Optional[LoopInfo] = scopes.loop_of(call)
            if loop is None or not isinstance(loop.node, (ast.For, ast.AsyncFor)):
                continue
            if _guarded(call, loop.node, parents) or _accumulation_tail(call, loop.node, parents) or (
                    not _looks_like_scheduler(ctx, text, fn, known) and not (
                    text.startswith("self.") and fn.cls is not None and any(
                        _looks_like_scheduler(ctx, text, m, known) for m in fn.cls.methods.values()))):
                continue
            found = self._same_function(scopes, fn, loop, text, call, parents)
            if found is None:
                found = self._in_callee(scopes, fn, loop, text, parents)
            if found is None:
                continue
            inner, where = found
            if inner in reported:
                continue
            reported.add(inner)
            yield ctx.finding(
                self, inner,
                f"`{ast.unparse(inner.func)}()` steps the scheduler once per batch here, and `{text}.step()` "
                f"steps it again once per epoch (line {call.lineno}, after {where}): the schedule advances "
                "`num_batches + 1` times per epoch, so it runs out (or decays) far earlier than written. Keep "
                "the one call that matches the unit of the schedule's length (per batch for step-based "
                "schedules, per epoch for epoch-based ones)",
                evidence=[ctx.evidence(call, "the per-epoch step of the same scheduler")])

    @staticmethod
    def _same_function(scopes: ScopeIndex, fn: FunctionInfo, loop: LoopInfo, text: str, call: ast.Call,
                       parents: dict[ast.AST, ast.AST]) -> Optional[tuple[ast.Call, str]]:
        inner = _inner_step(scopes, fn, text, loop.node, parents)
        if inner is None or inner is call:
            return None
        return inner, "the batch loop"

    @staticmethod
    def _in_callee(scopes: ScopeIndex, fn: FunctionInfo, loop: LoopInfo, text: str,
                   parents: dict[ast.AST, ast.AST]) -> Optional[tuple[ast.Call, str]]:
        for node in walk(loop.node):
            if not isinstance(node, ast.Call) or scopes.function_of(node) is not fn:
                continue
            if scopes.loop_of(node) is not loop or _guarded(node, loop.node, parents):
                continue
            callee = scopes.bindings.target_of(node)
            if callee is None or callee is fn:
                continue
            inner_text: Optional[str] = None
            if text.startswith("self."):
                if callee.cls is not None and callee.cls is fn.cls:
                    inner_text = text
            else:
                for param, arg in scopes.bindings.iter_arg_params(node, callee):
                    if isinstance(arg, ast.Name) and arg.id == text:
                        inner_text = param
            if inner_text is None:
                continue
            inner = _inner_step(scopes, callee, inner_text, None, parents)
            if inner is not None:
                return inner, f"the call of `{callee.name}()`"
        return None
