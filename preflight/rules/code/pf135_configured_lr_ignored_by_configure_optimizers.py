"""PF135 configured-lr-ignored-by-configure-optimizers: a LightningModule stores its configured learning
rate (``self.lr = config["learning_rate"]``) but ``configure_optimizers`` hard-codes another one."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.syntax import keyword
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._lightning_code import imports_lightning, lightning_classes

_LR_NAMES = frozenset({"lr", "learning_rate", "base_lr", "init_lr", "initial_lr", "max_lr"})


def _method(cls: ast.ClassDef, name: str) -> Optional[ast.FunctionDef]:
    return next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == name), None)


def _stored_lr(init: ast.FunctionDef) -> Optional[ast.Assign]:
    """``self.<lr name> = <not a literal>`` in ``__init__``: a learning rate taken from the caller."""
    for node in ast.walk(init):
        if isinstance(node, ast.Assign) and not isinstance(node.value, ast.Constant):
            for t in node.targets:
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self" and (
                        t.attr in _LR_NAMES):
                    return node
    return None


def _read(tree: ast.AST, attr: str) -> bool:
    """``<anything>.attr`` loaded anywhere (``self.lr``, ``self.hparams.lr``, ``model.lr``) or ``["attr"]``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.ctx, ast.Load):
            return True
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == attr:
            return True
    return False


@register
class ConfiguredLrIgnoredByConfigureOptimizers(Rule):
    code = "PF135"
    name = "configured-lr-ignored-by-configure-optimizers"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("A LightningModule stores its configured learning rate (`self.lr = ...`) but "
               "`configure_optimizers` builds the optimizer with a hard-coded `lr=` literal and never reads it")
    frameworks = ("lightning",)
    needs_text = ("configure_optimizers",)
    explanation = """
## What it finds

A LightningModule whose `__init__` stores a learning rate taken from its arguments or config
(`self.lr = model_config.get("learning_rate", 5e-4)`, `self.learning_rate = lr`), whose
`configure_optimizers` passes a numeric literal as `lr=` to the optimizer, and that never
reads the stored attribute (no `self.lr` load anywhere in the file).

## Why it matters

The configured learning rate is dead: every run trains at the literal whatever the config,
the command line or a sweep says, and Lightning's learning-rate finder (which writes
`self.lr`/`self.learning_rate`) has no effect either. Nothing fails; the runs just do not
differ (FraunhoferIEE/curriculumagent#8, "Learning rate in Junior torch model is not picked
up": `lr=1e-3` in `configure_optimizers`, the configured `learning_rate` stored in `self.lr`).

## How to fix it

Use the stored value: `torch.optim.Adam(self.parameters(), lr=self.lr)`.

## When preflight stays silent

* The stored attribute is read anywhere in the file (by the optimizer, a scheduler's
  `max_lr`, a logger...), or `__init__` stores a literal.
* The optimizer's `lr` is not a numeric literal.
* The class is not a LightningModule of the file, or the file does not import Lightning.
"""
    bad_examples = examples("preflight.rules.code._pf135_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf135_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        names = lightning_classes(ctx)
        if not names or not imports_lightning(ctx, ctx.tree):
            return
        for cls in ctx.nodes(ast.ClassDef):
            if cls.name not in names:
                continue
            init, configure = _method(cls, "__init__"), _method(cls, "configure_optimizers")
            stored = _stored_lr(init) if init is not None else None
            if stored is None or configure is None:
                continue
            attr = next(t.attr for t in stored.targets if isinstance(t, ast.Attribute) and t.attr in _LR_NAMES)
            if _read(ctx.tree, attr):
                continue
            for call in ast.walk(configure):
                lr = keyword(call, "lr") if isinstance(call, ast.Call) else None
                if not (isinstance(lr, ast.Constant) and isinstance(lr.value, (int, float))
                        and not isinstance(lr.value, bool)):
                    continue
                yield ctx.finding(
                    self, lr,
                    f"`configure_optimizers` hard-codes `lr={ast.unparse(lr)}` while `__init__` stores the "
                    f"configured learning rate in `self.{attr}`, which nothing reads: every run trains at "
                    f"{ast.unparse(lr)} whatever the config or a sweep sets. Use `lr=self.{attr}`",
                    evidence=[ctx.evidence(stored, "the configured learning rate, never read")])
