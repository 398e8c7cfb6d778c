"""PF315 optimizer-rebuilt-every-epoch: a stateful optimizer (Adam, RMSprop, SGD with momentum, ...) built anew
at every epoch, in the epoch loop or in a per-epoch function, so its moment estimates restart each epoch."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator, Optional, Union

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, stateful_optimizer
from preflight.rules.base import Rule, examples

# torch.optim classes that keep per-parameter state across steps (SGD: only with momentum)
_LOST = {"SGD with momentum": "its momentum buffers restart from zero every epoch, so each epoch begins without velocity",
         "": "its state (moment estimates, step count) restarts from zero every epoch, so each epoch begins "
             "with oversized bias-corrected updates"}
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_Loop = Union[ast.For, ast.AsyncFor]


def _epoch_loop(loop: ast.AST) -> bool:
    return isinstance(loop, (ast.For, ast.AsyncFor)) and "epoch" in ast.unparse(loop.target).lower()


def _steps(fn: ast.AST, name: str) -> Iterator[ast.Call]:
    """``name.step(...)`` and ``scaler.step(name)`` in ``fn``."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "step":
            receiver = isinstance(node.func.value, ast.Name) and node.func.value.id == name
            if receiver or any(isinstance(a, ast.Name) and a.id == name for a in node.args):
                yield node


def _batch_loop(ctx: FileContext, step: ast.Call, fn: ast.AST) -> Optional[_Loop]:
    """The loop (not over ``range``) in ``fn`` around ``step`` whose body calls ``.backward()``."""
    for anc in ctx.ancestors(step):
        if anc is fn or isinstance(anc, _FUNCS):
            return None
        if isinstance(anc, (ast.For, ast.AsyncFor)) and not _epoch_loop(anc):
            it = anc.iter
            if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range":
                continue
            if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "backward"
                   for n in ast.walk(anc)):
                return anc
    return None


def _deliberate(test: ast.expr, name: str) -> bool:
    """An ``if`` that picks when to rebuild (``if epoch == unfreeze_at``, ``if opt is None``), not a config
    switch between two optimizers (``if args.diff_lr:``)."""
    text = ast.unparse(test).lower()
    return any(w in text for w in ("epoch", "none", "stage", "phase", "freeze", name.lower()))


def _ancestors_within(ctx: FileContext, node: ast.AST, fn: ast.AST) -> Iterator[ast.AST]:
    for anc in ctx.ancestors(node):
        if anc is fn:
            return
        yield anc


def _kept(fn: ast.AST, name: str) -> bool:
    """The optimizer leaves the function or gets its state back (``return opt``, ``self.opt = opt``,
    ``opt.load_state_dict(...)``): built per call, but not necessarily thrown away."""
    for node in ast.walk(fn):
        if (isinstance(node, (ast.Return, ast.Yield)) and node.value is not None
                and any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node.value))):
            return True
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id == name:
            return True
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "load_state_dict" and ast.unparse(node.func.value) == name):
            return True
    return False


def _per_epoch_function(fn: ast.AST) -> bool:
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    params = [a.arg.lower() for a in fn.args.args + fn.args.kwonlyargs]
    return "epoch" in fn.name.lower() or any(p in ("epoch", "ep", "epoch_idx", "cur_epoch", "current_epoch")
                                             for p in params)


@register
class OptimizerRebuiltEveryEpoch(Rule):
    code = "PF315"
    name = "optimizer-rebuilt-every-epoch"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    needs_text = ("optim",)
    summary = ("a stateful optimizer (Adam, RMSprop, SGD with momentum, ...) is built anew every epoch, in the epoch "
               "loop or in a per-epoch function: its moment estimates and step count restart each epoch")
    explanation = """
## What it finds

A `torch.optim` optimizer that keeps state between steps (`Adam`, `AdamW`, `RMSprop`, `Adagrad`,
`SGD(momentum=...)`, ...) bound to a local name and stepped in a batch loop (a loop whose body calls
`.backward()`) of the same function, where the construction itself runs once per epoch:

* it sits in a loop over the epochs (`for epoch in range(epochs):`) that also holds the batch loop, or
* it sits, outside any loop, in a function that trains one epoch (its name says `epoch`,
  `train_epoch`, or it takes an `epoch` parameter: Lipreading-PyTorch issue 7, `Trainer.epoch(model, epoch)`
  builds `optim.Adam(...)` on its first line).

## Why it matters

Adam's first and second moment estimates and its step counter live in the optimizer. A new optimizer
every epoch throws them away: each epoch starts again with bias-corrected, near-unit-size updates
(for Adam, about `lr` per parameter regardless of the gradient's scale), and the second-moment average
never covers more than one epoch. Training is noisier and usually ends worse; momentum SGD loses
its velocity the same way. An LR scheduler attached to the old optimizer stops acting, too.

## How to fix it

Build the optimizer once, before the epoch loop (or in `__init__`), and reuse it.

## When preflight stays silent

* Plain `SGD` without momentum (no state to lose), or an optimizer that is not `torch.optim`'s.
* The construction is under an `if` (or `while`) whose test names the epoch, a stage, a phase,
  freezing, `None` or the optimizer itself (`if epoch == unfreeze_at:`, `if opt is None:`): rebuilt or
  created on purpose. An `if` that only picks between two optimizers (`if args.diff_lr:`) does not count.
* The per-epoch function returns the optimizer, stores it (`self.opt = opt`) or loads its state
  (`opt.load_state_dict(...)`).
* The optimizer is stored on `self` or built in a function that loops over the epochs itself.
"""
    bad_examples = examples("preflight.rules.code._pf315_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf315_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call, qual in calls(ctx):
            kind = stateful_optimizer(call, qual)
            assign = ctx.parent(call)
            if kind is None or not (isinstance(assign, ast.Assign) and len(assign.targets) == 1
                                    and isinstance(assign.targets[0], ast.Name)):
                continue
            name = assign.targets[0].id
            fn = ctx.enclosing_function(assign)
            if fn is None:
                continue
            where = self._per_epoch(ctx, assign, fn, name)
            if where is None:
                continue
            step, loop, reason = where
            yield ctx.finding(
                self, call,
                f"`{name} = {ast.unparse(call.func)}(...)` builds a new {kind} optimizer {reason}, and "
                f"`{ast.unparse(step)}` (line {step.lineno}) steps it per batch: {_LOST.get(kind, _LOST[''])}. "
                "Build the optimizer once, before the epoch loop (or in __init__), and reuse it",
                evidence=[ctx.evidence(loop, "the batch loop that steps it"),
                          ctx.evidence(step, "the optimizer steps here")])

    @staticmethod
    def _per_epoch(ctx: FileContext, assign: ast.Assign, fn: ast.AST, name: str,
                   ) -> Optional[tuple[ast.Call, _Loop, str]]:
        epoch: Optional[_Loop] = None
        for anc in ctx.ancestors(assign):
            if anc is fn:
                break
            if isinstance(anc, ast.While) or (isinstance(anc, (ast.If, ast.IfExp)) and _deliberate(anc.test, name)):
                return None
            if isinstance(anc, (ast.For, ast.AsyncFor)):
                if not _epoch_loop(anc):
                    return None
                epoch = anc
                break
        if epoch is None and (not _per_epoch_function(fn) or _kept(fn, name)):
            return None
        for step in _steps(fn, name):
            if step.lineno < assign.lineno:
                continue
            loop = _batch_loop(ctx, step, fn)
            if loop is None:
                continue
            if epoch is not None:
                if ctx.under(loop, epoch):
                    return step, loop, f"at every pass of the epoch loop (line {epoch.lineno})"
            elif not any(_epoch_loop(a) for a in _ancestors_within(ctx, loop, fn)):
                assert isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
                return step, loop, f"at every call of `{fn.name}`, a function that trains one epoch"
        return None
