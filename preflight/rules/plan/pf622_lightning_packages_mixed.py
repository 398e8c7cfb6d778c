"""PF622 lightning-packages-mixed: a LightningModule of one Lightning package (``pytorch_lightning``)
given to the ``Trainer`` of the other (``lightning.pytorch``, or the reverse): the Trainer does not
accept it."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg, qualify
from preflight.rules.base import examples

_ENTRY = frozenset({"fit", "validate", "test", "predict"})
_BASES = frozenset({"LightningModule"})


def _package(qual: str) -> Optional[str]:
    """``"pytorch_lightning"`` or ``"lightning"`` (the unified package, ``lightning.pytorch``)."""
    if qual.startswith("pytorch_lightning."):
        return "pytorch_lightning"
    if qual.startswith("lightning.") and not qual.startswith("lightning.fabric."):
        return "lightning"
    return None


def _spelled(package: str) -> str:
    return "pytorch_lightning" if package == "pytorch_lightning" else "lightning.pytorch"


@register
class LightningPackagesMixed(PlanRule):
    code = "PF622"
    name = "lightning-packages-mixed"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("a `pytorch_lightning.LightningModule` fit by a `lightning.pytorch` Trainer (or the reverse): "
               "\"TypeError: `model` must be a `LightningModule`\"")
    explanation = """
## What it finds

`trainer.fit/validate/test/predict(model, ...)` where the Trainer comes from one Lightning
package and the model is built from a project class whose `LightningModule` base (directly
or through other project classes) comes from the other: `import pytorch_lightning as pl`
in the model's module and `import lightning.pytorch as pl` (or `lightning.Trainer`) where
the Trainer is built, or the reverse.

## Why it matters

`pytorch_lightning` (the standalone package) and `lightning` (the unified package, whose
`lightning.pytorch` holds the same code) are two installable copies with their own classes;
both are often installed together (a dependency pins one, the project the other). The
Trainer checks the model against its own package's class: `_maybe_unwrap_optimized` raises
"TypeError: `model` must be a `LightningModule` or `torch._dynamo.OptimizedModule`, got
`SwAV`" (`lightning/pytorch/utilities/compile.py`), so the job stops when fitting starts,
after data and model were built. Reported repeatedly on Lightning's tracker and forum when
code copied from one generation of the docs meets the other.

## How to fix it

Import from one package everywhere: `import lightning.pytorch as pl` (or `import lightning
as L`) in every module, or `pytorch_lightning` everywhere.

## When preflight stays silent

* The model and the Trainer come from the same package.
* The model's class cannot be found in the project, or the model is not a name bound to a
  class call in the function that fits it.
* Lightning Fabric (`lightning.fabric`) is not a Trainer and is not checked.
"""
    bad_examples = examples("preflight.rules.plan._pf622_examples", "PF622_BAD")
    good_examples = examples("preflight.rules.plan._pf622_examples", "PF622_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        if not any("lightning" in s.source.text for s in pctx.scripts):
            return
        classes = self._module_classes(pctx)
        if not classes:
            return
        for script in pctx.scripts:
            ctx = pctx.file_context(script)
            trainers: dict[str, tuple[str, ast.Call]] = {}
            for node in ctx.nodes(ast.Assign):
                if not isinstance(node.value, ast.Call):
                    continue
                qual = qualify(ctx, node.value.func)
                package = _package(qual)
                if package and qual.rsplit(".", 1)[-1] == "Trainer":
                    for target in node.targets:
                        if isinstance(target, ast.Name):
                            trainers[target.id] = (package, node.value)
            for call in ctx.nodes(ast.Call):
                func = call.func
                if not (isinstance(func, ast.Attribute) and func.attr in _ENTRY):
                    continue
                trainer = self._trainer(ctx, func.value, trainers)
                if trainer is None:
                    continue
                package, built = trainer
                model = call.args[0] if call.args else kwarg(call, "model")
                cls_name = self._class_of(ctx, model, call)
                if cls_name is None or cls_name not in classes:
                    continue
                other, cls, base, module_package = classes[cls_name]
                if module_package == package:
                    continue
                yield pctx.code_finding(
                    self, other, base,
                    f"`{cls.name}` is a `{_spelled(module_package)}.LightningModule`, but it is given to a "
                    f"`{_spelled(package)}` Trainer (`{ast.unparse(func)}`): the two packages have their own "
                    f"classes and the Trainer refuses the model with \"TypeError: `model` must be a "
                    f"`LightningModule` ..., got `{cls.name}`\" when fitting starts. Import from one package "
                    "everywhere",
                    evidence=[pctx.code_evidence(script, built, f"the Trainer comes from `{_spelled(package)}`"),
                              pctx.code_evidence(script, call, f"`{ast.unparse(func)}` receives `{cls.name}`")])

    @staticmethod
    def _trainer(ctx: Any, receiver: ast.expr, trainers: dict[str, tuple[str, ast.Call]]) -> Optional[tuple[str, ast.Call]]:
        if isinstance(receiver, ast.Name):
            return trainers.get(receiver.id)
        if isinstance(receiver, ast.Call):
            qual = qualify(ctx, receiver.func)
            package = _package(qual)
            if package and qual.rsplit(".", 1)[-1] == "Trainer":
                return package, receiver
        return None

    @staticmethod
    def _class_of(ctx: Any, model: Optional[ast.expr], at: ast.Call) -> Optional[str]:
        """The class name a model argument was built from (``Model(...)`` or a name bound to it)."""
        if isinstance(model, ast.Call):
            func = model.func
            return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
        if not isinstance(model, ast.Name):
            return None
        scope = ctx.enclosing_function(at) or ctx.tree
        bound: list[ast.Assign] = [n for n in ast.walk(scope) if isinstance(n, ast.Assign)
                                   and any(isinstance(t, ast.Name) and t.id == model.id for t in n.targets)
                                   and n.lineno < getattr(at, "lineno", 0)]
        if not bound:
            return None
        last = max(bound, key=lambda n: n.lineno).value
        if isinstance(last, ast.Call):
            func = last.func
            if isinstance(func, ast.Attribute) and func.attr in ("load_from_checkpoint",):
                func = func.value
                return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
            return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
        return None

    @staticmethod
    def _module_classes(pctx: PlanContext) -> dict[str, tuple[Any, ast.ClassDef, ast.expr, str]]:
        """Project classes that are LightningModules: name -> (script, class, base, package)."""
        found: dict[str, tuple[Any, ast.ClassDef, ast.expr, str]] = {}
        pending: list[tuple[Any, ast.ClassDef]] = []
        for script in pctx.scripts:
            ctx = pctx.file_context(script)
            for cls in ctx.nodes(ast.ClassDef):
                pending.append((script, cls))
                for base in cls.bases:
                    qual = qualify(ctx, base)
                    package = _package(qual)
                    if package and qual.rsplit(".", 1)[-1] in _BASES:
                        found.setdefault(cls.name, (script, cls, base, package))
        changed = True
        while changed:
            changed = False
            for _script, cls in pending:
                if cls.name in found:
                    continue
                for base in cls.bases:
                    name = base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else ""
                    if name in found:
                        found[cls.name] = found[name]
                        changed = True
                        break
        # a class name defined twice with different packages is ambiguous: drop it
        for script, cls in pending:
            if cls.name in found and found[cls.name][1] is not cls:
                ctx = pctx.file_context(script)
                for base in cls.bases:
                    package = _package(qualify(ctx, base))
                    if package and package != found[cls.name][3]:
                        found.pop(cls.name, None)
                        break
        return found
