"""PF695 step-schedule-sized-to-one-epoch: a learning-rate schedule whose length is ``len(loader)`` (the
batches of one epoch), stepped after every batch of that loader inside a loop over several epochs."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator, Optional, Union

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

# schedules sized in steps -> (keyword holding the length, its position or -1), and what happens past the end
_DECAY_TO_END = "the learning rate reaches its end value (0 for the linear and cosine warmup schedules) after " \
                "the first epoch, so every later epoch trains at that rate and learns (almost) nothing"
_LENGTH_ARG = {
    "get_linear_schedule_with_warmup": ("num_training_steps", 2, _DECAY_TO_END),
    "get_cosine_schedule_with_warmup": ("num_training_steps", 2, _DECAY_TO_END),
    "get_polynomial_decay_schedule_with_warmup": ("num_training_steps", 2, _DECAY_TO_END),
    "get_scheduler": ("num_training_steps", -1, _DECAY_TO_END),
    "LinearLR": ("total_iters", -1, "the linear ramp ends after the first epoch, so the later epochs never see "
                                    "the schedule you sized"),
    "PolynomialLR": ("total_iters", 1, "the learning rate reaches 0 after the first epoch, so every later epoch "
                                       "trains at rate 0"),
    "CosineAnnealingLR": ("T_max", 1, "the cosine reaches eta_min at the end of the first epoch and then climbs "
                                      "back to the initial rate during the second, so the run oscillates once per "
                                      "epoch instead of annealing once"),
    "OneCycleLR": ("total_steps", -1, "OneCycleLR raises `ValueError: Tried to step ... times` at the first "
                                      "step of the second epoch, after a whole epoch of training"),
}
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_Loop = Union[ast.For, ast.AsyncFor]
_WRAPPERS = {"enumerate", "tqdm", "iter", "trange_wrap", "track"}


def _length(call: ast.Call) -> Optional[ast.expr]:
    key, pos, _ = _LENGTH_ARG[call_last(call)]
    for kw in call.keywords:
        if kw.arg == key:
            return kw.value
    if pos >= 0 and len(call.args) > pos:
        return call.args[pos]
    return None


def _single_assignments(scope: ast.AST) -> dict[str, ast.expr]:
    """Names ``scope`` binds exactly once, by a plain ``name = value`` (nested functions apart)."""
    assigned: dict[str, ast.expr] = {}
    counts: dict[str, int] = {}
    for node in _walk_scope(scope):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            assigned[node.targets[0].id] = node.value
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr)):
            targets = [node.target]
        for t in targets:
            for n in ast.walk(t):
                if isinstance(n, ast.Name):
                    counts[n.id] = counts.get(n.id, 0) + 1
    return {k: v for k, v in assigned.items() if counts.get(k) == 1}


def _walk_scope(scope: ast.AST) -> Iterator[ast.AST]:
    """Nodes of ``scope`` without descending into nested functions or classes."""
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, _FUNCS):
            todo.extend(ast.iter_child_nodes(node))


def _one_epoch_of(expr: Optional[ast.expr], assigned: dict[str, ast.expr], depth: int = 0) -> Optional[str]:
    """``X`` when the length is ``len(X)`` alone (directly or through a name bound once to it), else None."""
    if isinstance(expr, ast.Name) and expr.id in assigned and depth < 2:
        return _one_epoch_of(assigned[expr.id], assigned, depth + 1)
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "len" \
            and len(expr.args) == 1 and not expr.keywords \
            and isinstance(expr.args[0], (ast.Name, ast.Attribute)):
        return ast.unparse(expr.args[0])
    return None


def _iterated(it: ast.expr) -> str:
    """What a ``for`` iterates, through ``enumerate(...)`` / ``tqdm(...)`` / ``iter(...)``."""
    while isinstance(it, ast.Call) and it.args and (
            (isinstance(it.func, ast.Name) and it.func.id in _WRAPPERS)
            or (isinstance(it.func, ast.Attribute) and it.func.attr in _WRAPPERS)):
        it = it.args[0]
    return ast.unparse(it)


def _epochs_loop(loop: ast.AST) -> bool:
    """A ``for`` over several epochs: ``range(N)`` / ``range(a, N)`` with N not the literal 0 or 1, or a loop
    whose variable names epochs."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        return False
    it = loop.iter
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id in ("range", "trange") and it.args:
        end = it.args[-1] if len(it.args) <= 2 else it.args[1]
        if isinstance(end, ast.Constant) and end.value in (0, 1):
            return False
        if len(it.args) == 2 and isinstance(it.args[0], ast.Constant) and isinstance(end, ast.Constant) \
                and isinstance(it.args[0].value, int) and isinstance(end.value, int) \
                and end.value - it.args[0].value <= 1:
            return False
        return "epoch" in ast.unparse(loop.target).lower() or "epoch" in ast.unparse(it).lower()
    return "epoch" in ast.unparse(loop.target).lower()


def _stops_early(loop: _Loop) -> bool:
    """The epoch loop can end before its last epoch (``break`` / ``return`` outside an inner loop's own
    ``break``), e.g. once the step count reaches the schedule's length."""
    for node in ast.walk(loop):
        if isinstance(node, ast.Return):
            return True
        if isinstance(node, ast.Break):
            return True
    return False


def _scheduler_steps(scope: ast.AST, name: str) -> Iterator[ast.Call]:
    for node in _walk_scope(scope):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "step" \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == name:
            yield node


@register
class StepScheduleSizedToOneEpoch(Rule):
    code = "PF695"
    name = "step-schedule-sized-to-one-epoch"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "transformers")
    needs_text = ("len(",)
    summary = ("A learning-rate schedule sized `len(loader)` (one epoch of batches) is stepped every batch of "
               "a loop over several epochs: it ends after the first epoch")
    explanation = """
## What it finds

In one function (or at module level), a schedule sized in steps
(`get_linear_schedule_with_warmup` / `get_cosine_schedule_with_warmup` /
`get_polynomial_decay_schedule_with_warmup` / `get_scheduler(num_training_steps=...)`,
`CosineAnnealingLR(T_max=...)`, `LinearLR` / `PolynomialLR(total_iters=...)`,
`OneCycleLR(total_steps=...)`) whose length is `len(loader)` alone (directly or through a name
bound once to it), built before a loop over several epochs, and stepped (`scheduler.step()`)
inside the loop over that same `loader`, nested in the epoch loop.

## Why it matters

`len(loader)` is the number of batches in one epoch. A schedule of that length stepped once
per batch is finished at the end of the first epoch: the linear and cosine warmup schedules
sit at learning rate 0 for every later epoch (the loss flattens after epoch 1 and nothing
fails), `CosineAnnealingLR` climbs back up to the initial rate in the second epoch and
oscillates once per epoch, and `OneCycleLR` raises `Tried to step N times` at the first step
of epoch 2. Public reports: determined-ai/determined pull request 711 (the BERT SQuAD example's
`num_training_steps` was far below the steps taken, "we end up with a LR of zero pretty
quickly ... causing the learning to basically stop"), huggingface/transformers pull request
27667 (a schedule sized with the training-set length instead of the total optimizer steps),
pytorch/vision issue 2007 ("my lr was 0.0001 but after some epoch it become zero").

## How to fix it

Size the schedule for the whole run: `num_training_steps=len(loader) * num_epochs` (divided by
the gradient-accumulation steps when the schedule steps with the optimizer), `T_max=len(loader)
* epochs`, or `OneCycleLR(..., epochs=epochs, steps_per_epoch=len(loader))`.

## When preflight stays silent

* The length multiplies or adds anything (`len(loader) * epochs`, `epochs * len(loader)`).
* The schedule is stepped once per epoch (outside the batch loop; PF474 reports a batch-sized
  schedule stepped per epoch), or it is built inside the epoch loop or rebuilt there under the
  same name (a fresh schedule each epoch, a restart on purpose).
* The outer loop runs a single epoch (`range(1)`), is not a loop over epochs, or can end early
  (`break` / `return` in it, e.g. once the step count reaches the schedule's length).
* The `len(...)` is of something other than the loader the stepping loop iterates (a dataset's
  sample count is PF170's case).
"""
    bad_examples = examples("preflight.rules.code._pf695_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf695_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        scopes: list[ast.AST] = [ctx.tree, *ctx.nodes(ast.FunctionDef), *ctx.nodes(ast.AsyncFunctionDef)]
        for scope in scopes:
            yield from self._check_scope(ctx, scope)

    def _check_scope(self, ctx: FileContext, scope: ast.AST) -> Iterator[Finding]:
        assigned: Optional[dict[str, ast.expr]] = None
        for node in _walk_scope(scope):
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call)
                    and call_last(node.value) in _LENGTH_ARG):
                continue
            call = node.value
            if assigned is None:
                assigned = _single_assignments(scope)
            loader = _one_epoch_of(_length(call), assigned)
            if loader is None:
                continue
            if any(isinstance(a, (ast.For, ast.AsyncFor, ast.While)) for a in self._ancestors(ctx, node, scope)):
                continue  # built inside a loop: a fresh schedule each time round
            if self._rebound(scope, node):
                continue  # rebuilt later (at each epoch's end): a restart per epoch, on purpose
            for step in _scheduler_steps(scope, node.targets[0].id):
                if self._stepped_per_batch_over_epochs(ctx, step, scope, loader):
                    effect = _LENGTH_ARG[call_last(call)][2]
                    yield ctx.finding(
                        self, call,
                        f"`{call_last(call)}` is sized `len({loader})`, the batches of ONE epoch, but "
                        f"`{node.targets[0].id}.step()` runs after every batch of `{loader}` inside a loop over "
                        f"several epochs (line {step.lineno}): {effect}. Size it for the whole run, e.g. "
                        f"`len({loader}) * num_epochs` (divided by the gradient-accumulation steps when it steps "
                        "with the optimizer)",
                        evidence=[ctx.evidence(step, "stepped once per batch here")])
                    break

    @staticmethod
    def _rebound(scope: ast.AST, assign: ast.Assign) -> bool:
        """The schedule's name is bound again elsewhere in the scope."""
        target = assign.targets[0]
        assert isinstance(target, ast.Name)
        for node in _walk_scope(scope):
            if node is not target and isinstance(node, ast.Name) and node.id == target.id \
                    and isinstance(node.ctx, ast.Store):
                return True
        return False

    @staticmethod
    def _ancestors(ctx: FileContext, node: ast.AST, scope: ast.AST) -> Iterator[ast.AST]:
        for anc in ctx.ancestors(node):
            if anc is scope:
                return
            yield anc

    def _stepped_per_batch_over_epochs(self, ctx: FileContext, step: ast.Call, scope: ast.AST,
                                       loader: str) -> bool:
        batch_loop: Optional[_Loop] = None
        for anc in self._ancestors(ctx, step, scope):
            if isinstance(anc, (ast.If, ast.With, ast.AsyncWith, ast.Try)) or isinstance(anc, ast.stmt) is False:
                continue
            if isinstance(anc, (ast.For, ast.AsyncFor)):
                if batch_loop is None:
                    if _iterated(anc.iter) != loader:
                        return False
                    batch_loop = anc
                    continue
                return _epochs_loop(anc) and not _stops_early(anc)
            if isinstance(anc, ast.While):
                return False
        return False
