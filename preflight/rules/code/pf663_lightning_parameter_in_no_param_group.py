"""PF663 lightning-parameter-in-no-param-group: an ``nn.Parameter`` of a LightningModule that the loss uses
but no optimizer of ``configure_optimizers`` receives."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._pf27x_support import lightning_classes, method

# methods whose use of a parameter makes it part of the training computation
_TRAINING = ("training_step", "forward", "compute_loss", "shared_step", "step")


def _self_attr(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def _parameters(init: ast.FunctionDef) -> dict[str, ast.Assign]:
    """``self.x = nn.Parameter(...)`` in ``__init__`` (not ``requires_grad=False``)."""
    out: dict[str, ast.Assign] = {}
    for node in ast.walk(init):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        func = node.value.func
        name = func.attr if isinstance(func, ast.Attribute) else (func.id if isinstance(func, ast.Name) else "")
        if name != "Parameter":
            continue
        frozen = any(kw.arg == "requires_grad" and isinstance(kw.value, ast.Constant) and kw.value.value is False
                     for kw in node.value.keywords)
        for target in node.targets:
            attr = _self_attr(target)
            if attr is not None and not frozen:
                out[attr] = node
    return out


def _whole_module(fn: ast.FunctionDef) -> bool:
    """``configure_optimizers`` hands over every parameter, or something this rule cannot follow: ``self.parameters()``,
    ``self.named_parameters()``, ``self`` itself passed to a helper, a ``super()`` call, ``self.trainer``/hparams
    optimizer factories (``instantiate``)."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in ("parameters", "named_parameters", "state_dict") \
                    and isinstance(func.value, ast.Name) and func.value.id == "self":
                return True
            if isinstance(func, ast.Name) and func.id == "super":
                return True
            if any(isinstance(a, ast.Name) and a.id == "self" for a in [*node.args, *(k.value for k in node.keywords)]):
                return True
        if isinstance(node, ast.Name) and node.id in ("instantiate", "partial"):
            return True
    return False


def _used_in_training(cls: ast.ClassDef, attr: str) -> Optional[ast.Attribute]:
    for name in _TRAINING:
        fn = method(cls, name)
        if fn is None:
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Attribute) and _self_attr(node) == attr and isinstance(node.ctx, ast.Load):
                return node
    return None


@register
class LightningParameterInNoParamGroup(Rule):
    code = "PF663"
    needs_text = ("Parameter",)
    name = "lightning-parameter-in-no-param-group"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("An `nn.Parameter` of a LightningModule feeds the training step but is in no param group of "
               "`configure_optimizers`: it never changes")
    explanation = """
## What it finds

A LightningModule whose `__init__` creates `self.x = nn.Parameter(...)` (trainable), whose
`training_step` (or `forward`) reads `self.x`, and whose `configure_optimizers` builds its
optimizers from explicit parameter lists or submodules (`self.encoder.parameters()`,
`[{"params": [g._xyz], ...}]`) none of which mentions `self.x`.

## Why it matters

Lightning steps only the optimizers `configure_optimizers` returns, and an optimizer updates
only the parameters of its param groups. `self.x` receives gradients every step but keeps its
initial value for the whole run: the learnable embedding, temperature or prompt the method is
built around is a constant (LODS issue 2: the learnable text embeddings were never optimised and
the method silently degraded to plain score distillation).

## How to fix it

Add a param group for it: `{"params": [self.x], "lr": ...}`, or build the optimizer from
`self.parameters()`.

## When preflight stays silent

* `configure_optimizers` uses `self.parameters()` / `self.named_parameters()`, passes `self`
  to a helper, calls `super()`, or builds the optimizer through `instantiate`/`partial`.
* The parameter is created with `requires_grad=False`, or appears anywhere in
  `configure_optimizers`; or the training step never reads it.
"""
    bad_examples = examples("preflight.rules.code._pf663_examples", "PF663_BAD")
    good_examples = examples("preflight.rules.code._pf663_examples", "PF663_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for cls in lightning_classes(ctx, frozenset({"LightningModule"})):
            init, opt = method(cls, "__init__"), method(cls, "configure_optimizers")
            if init is None or opt is None or _whole_module(opt):
                continue
            if not any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                       and n.func.attr[:1].isupper() for n in ast.walk(opt)) \
                    and not any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id[:1].isupper()
                                for n in ast.walk(opt)):
                continue  # no optimizer class built here
            named = {_self_attr(n) for n in ast.walk(opt)}
            named |= {n.attr for n in ast.walk(opt) if isinstance(n, ast.Attribute)}
            for attr, where in _parameters(init).items():
                if attr in named:
                    continue
                use = _used_in_training(cls, attr)
                if use is None:
                    continue
                yield ctx.finding(
                    self, where,
                    f"`self.{attr}` is a trainable `nn.Parameter` read by the training step (line {use.lineno}), "
                    f"but no param group of `configure_optimizers` (line {opt.lineno}) contains it: it receives "
                    "gradients and never changes. Add a param group for it (or build the optimizer from "
                    "`self.parameters()`)",
                    evidence=[ctx.evidence(opt, "the optimizers, built without it"),
                              ctx.evidence(use, "used in the training computation")])
