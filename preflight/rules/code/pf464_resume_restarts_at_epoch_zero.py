"""PF464 resume-restarts-at-epoch-zero: ``accelerator.load_state(...)`` to resume, then an epoch loop
``for epoch in range(num_epochs)`` that starts again at epoch 0, step 0."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.syntax import walk
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import accelerator_names, calls_by_attr, is_accelerator_receiver
from preflight.rules.base import Rule, examples


def _skips_done_epochs(loop: ast.For) -> bool:
    """The loop body skips iterations by its own variable (``if epoch < start: continue``)."""
    var = loop.target.id if isinstance(loop.target, ast.Name) else None
    for node in ast.walk(loop):
        if isinstance(node, ast.If) and any(isinstance(s, ast.Continue) for s in node.body) and var and any(
                isinstance(n, ast.Name) and n.id == var for n in ast.walk(node.test)):
            return True
    return False


def _epoch_loop(ctx: FileContext, fn: ast.AST, after: int) -> Optional[ast.For]:
    """The first ``for x in range(N)`` (one argument) of ``fn`` after line ``after``, in walk
    order, whose body backpropagates."""
    loops = [node for node in ctx.nodes(ast.For)
             if node.lineno > after and isinstance(node.iter, ast.Call)
             and isinstance(node.iter.func, ast.Name) and node.iter.func.id == "range"
             and not node.iter.keywords and ctx.under(node, fn)
             and (len(node.iter.args) == 1
                  or (len(node.iter.args) == 2 and _only_zero(ctx, fn, node.iter.args[0])))]
    for node in ctx.walk_order(loops, fn):
        if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "backward"
               for n in walk(node)):
            return node
    return None


def _only_zero(ctx: FileContext, fn: ast.AST, expr: ast.AST) -> bool:
    """``expr`` is a name that ``fn`` only ever binds to 0 or None (``starting_epoch = 0`` never read
    back from the checkpoint), or the constant 0 itself."""
    if isinstance(expr, ast.Constant):
        return expr.value in (0, None) and not isinstance(expr.value, bool)
    if not isinstance(expr, ast.Name):
        return False
    values: list[Optional[ast.AST]] = []
    for node in ctx.nodes(ast.Assign, ast.AugAssign, ast.AnnAssign):
        if not ctx.under(node, fn):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for t in targets:
            for sub in ast.walk(t):
                if isinstance(sub, ast.Name) and sub.id == expr.id:
                    values.append(node.value if t is sub and not isinstance(node, ast.AugAssign) else None)
    return bool(values) and all(isinstance(v, ast.Constant) and v.value in (0, None)
                                and not isinstance(v.value, bool) for v in values)


def _skips_batches(ctx: FileContext, fn: ast.AST, calls: list[ast.Call]) -> bool:
    """Some ``skip_first_batches(loader, n)`` skips a count that can be non-zero (not a name only
    ever bound to 0 or None, as a ``resume_step = None`` never set from the checkpoint is)."""
    return any(not (len(c.args) >= 2 and _only_zero(ctx, fn, c.args[1])) for c in calls)


def _recounted(ctx: FileContext, fn: ast.AST, loop: ast.For, after: int) -> bool:
    """The loop's count is assigned between the resume and the loop (``num_epochs -= done``)."""
    count = ast.unparse(loop.iter.args[0]) if isinstance(loop.iter, ast.Call) and loop.iter.args else ""
    for node in ctx.nodes(ast.Assign, ast.AugAssign):
        if after <= node.lineno < loop.lineno and ctx.under(node, fn):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(ast.unparse(t) == count for t in targets):
                return True
    return False


def _calls_in(ctx: FileContext, fn: ast.AST, attr: str, names: set[str]) -> list[ast.Call]:
    """The ``<accelerator>.<attr>(...)`` calls of ``fn`` (its whole subtree), in walk order."""
    found = [n for n in calls_by_attr(ctx).get(attr, ())
             if isinstance(n.func, ast.Attribute) and is_accelerator_receiver(n.func.value, names)
             and ctx.under(n, fn)]
    return ctx.walk_order(found, fn)


@register
class ResumeRestartsAtEpochZero(Rule):
    code = "PF464"
    needs_text = ("load_state",)
    name = "resume-restarts-at-epoch-zero"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = ("`accelerator.load_state` resumes a checkpoint, then the epoch loop starts again at epoch 0, "
               "step 0")
    explanation = """
## What it finds

In one function: `accelerator.load_state(...)` that resumes a checkpoint (the function
also writes checkpoints with `accelerator.save_state`, or the argument names a resume
path), followed by the training loop `for epoch in range(num_epochs)` (one argument:
it starts at 0), with no `skip_first_batches` and no skip of the finished epochs in the
loop.

## Why it matters

`load_state` restores the weights, optimizer, scheduler and RNG states, but not where
the run was: the epoch counter and the data loader start from the beginning. A resumed
run trains again on every batch the checkpoint had already seen, the LR schedule
(restored) runs past its planned end, and a job that is preempted and resumed several
times keeps training on the start of the data (accelerate issue 685: "the DataLoader
will sample data from the beginning, i.e, from epoch 0 step 0").

## How to fix it

Keep the epoch and step in the checkpoint name (or a saved counter) and resume from
them: `for epoch in range(starting_epoch, num_epochs)` and
`accelerator.skip_first_batches(train_dataloader, resume_step)` for the first epoch,
as accelerate's `complete_nlp_example.py` does.

The function may be a script's top level, and the loop may be `range(start, num_epochs)`
where `start` is only ever bound to 0 (`starting_epoch = 0` never read back from the
checkpoint); a `skip_first_batches(loader, n)` whose `n` is only ever 0 or None skips nothing
(accelerate issue 2702: "Is it possible to get save_state to save step as well?").

## When preflight stays silent

* The epoch loop starts elsewhere (`range(start, n)`), or skips finished epochs with
  `if epoch < start: continue`, or the function calls `skip_first_batches`, or the
  loop's count is reassigned after the resume (`num_epochs -= done`, as accelerate's
  `fsdp_with_peak_mem_tracking.py` does).
* `load_state` only initialises a new training phase: the function writes no
  `save_state` checkpoints and the argument does not mention resuming.
"""
    bad_examples = examples("preflight.rules.code._pf464_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf464_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        names = accelerator_names(ctx)
        # only the functions around some accelerator's load_state are walked (each one's
        # whole subtree is: walking every function would cost a file's nesting depth times)
        around: set[int] = set()
        for call in calls_by_attr(ctx).get("load_state", ()):
            if isinstance(call.func, ast.Attribute) and is_accelerator_receiver(call.func.value, names):
                fns = [id(a) for a in ctx.ancestors(call) if isinstance(a, ast.FunctionDef)]
                around.update(fns or [id(ctx.tree)])  # a script that resumes at its top level
        if not around:
            return
        done: set[int] = set()
        scopes: list[ast.AST] = [*ctx.nodes(ast.FunctionDef), ctx.tree]
        for fn in scopes:
            if id(fn) in done or id(fn) not in around:
                continue
            done.add(id(fn))
            # the file's few calls, loops and assignments in the function, in ast.walk's order
            loads = _calls_in(ctx, fn, "load_state", names)
            if not loads:
                continue
            load = loads[0]
            resuming = bool(_calls_in(ctx, fn, "save_state", names)) or "resume" in ast.unparse(load).lower()
            if not resuming or _skips_batches(ctx, fn, _calls_in(ctx, fn, "skip_first_batches", names)):
                continue
            loop = _epoch_loop(ctx, fn, load.lineno)
            if loop is None or _skips_done_epochs(loop) or _recounted(ctx, fn, loop, load.lineno):
                continue
            yield ctx.finding(
                self, loop.iter,
                f"`{ast.unparse(loop.iter)}` starts at epoch 0 although `{ast.unparse(load)}` resumed a checkpoint: "
                "load_state restores the weights, optimizer, scheduler and RNG but not the epoch or the loader's "
                "position, so the resumed run trains again on every batch the checkpoint had already seen. Resume "
                "from the saved epoch (`range(starting_epoch, ...)`) and skip the seen batches with "
                "`accelerator.skip_first_batches`",
                evidence=[ctx.evidence(load, "the checkpoint is resumed here")])
