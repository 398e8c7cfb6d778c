"""PF291 load-from-checkpoint-result-discarded: ``model.load_from_checkpoint(path)`` as a statement of
its own; Lightning's ``load_from_checkpoint`` is a classmethod that returns a new, loaded model."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.analysis.project_imports import sibling_modules
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._lightning_code import imports_lightning


def _instance_method(tree: ast.AST) -> bool:
    """The tree defines its own ``load_from_checkpoint(self, ...)`` that is no classmethod (a
    project's loader that fills the instance in place)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "load_from_checkpoint":
            decorated = {ast.unparse(d).rsplit(".", 1)[-1] for d in node.decorator_list}
            if not decorated & {"classmethod", "staticmethod", "_restricted_classmethod"}:
                return True
    return False


def _lightning_project(ctx: FileContext) -> bool:
    """The file imports Lightning, or a module beside it that defines a class does (the
    LightningModule imported from ``model.py``); and no module there defines an instance
    ``load_from_checkpoint`` of its own."""
    if _instance_method(ctx.tree):
        return False
    found = imports_lightning(ctx, ctx.tree)
    for other, _ in sibling_modules(ctx, "load_from_checkpoint"):
        if _instance_method(other.tree):
            return False
    if not found:
        found = any(imports_lightning(other, other.tree) for other, _ in sibling_modules(ctx, "LightningModule"))
    return found


def _class_of(ctx: FileContext, name: str) -> str:
    """The class an instance name was built from (``model = LitClassifier(...)``), for the message."""
    for assign in ctx.nodes(ast.Assign):
        if any(isinstance(t, ast.Name) and t.id == name for t in assign.targets) and \
                isinstance(assign.value, ast.Call) and isinstance(assign.value.func, (ast.Name, ast.Attribute)):
            built = ast.unparse(assign.value.func)
            if built.rsplit(".", 1)[-1][:1].isupper():
                return built
    return "YourLightningModule"


@register
class LoadFromCheckpointResultDiscarded(Rule):
    code = "PF291"
    name = "load-from-checkpoint-result-discarded"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("`model.load_from_checkpoint(path)` as a statement: the classmethod returns a new loaded model "
               "and the result is thrown away, `model` keeps its weights")
    frameworks = ("lightning",)
    needs_text = ("load_from_checkpoint",)
    explanation = """
## What it finds

A call `X.load_from_checkpoint(...)` that stands as a statement of its own (its result is
not assigned, returned or passed on), in a file that uses Lightning (it imports
`pytorch_lightning`/`lightning`, or a module beside it that defines a `LightningModule`
does). The usual shape is `model = LitModel(...)` followed by
`model.load_from_checkpoint(checkpoint_path=...)` and `trainer.test(model)`.

## Why it matters

`LightningModule.load_from_checkpoint` is a classmethod: it builds a NEW module from the
checkpoint's hyperparameters, loads the weights into it and returns it
(lightning/pytorch/core/module.py; `_restricted_classmethod` since Lightning 2.0, a plain
`classmethod` before). It never changes the object it is called on. With the result
discarded, `model` keeps its random initialisation and `trainer.test(model)` /
`trainer.predict(model)` evaluate an untrained network; nothing fails on
pytorch-lightning 1.x (Lightning-AI/pytorch-lightning#4789: "the proper usage should be
`model = LitModel.load_from_checkpoint(checkpoint_path=...)`"). Lightning 2.x raises a
`TypeError` when it is called on an instance; on the class the loaded model is still lost.

## How to fix it

Assign the result, on the class: `model = LitModel.load_from_checkpoint(path)`. Or keep the
instance and load the weights into it:
`model.load_state_dict(torch.load(path)["state_dict"])`, or pass `ckpt_path=path` to
`trainer.test`.

## When preflight stays silent

* The result is used: assigned, returned, passed to a call, chained (`.eval()`).
* The call is on `self`, `cls` or `super()` (a class's own plumbing).
* The file or a module beside it defines its own `load_from_checkpoint(self, ...)` that is
  not a classmethod (a loader that fills the instance in place).
* Nothing in the file or beside it uses Lightning.
"""
    bad_examples = examples("preflight.rules.code._pf291_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf291_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        hits: list[tuple[ast.Expr, ast.Call, str]] = []
        for stmt in ctx.nodes(ast.Expr):
            call = stmt.value
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                    and call.func.attr == "load_from_checkpoint"):
                continue
            owner = call.func.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
                continue
            hits.append((stmt, call, ast.unparse(owner)))
        if not hits or not _lightning_project(ctx):
            return
        for stmt, call, text in hits:
            looks_like_class = text.rsplit(".", 1)[-1][:1].isupper()
            on_what = (f"on the class `{text}`" if looks_like_class
                       else f"on the instance `{text}`, which it never changes")
            target = "model" if looks_like_class else text
            cls = text if looks_like_class else _class_of(ctx, text)
            yield ctx.finding(
                self, stmt,
                f"`{ast.unparse(call)}` discards its result: `load_from_checkpoint` is a classmethod that "
                f"returns a new model loaded from the checkpoint, and it is called {on_what}. The weights "
                "are lost, so whatever is tested, predicted or trained next runs on the weights it had "
                f"before (its random initialisation). Assign it: `{target} = {cls}.load_from_checkpoint(...)`")
