"""PF344 functional-dropout-on-in-imported-model: PF116 across files: ``F.dropout(x, p)`` (training
left at its default True) in a model class of one file, built and switched to ``eval()`` in another."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.code._dropout import DROPOUTS, MC_WORDS, keeps_training_arg

_WRAPPERS = ("to", "cuda", "cpu", "half", "float", "bfloat16")


def _functional_names(tree: ast.AST) -> tuple[set[str], set[str]]:
    """Aliases of ``torch.nn.functional`` (``F``) and dropout functions imported by name."""
    modules: set[str] = set()
    direct: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "torch.nn":
            modules.update(a.asname or a.name for a in node.names if a.name == "functional")
        elif isinstance(node, ast.ImportFrom) and node.module == "torch.nn.functional":
            direct.update(a.asname or a.name for a in node.names if a.name in DROPOUTS)
        elif isinstance(node, ast.Import):
            modules.update(a.asname for a in node.names if a.name == "torch.nn.functional" and a.asname)
    return modules, direct


def _always_on_calls(cls: ast.ClassDef, modules: set[str], direct: set[str]) -> Optional[ast.Call]:
    for method in cls.body:
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if any(w in (cls.name + " " + method.name).lower() for w in MC_WORDS):
            continue
        guarded: set[int] = set()
        for node in ast.walk(method):
            if isinstance(node, (ast.If, ast.IfExp)):
                guarded.update(id(n) for n in ast.walk(node))
        for node in ast.walk(method):
            if not isinstance(node, ast.Call) or id(node) in guarded:
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and (func.value.id in modules or ast.unparse(func.value) == "torch.nn.functional") else \
                func.id if isinstance(func, ast.Name) and func.id in direct else None
            if name is None or name not in DROPOUTS:
                continue
            on, _ = keeps_training_arg(node)
            if on:
                return node
    return None


def _module_class(cls: ast.ClassDef) -> bool:
    return any(ast.unparse(b).endswith(("Module", "nn.Module")) for b in cls.bases)


def _evaluated(tree: ast.AST, imported: dict[str, str]) -> dict[str, ast.Call]:
    """Imported class name -> the ``.eval()`` call on an instance of it in this script."""
    instances: dict[str, str] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign):
            continue
        value = node.value
        while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _WRAPPERS:
            value = value.func.value
        if isinstance(value, ast.Call):
            name = ast.unparse(value.func)
            if name in imported:
                for target in node.targets:
                    if isinstance(target, (ast.Name, ast.Attribute)):
                        instances[ast.unparse(target)] = imported[name]
    out: dict[str, ast.Call] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "eval" \
                and not node.args:
            cls = instances.get(ast.unparse(node.func.value))
            if cls is not None:
                out.setdefault(cls, node)
    return out


@register
class FunctionalDropoutOnInImportedModel(PlanRule):
    code = "PF344"
    name = "functional-dropout-on-in-imported-model"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = ("`F.dropout(x, p)` without `training=self.training` in a model class that another file of the job "
               "builds and switches to `eval()`: dropout stays on at evaluation")
    explanation = """
## What it finds

PF116 across files: a method of an `nn.Module` class in one script calls
`F.dropout(x, p)` (or `dropout2d`, `alpha_dropout`...) with no `training` argument or
`training=True`, outside any `if`, and another script of the job imports that class
(`from model import TextCNN`), builds it and calls `.eval()` on the instance.

## Why it matters

`model.eval()` switches `nn.Dropout` modules off, but a functional call does what its
`training` argument says, and its default is True: evaluation drops features at random,
validation accuracy fluctuates and the best checkpoint is chosen on noise (pytorch issue
11999, "Dropout still active in .eval() mode").

## How to fix it

`F.dropout(x, p, training=self.training)`, or an `nn.Dropout(p)` module.

## When preflight stays silent

* `training=self.training` (or any non-literal), the call is under an `if`, or the class or
  method name says Monte Carlo dropout is meant (`MCDropout`, `Prenet`, `bayes`).
* No script of the job builds the class and calls `.eval()` on it (the same file: PF116).
"""
    bad_examples = examples("preflight.rules.plan._pf344_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf344_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        by_module = {Path(s.source.path).stem: s for s in pctx.scripts}
        reported: set[tuple[str, int]] = set()
        for user in pctx.scripts:
            imported: dict[str, tuple[str, str]] = {}
            for node in ast.walk(user.tree):
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                        and node.module.rsplit(".", 1)[-1] in by_module:
                    for alias in node.names:
                        imported[alias.asname or alias.name] = (node.module.rsplit(".", 1)[-1], alias.name)
            if not imported:
                continue
            evaluated = _evaluated(user.tree, {k: k for k in imported})
            for local, eval_call in evaluated.items():
                module, cls_name = imported[local]
                owner = by_module[module]
                if owner is user:
                    continue
                cls = next((n for n in ast.walk(owner.tree) if isinstance(n, ast.ClassDef) and n.name == cls_name), None)
                if cls is None or not _module_class(cls):
                    continue
                modules, direct = _functional_names(owner.tree)
                call = _always_on_calls(cls, modules, direct)
                if call is None or (owner.source.display, call.lineno) in reported:
                    continue
                reported.add((owner.source.display, call.lineno))
                yield pctx.code_finding(
                    self, owner, call,
                    f"`{ast.unparse(call.func)}(...)` in `{cls_name}` leaves `training` at its default True, and "
                    f"`{user.source.display}:{eval_call.lineno}` switches a `{cls_name}` to `eval()`: eval() does "
                    "not reach a functional dropout, so evaluation drops features at random. Pass "
                    "`training=self.training` (or use an `nn.Dropout` module)",
                    evidence=[pctx.code_evidence(user, eval_call, f"`{cls_name}` switched to eval() here")])
