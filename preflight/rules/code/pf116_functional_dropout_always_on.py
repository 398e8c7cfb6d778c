"""PF116 functional-dropout-always-on: ``F.dropout(..., training=True)`` (or the default) in a module that is evaluated with ``eval()``."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._dropout import DROPOUTS, MC_WORDS, keeps_training_arg


def _mode_guarded(ctx: FileContext, node: ast.AST) -> bool:
    """Under an ``if``/conditional expression (``if self.training:``, ``x if train else y``): the
    author switches it by hand."""
    for anc in ctx.ancestors(node):
        if isinstance(anc, (ast.If, ast.IfExp)):
            return True
        if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return False
    return False


@register
class FunctionalDropoutAlwaysOn(Rule):
    code = "PF116"
    needs_text = ("dropout",)
    name = "functional-dropout-always-on"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = "`F.dropout(...)` without `training=self.training` in a model that is evaluated with `eval()`"
    explanation = """
## What it finds

`F.dropout(x, p, training=True)`, or `F.dropout(x, p)` (the functional default is
`training=True`), in a method of an `nn.Module` class of the file, outside any `if`,
when the same file builds that class and calls `.eval()` on the instance.

## Why it matters

`model.eval()` switches `nn.Dropout` modules off, but a functional call only does
what its `training` argument says: with `True` the dropout stays active at
evaluation, so validation accuracy is noisy and lower, and two evaluations of the
same input differ (SimpleNet issue 2: `F.dropout2d(out, 0.1, training=True)`).

## How to fix it

`F.dropout(x, p, training=self.training)`, or an `nn.Dropout(p)` module.

## When preflight stays silent

* `training=self.training` (or any non-literal), or the call is under an `if`.
* The file never calls `.eval()` on an instance of the class (Monte Carlo dropout
  and Tacotron-style prenets keep dropout on at inference on purpose; they rarely
  switch to `eval()` for it), or the class or method name says so (`MCDropout`,
  `Prenet`, `bayes`).
"""
    bad_examples = examples("preflight.rules.code._pf116_examples", "PF116_BAD")
    good_examples = examples("preflight.rules.code._pf116_examples", "PF116_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        scopes = scope_index(ctx)
        evaluated = self._evaluated_classes(ctx, scopes)
        if not evaluated:
            return
        for call in ctx.nodes(ast.Call):
            qual = scopes.imports.qualify(call.func) or ""
            if not (qual.startswith("torch.nn.functional.") and qual.rsplit(".", 1)[-1] in DROPOUTS):
                continue
            on, where = keeps_training_arg(call)
            if not on or _mode_guarded(ctx, call):
                continue
            cls = next((a for a in ctx.ancestors(call) if isinstance(a, ast.ClassDef)), None)
            method = next((a for a in ctx.ancestors(call) if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef))),
                          None)
            if cls is None or cls.name not in evaluated or method is None:
                continue
            if any(w in (cls.name + " " + method.name).lower() for w in MC_WORDS):
                continue
            said = "`training=True`" if where is not None else "no `training` argument (the default is True)"
            yield ctx.finding(
                self, call,
                f"`{ast.unparse(call.func)}(...)` in `{cls.name}.{method.name}` has {said}: dropout stays on after "
                f"`.eval()`, so evaluation of `{cls.name}` is random and worse. Pass `training=self.training` "
                "(or use an `nn.Dropout` module)",
                evidence=[ctx.evidence(evaluated[cls.name], f"`{cls.name}` is switched to eval() here")])

    @staticmethod
    def _evaluated_classes(ctx: FileContext, scopes) -> dict[str, ast.AST]:
        """Local nn.Module classes with an instance on which the file calls ``.eval()``."""
        modules = {name for name, info in scopes.classes_by_name.items() if info.is_module}
        if not modules:
            return {}
        instances: dict[str, str] = {}
        for node in ctx.nodes(ast.Assign):
            value = node.value
            while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                    and value.func.attr in ("to", "cuda", "cpu", "half", "float"):
                value = value.func.value
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in modules:
                for target in node.targets:
                    if isinstance(target, (ast.Name, ast.Attribute)):
                        instances[ast.unparse(target)] = value.func.id
        out: dict[str, ast.AST] = {}
        for call in ctx.nodes(ast.Call):
            if isinstance(call.func, ast.Attribute) and call.func.attr == "eval" and not call.args:
                cls = instances.get(ast.unparse(call.func.value))
                if cls is not None:
                    out.setdefault(cls, call)
        return out
