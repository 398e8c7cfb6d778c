"""PF660 eval-pass-backpropagates: a train/eval helper guards ``optimizer.step()`` with its training
flag (``if self.opt is not None``, ``if train:``) but runs ``loss.backward()`` unconditionally."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_FLAGS = frozenset({"train", "training", "is_train", "is_training", "train_mode", "do_train", "training_mode",
                    "train_flag", "istrain", "is_train_mode"})
_MODES = frozenset({"mode", "phase", "split", "stage"})
# a bare truth test on one of these names asks whether the helper got an optimizer (``if self.opt:``)
_OPTIMIZERS = frozenset({"opt", "optim", "optimizer", "optimiser"})


def _text(node: ast.AST) -> str:
    return ast.unparse(node)


def _last(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _optimizer_like(node: ast.AST) -> bool:
    name = _last(node)
    return bool(name) and "opt" in (name or "").lower()


def _flag(test: ast.expr) -> Optional[str]:
    """The training flag a positive test checks: ``opt is not None``, ``self.opt``, ``train``,
    ``mode == "train"``, also inside an ``and``."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        for value in test.values:
            found = _flag(value)
            if found:
                return found
        return None
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, op, right = test.left, test.ops[0], test.comparators[0]
        if isinstance(op, ast.IsNot) and isinstance(right, ast.Constant) and right.value is None \
                and _optimizer_like(left):
            return _text(left)
        if isinstance(op, ast.Eq) and _last(left) in _MODES and isinstance(right, ast.Constant) \
                and right.value in ("train", "training"):
            return _text(test)
        return None
    if isinstance(test, (ast.Name, ast.Attribute)):
        name = (_last(test) or "").lower()
        if name in _FLAGS or name in _OPTIMIZERS:
            return _text(test)
    return None


def _negated_flag(test: ast.expr) -> bool:
    """``not train`` / ``opt is None`` / ``mode != "train"``: an evaluation branch (may return early)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _flag(test.operand) is not None
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        op, right = test.ops[0], test.comparators[0]
        if isinstance(op, ast.Is) and isinstance(right, ast.Constant) and right.value is None:
            return _optimizer_like(test.left)
        if isinstance(op, ast.NotEq) and _last(test.left) in _MODES:
            return True
    return False


def _is_backward(call: ast.Call) -> bool:
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr != "backward":
        return False
    return not (isinstance(func.value, ast.Name) and func.value.id in ("torch", "autograd"))


def _is_step(call: ast.Call) -> bool:
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "step"):
        return False
    return _optimizer_like(func.value) or any(_optimizer_like(a) for a in call.args)


@register
class EvalPassBackpropagates(Rule):
    code = "PF660"
    name = "eval-pass-backpropagates"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    needs_text = ("backward",)
    summary = ("A shared train/eval helper guards `optimizer.step()` with its training flag but calls "
               "`loss.backward()` unconditionally: the evaluation pass backpropagates")
    explanation = """
## What it finds

One function (a `run_epoch(model, loader, train)` helper, a `SimpleLossCompute.__call__`) that
serves both training and evaluation: it calls `optimizer.step()` only under its training flag
(`if self.opt is not None:`, `if train:`, `if mode == "train":`) but calls `loss.backward()`
outside that flag.

## Why it matters

When the helper runs for validation (built with `opt=None`, called with `train=False`) it still
backpropagates. The validation gradients are accumulated in the parameters' `.grad`; where
`zero_grad()` only runs next to the guarded `step()` (the annotated-transformer's
`SimpleLossCompute`, harvardnlp/annotated-transformer issue 14), they are added to the first
training step after validation: the model is partly trained on validation data. Elsewhere the
evaluation pass at least spends a full backward of compute and activation memory, and under
`torch.no_grad()` it raises "element 0 of tensors does not require grad".

## How to fix it

Move `loss.backward()` under the same flag as `optimizer.step()`, and run evaluation under
`torch.no_grad()` (or `torch.set_grad_enabled(train)`).

## When preflight stays silent

* `backward()` is itself under the training flag, or the function has a branch on the negated flag
  (`if not train:`, `if opt is None:`) that may return before it.
* The step's guard is not a training flag (`if (i + 1) % accumulation == 0:`, `if args.use_optimizer:`),
  it has an `else` branch (another update rule, e.g. plain SGD on `p.grad`), or what is stepped is
  not an optimizer (`scheduler.step()`).
* Another optimizer steps outside the flag (an optional second optimizer).
"""
    bad_examples = examples("preflight.rules.code._pf660_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf660_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for fn in ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
            yield from self._function(ctx, fn)

    def _function(self, ctx: FileContext, fn: ast.AST) -> Iterable[Finding]:
        ifs = [n for n in ast.walk(fn) if isinstance(n, ast.If) and ctx.enclosing_function(n) is fn]
        if any(_negated_flag(n.test) for n in ifs):
            return
        guarded: list[tuple[ast.If, ast.Call, str]] = []
        for node in ifs:
            flag = _flag(node.test)
            if flag is None or node.orelse:  # an else branch updates another way: not an evaluation path
                continue
            for stmt in node.body:
                for sub in ast.walk(stmt):
                    if isinstance(sub, ast.Call) and _is_step(sub):
                        guarded.append((node, sub, flag))
        if not guarded:
            return
        # another optimizer steps whatever the flag is (an optional second optimizer): not an eval-capable helper
        steps = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and _is_step(n) and ctx.enclosing_function(n) is fn]
        if any(not self._under_flag(ctx, fn, s) for s in steps):
            return
        for call in ast.walk(fn):
            if not (isinstance(call, ast.Call) and _is_backward(call) and ctx.enclosing_function(call) is fn):
                continue
            if self._under_flag(ctx, fn, call):
                continue
            after = [(g, s, f) for g, s, f in guarded if g.lineno > call.lineno]
            if not after:
                continue
            _if, step, flag = after[0]
            yield ctx.finding(
                self, call,
                f"`{_text(call)}` runs whatever `{flag}` is, but `{_text(step)}` (line {step.lineno}) only runs "
                f"under `if {_text(_if.test)}`: when this helper evaluates (the flag off) it still backpropagates, "
                "and the validation gradients stay in `.grad` for the next training step unless zero_grad() runs "
                "first (the model trains on validation data); it also costs a full backward per evaluation batch. "
                f"Put the backward under `if {_text(_if.test)}` and evaluate under torch.no_grad()",
                evidence=[ctx.evidence(step, "the optimizer step is guarded by the training flag here")])
            return

    @staticmethod
    def _under_flag(ctx: FileContext, fn: ast.AST, node: ast.AST) -> bool:
        return any(isinstance(a, ast.If) and ctx.under(a, fn) and _flag(a.test) is not None
                   for a in ctx.ancestors(node))
