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


def _built_classes(value: ast.AST, imported: dict[str, str]) -> list[str]:
    """Imported classes an assigned value builds: ``Net(...)`` under device moves, or nested as an argument of
    another constructor (``Wrapper(Encoder(...), n)``: the encoder is a submodule of what is bound)."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _WRAPPERS:
        value = value.func.value
    if not isinstance(value, ast.Call):
        return []
    out = []
    for sub in ast.walk(value):
        if isinstance(sub, ast.Call):
            name = ast.unparse(sub.func)
            if name in imported and imported[name] not in out:
                out.append(imported[name])
    return out


def _parameters_evaluated(tree: ast.AST) -> dict[str, list[tuple[int, str, ast.Call]]]:
    """Functions of the script that call ``.eval()`` on one of their parameters:
    ``{function: [(position, parameter, the eval call)]}``."""
    out: dict[str, list[tuple[int, str, ast.Call]]] = {}
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "eval" \
                    and not node.args and isinstance(node.func.value, ast.Name) and node.func.value.id in params:
                name = node.func.value.id
                if not any(p == name for _, p, _ in out.get(fn.name, [])):
                    out.setdefault(fn.name, []).append((params.index(name), name, node))
    return out


def _evaluated(tree: ast.AST, imported: dict[str, str]) -> dict[str, ast.Call]:
    """Imported class name -> the ``.eval()`` call on an instance of it (or on a model built around one) in
    this script, directly or through a function of the script that the instance is passed to."""
    instances: dict[str, list[str]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign):
            continue
        built = _built_classes(node.value, imported)
        if built:
            for target in node.targets:
                if isinstance(target, (ast.Name, ast.Attribute)):
                    instances[ast.unparse(target)] = built
    out: dict[str, ast.Call] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "eval" \
                and not node.args:
            for cls in instances.get(ast.unparse(node.func.value), []):
                out.setdefault(cls, node)
    by_param = _parameters_evaluated(tree)
    if by_param:
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in by_param):
                continue
            for index, param, eval_call in by_param[node.func.id]:
                arg = node.args[index] if index < len(node.args) else \
                    next((k.value for k in node.keywords if k.arg == param), None)
                for cls in instances.get(ast.unparse(arg), []) if arg is not None else []:
                    out.setdefault(cls, eval_call)
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
(`from model import TextCNN`), builds it and calls `.eval()` on the instance: directly,
on a model built around it (`model = PICKModel(Encoder(...))`: the encoder is a submodule of
`model`), or in a function of that script that the instance is passed to
(`def evaluate(model, loader): model.eval()` called as `evaluate(model, val_loader)`).

## Why it matters

`model.eval()` switches `nn.Dropout` modules off, but a functional call does what its
`training` argument says, and its default is True: evaluation drops features at random,
validation accuracy fluctuates and the best checkpoint is chosen on noise (pytorch issue
11999, "Dropout still active in .eval() mode"; PICK-pytorch issue 77, "last drop out may
affect the validation result").

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
                    f"`{user.source.display}:{eval_call.lineno}` switches `{ast.unparse(eval_call.func)}()`, a "
                    f"`{cls_name}` or a model holding one, to eval mode: eval() does "
                    "not reach a functional dropout, so evaluation drops features at random. Pass "
                    "`training=self.training` (or use an `nn.Dropout` module)",
                    evidence=[pctx.code_evidence(user, eval_call, f"`{cls_name}` switched to eval() here")])
