"""PF171 best-checkpoint-without-fit: ``trainer.test(ckpt_path="best")`` (or ``validate``/``predict``) on a
Lightning ``Trainer`` built in the same function that never runs ``fit``: the checkpoint callback has no best
path, and Lightning raises before evaluating."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.syntax import own_nodes
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import call_last, const_str
from preflight.rules.base import Rule, examples
from preflight.rules.code._best_checkpoint import kw, method_on

_EVALUATIONS = ("test", "validate", "predict")


def _local_trainer(scope: ast.AST, name: str) -> Optional[ast.Call]:
    """The one ``name = ...Trainer(...)`` of ``scope`` when ``name`` is bound nowhere else there."""
    bound = [n for n in own_nodes(scope) if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For,
                                                           ast.With, ast.NamedExpr, ast.arguments))]
    built: list[ast.Call] = []
    for node in bound:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.NamedExpr)) else \
            [i.optional_vars for i in node.items if i.optional_vars is not None] if isinstance(node, ast.With) else []
        if not any(isinstance(t, ast.Name) and t.id == name for tgt in targets for t in ast.walk(tgt)):
            continue
        value = getattr(node, "value", None)
        if not (isinstance(node, ast.Assign) and len(targets) == 1 and isinstance(targets[0], ast.Name)
                and isinstance(value, ast.Call) and call_last(value) == "Trainer"):
            return None
        built.append(value)
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and name in {
            a.arg for a in (*scope.args.posonlyargs, *scope.args.args, *scope.args.kwonlyargs)}:
        return None
    return built[0] if len(built) == 1 else None


def _handed_on(scope: ast.AST, name: str) -> bool:
    """``name`` is fitted, passed to a call, returned, yielded or stored elsewhere in ``scope``."""
    for node in own_nodes(scope):
        if method_on(node, "fit") == name:
            return True
        if isinstance(node, ast.Call):
            values = [*node.args, *(k.value for k in node.keywords)]
            if any(isinstance(v, ast.Name) and v.id == name for v in values):
                return True
        if isinstance(node, (ast.Return, ast.Yield)) and isinstance(node.value, ast.Name) and node.value.id == name:
            return True
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id == name:
            return True
    return False


@register
class BestCheckpointWithoutFit(Rule):
    code = "PF171"
    name = "best-checkpoint-without-fit"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("`trainer.test(ckpt_path=\"best\")` on a Trainer built in the same function that never runs `fit`: "
               "no best checkpoint is known and Lightning raises before testing")
    needs_text = ('"best"', "'best'")
    explanation = """
## What it finds

In one function (or a script's top level): `trainer = ...Trainer(...)`, then
`trainer.test(..., ckpt_path="best")` (or `validate`/`predict`), while that function never
calls `trainer.fit(...)` and never hands the trainer to anything else (a helper, a return).

## Why it matters

`ckpt_path="best"` means "the best checkpoint the `ModelCheckpoint` callback of this trainer
recorded during `fit`". A trainer that never ran `fit` has recorded none (the callback's
`best_model_path` is empty even when its directory holds checkpoints from an earlier run), so
Lightning raises `ValueError: .test(ckpt_path="best") is set but ModelCheckpoint is not configured
to save the best model` (or that no best checkpoint was found) and nothing is evaluated.
Lightning issue 17312: a separate evaluation script with the same callback fails this way.

## How to fix it

Pass the saved checkpoint's path explicitly (`ckpt_path="checkpoints/best.ckpt"`, or the path
the training run recorded), or test in the training script after `fit`.

## When preflight stays silent

* The same trainer runs `fit` in the function (before or after, in any branch).
* The trainer is a parameter, bound more than once, or handed to another call or returned:
  something else may fit it.
* `ckpt_path` is anything but the literal `"best"`.
"""
    bad_examples = examples("preflight.rules.code._pf171_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf171_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call in ctx.nodes(ast.Call):
            if call_last(call) not in _EVALUATIONS or const_str(kw(call, "ckpt_path")) != "best":
                continue
            trainer = method_on(call, call_last(call))
            if trainer is None or not trainer.isidentifier():
                continue
            scope: ast.AST = ctx.enclosing_function(call) or ctx.tree
            built = _local_trainer(scope, trainer)
            if built is None or _handed_on(scope, trainer) or any(
                    method_on(n, "fit") == trainer for n in ctx.nodes(ast.Call)):
                continue  # (a fit anywhere in the file: a module-level trainer fitted in a function)
            yield ctx.finding(
                self, call,
                f"`{trainer}.{call_last(call)}(ckpt_path=\"best\")` on a Trainer built here that never runs `fit`: "
                "only `fit` records a best checkpoint, so Lightning raises (`ModelCheckpoint is not configured to "
                "save the best model` / no best checkpoint) before evaluating. Pass the saved checkpoint's path "
                "explicitly",
                evidence=[ctx.evidence(built, "the Trainer is built here and never fitted")])
