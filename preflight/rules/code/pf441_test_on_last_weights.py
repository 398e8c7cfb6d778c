"""PF441 test-on-last-weights: ``trainer.test(model)`` after ``fit`` while a ``ModelCheckpoint`` tracked the best."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples
from preflight.rules.code._best_checkpoint import kw, method_on, tracks_best


@register
class TestOnLastWeights(Rule):
    code = "PF441"
    needs_text = ("ModelCheckpoint",)
    name = "test-on-last-weights"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = "`trainer.test(model)` after `fit` tests the last weights while a `ModelCheckpoint` tracked the best"
    explanation = """
## What it finds

In one function (or a script's top-level code): a `ModelCheckpoint(monitor=...)` (keeping at least one checkpoint), a
`trainer.fit(...)`, and after it `trainer.test(model, ...)` (or `trainer.test(model=...)`)
on the same trainer without `ckpt_path`.

## Why it matters

Given a model and no `ckpt_path`, `trainer.test` evaluates the weights the model holds
now: those of the last epoch that ran, not the best checkpoint the `ModelCheckpoint`
chose by its monitored metric. With early stopping the last weights are `patience`
epochs past the optimum, and the test metrics reported are of a worse model than the
one saved (torchgeo PR 963: "calling trainer.test(model=model) will test using the
current latest weights of a model"). Lightning only picks the best checkpoint by
itself when `test` is called without a model.

## How to fix it

`trainer.test(ckpt_path="best", datamodule=dm)` (or `trainer.test(model, dm, ckpt_path="best")`).

The same holds for a test run from a callback when training ends (`on_train_end`
handing its `pl_module` to a fresh Trainer's `test`, luxonis-train PR 272).

## When preflight stays silent

* `test` is given `ckpt_path` (any value: testing the last weights on purpose says
  `ckpt_path="last"` or `None`), or no model (Lightning then loads the best checkpoint).
* No `ModelCheckpoint` with a `monitor` is built in the function (a checkpoint without a
  monitor keeps the last epoch: the last weights are the saved ones).
* `test` comes before `fit`, or is called on another trainer; `ckpt_path` is the third
  positional argument.
* A `Callback`'s `on_train_end`/`on_fit_end` that tests another model than the
  `pl_module` it is given, or passes `ckpt_path`; a callback the training function does
  not build.
* The function is a pytest test (`def test_...`): Lightning's own tests fit and test a
  model to exercise the loops, not to report its metrics.
"""
    bad_examples = examples("preflight.rules.code._pf441_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf441_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        reported: set[ast.AST] = set()
        for ckpt in ctx.nodes(ast.Call):
            if call_last(ckpt) != "ModelCheckpoint" or not tracks_best(ckpt):
                continue
            fn: ast.AST = ctx.enclosing_function(ckpt) or ctx.tree  # a script's top level is one scope too
            if getattr(fn, "name", "").startswith("test_"):
                continue  # (a pytest function exercises Lightning; it reports no model's metrics)
            fits: dict[str, int] = {}
            for node in _walk_scope(fn):
                trainer = method_on(node, "fit")
                if trainer is not None:
                    fits[trainer] = min(fits.get(trainer, node.lineno), node.lineno)  # type: ignore[attr-defined]
            yield from self._callback_tests(ctx, ckpt, fn, reported)
            for node in _walk_scope(fn):
                trainer = method_on(node, "test")
                if trainer is None or trainer not in fits or node.lineno <= fits[trainer]:  # type: ignore[attr-defined]
                    continue
                assert isinstance(node, ast.Call)
                if kw(node, "ckpt_path") is not None or any(isinstance(k.value, ast.Dict) or k.arg is None
                                                             for k in node.keywords):
                    continue
                model = kw(node, "model") or (node.args[0] if node.args else None)
                if model is None or isinstance(model, ast.Starred) or len(node.args) >= 3 or node in reported:
                    continue
                reported.add(node)
                yield ctx.finding(
                    self, node,
                    f"`{trainer}.test(...)` is given the model `{ast.unparse(model)}` and no `ckpt_path`, after "
                    f"`{trainer}.fit`: it tests the weights of the last epoch, not the best checkpoint the "
                    f"`ModelCheckpoint(monitor={ast.unparse(kw(ckpt, 'monitor') or ast.Constant(None))})` kept, so "
                    "the reported test metrics are those of a model past its optimum (with early stopping, "
                    "`patience` epochs past it). Pass `ckpt_path=\"best\"` (or `ckpt_path=\"last\"` to say the "
                    "last weights are meant)",
                    evidence=[ctx.evidence(ckpt, "the best checkpoint is tracked here")])

    def _callback_tests(self, ctx: FileContext, ckpt: ast.Call, fn: ast.AST,
                        reported: set[ast.AST]) -> Iterable[Finding]:
        """A ``Callback`` of this file whose ``on_train_end``/``on_fit_end`` hands the module it is
        given (``pl_module``) to a ``test`` without ``ckpt_path``, instantiated in the function that
        tracks the best checkpoint (luxonis-train PR 272: ``TestOnTrainEnd``): the hook runs after
        the last step, so the test sees the last weights."""
        if not any(isinstance(n, ast.Call) and fits_call(n) for n in _walk_scope(fn)):
            return
        built = {call_last(n) for n in _walk_scope(fn) if isinstance(n, ast.Call)}
        for cls in ctx.nodes(ast.ClassDef):
            if cls.name not in built or not any((ast.unparse(b).rsplit(".", 1)[-1]) == "Callback" for b in cls.bases):
                continue
            for hook in cls.body:
                if not (isinstance(hook, (ast.FunctionDef, ast.AsyncFunctionDef))
                        and hook.name in ("on_train_end", "on_fit_end") and len(hook.args.args) >= 3):
                    continue
                module = hook.args.args[2].arg
                for node in ast.walk(hook):
                    trainer = method_on(node, "test")
                    if trainer is None or node in reported:
                        continue
                    assert isinstance(node, ast.Call)
                    if kw(node, "ckpt_path") is not None or any(k.arg is None for k in node.keywords) \
                            or len(node.args) >= 3:
                        continue
                    model = kw(node, "model") or (node.args[0] if node.args else None)
                    if not (isinstance(model, ast.Name) and model.id == module):
                        continue
                    reported.add(node)
                    yield ctx.finding(
                        self, node,
                        f"`{trainer}.test(...)` in `{cls.name}.{hook.name}` is given the module `{module}` and no "
                        f"`ckpt_path`: the hook runs when training ends, so it tests the weights of the last step, "
                        f"not the best checkpoint the `ModelCheckpoint(monitor="
                        f"{ast.unparse(kw(ckpt, 'monitor') or ast.Constant(None))})` kept. Pass "
                        "`ckpt_path=trainer.checkpoint_callback.best_model_path` (or load it first)",
                        evidence=[ctx.evidence(ckpt, "the best checkpoint is tracked here")])


def _walk_scope(scope: ast.AST) -> Iterable[ast.AST]:
    """The nodes of a function, or of a module's top-level code (the script's statements, its
    ``if __name__ == "__main__":`` block included; not the bodies of its functions and classes)."""
    if not isinstance(scope, ast.Module):
        yield from ast.walk(scope)
        return
    todo: list[ast.AST] = list(scope.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        yield node
        todo.extend(ast.iter_child_nodes(node))


def fits_call(node: ast.Call) -> bool:
    """``trainer.fit(...)``: the function trains, so a callback it builds runs at the end."""
    return method_on(node, "fit") is not None
