"""PF1092 eval-without-loader-after-fit-with-loader: ``trainer.test()`` (or ``validate``/``predict``) called with
no data after ``trainer.fit(model, datamodule)``, on a LightningModule of the file that defines no matching
``*_dataloader``: the evaluation stage does not reuse the data given to ``fit``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_STAGES = {"test": "test_dataloader", "validate": "val_dataloader", "predict": "predict_dataloader"}
_DATA_KEYWORDS = frozenset({"dataloaders", "datamodule", "test_dataloaders", "val_dataloaders"})
_FIT_DATA_KEYWORDS = frozenset({"train_dataloaders", "train_dataloader", "datamodule", "val_dataloaders"})
_LIGHTNING_BASES = frozenset({"LightningModule", "pl.LightningModule", "L.LightningModule",
                              "lightning.LightningModule", "lightning.pytorch.LightningModule",
                              "pytorch_lightning.LightningModule"})


def _method_call(node: ast.AST, names: Iterable[str]) -> Optional[tuple[str, str]]:
    """``trainer.fit(...)`` -> ("trainer", "fit") for a method in ``names`` called on a plain name."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in names \
            and isinstance(node.func.value, ast.Name):
        return node.func.value.id, node.func.attr
    return None


def _model_class(fn: ast.AST, model: str, before: int, classes: dict[str, ast.ClassDef]) -> Optional[ast.ClassDef]:
    """The LightningModule class of the file that ``model`` was built from (``Cls(...)`` or
    ``Cls.load_from_checkpoint(...)``), when its every binding before ``before`` is that class."""
    found: Optional[ast.ClassDef] = None
    for node in ast.walk(fn):
        if not (isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and node.lineno < before):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if not any(isinstance(t, ast.Name) and t.id == model for t in targets):
            if any(isinstance(n, ast.Name) and n.id == model for t in targets for n in ast.walk(t)):
                return None  # bound by unpacking: unknown
            continue
        value = node.value
        if not isinstance(value, ast.Call):
            return None
        func = value.func
        if isinstance(func, ast.Attribute) and func.attr == "load_from_checkpoint":
            func = func.value
        cls = classes.get(func.id) if isinstance(func, ast.Name) else None
        if cls is None or (found is not None and found is not cls):
            return None
        found = cls
    return found


@register
class EvalWithoutLoaderAfterFitWithLoader(Rule):
    code = "PF1092"
    name = "eval-without-loader-after-fit-with-loader"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    needs_text = ("fit(",)
    summary = ("`trainer.test()` is called with no data after `trainer.fit(model, datamodule)`, and the "
               "LightningModule defines no `test_dataloader`: the stage fails after the whole fit")
    explanation = """
## What it finds

In one function, `trainer.fit(model, dm)` (data given to `fit`: a second argument, `datamodule=`
or `train_dataloaders=`) followed by `trainer.test()` / `trainer.test(model)` (likewise
`validate`, `predict`) on the same trainer with neither `dataloaders=` nor `datamodule=`, where
`model` is built from a LightningModule class of the same file that subclasses
`LightningModule` directly and defines no `test_dataloader` (`val_dataloader`,
`predict_dataloader`).

## Why it matters

Each `Trainer` entry point attaches its own data: called without `dataloaders`/`datamodule`, the
test stage asks the LightningModule for `test_dataloader()` and does not reuse the data module
given to `fit`. The job trains for hours, then dies with "No `test_dataloader()` method defined
to run `Trainer.test`" and no test result (kswamy15/NLP_Tasks_PyLightning issue 1; the fix the
author committed: `trainer.test(dataloaders=imdb_dm)`; Lightning's `attach_dataloaders` points the
test loop at the model when no data is passed).

## How to fix it

Pass the data again: `trainer.test(model, datamodule=dm)` or `trainer.test(dataloaders=test_loader)`.

## When preflight stays silent

* The call passes `dataloaders=`/`datamodule=` (or a second positional argument).
* The module's class defines the matching `*_dataloader`, or is not a direct `LightningModule`
  subclass of the file (a base class may define it), or `model` is bound to something else.
* `fit` got no data either (the module supplies its own loaders).
"""
    bad_examples = examples("preflight.rules.code._pf1092_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf1092_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not isinstance(ctx.tree, ast.Module):
            return
        classes = {c.name: c for c in ctx.tree.body if isinstance(c, ast.ClassDef)
                   and any(ast.unparse(b) in _LIGHTNING_BASES for b in c.bases) and len(c.bases) == 1}
        if not classes:
            return
        scopes: list[ast.AST] = [ctx.tree, *ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef)]
        for fn in scopes:
            body = fn.body if isinstance(fn, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)) else []
            calls = [n for stmt in body for n in ast.walk(stmt) if isinstance(n, ast.Call)
                     and ctx.enclosing_function(n) is (None if isinstance(fn, ast.Module) else fn)]
            fits: dict[tuple[str, str], ast.Call] = {}
            for call in sorted(calls, key=lambda c: (c.lineno, c.col_offset)):
                hit = _method_call(call, ("fit",))
                if hit is not None and call.args and isinstance(call.args[0], ast.Name) and (
                        len(call.args) > 1 or any(kw.arg in _FIT_DATA_KEYWORDS for kw in call.keywords)):
                    fits[(hit[0], call.args[0].id)] = call
                    continue
                hit = _method_call(call, _STAGES)
                if hit is None or len(call.args) > 1 or any(kw.arg in _DATA_KEYWORDS or kw.arg is None
                                                            for kw in call.keywords):
                    continue
                trainer, stage = hit
                model_kw = next((kw.value for kw in call.keywords if kw.arg == "model"), None)
                model_arg = call.args[0] if call.args else model_kw
                candidates = [(t, m) for (t, m) in fits if t == trainer
                              and (model_arg is None or (isinstance(model_arg, ast.Name) and model_arg.id == m))]
                if len(candidates) != 1:
                    continue
                fit = fits[candidates[0]]
                cls = _model_class(fn, candidates[0][1], fit.lineno, classes)
                loader = _STAGES[stage]
                if cls is None or any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == loader
                                      for n in cls.body) or any(
                        isinstance(n, ast.Attribute) and n.attr == loader for n in ast.walk(cls)):
                    continue
                yield ctx.finding(
                    self, call,
                    f"`{trainer}.{stage}()` gets no data, and `{cls.name}` defines no `{loader}()`: the data "
                    f"given to `{trainer}.fit` (line {fit.lineno}) is not reused, so after the whole fit the "
                    f"stage fails with \"No `{loader}()` method defined to run `Trainer.{stage}`\". Pass it "
                    f"again: `{trainer}.{stage}({candidates[0][1]}, datamodule=...)`",
                    evidence=[ctx.evidence(fit, "the data is given to fit only")])
