"""PF432 configured-lr-not-used: the learning rate is read from the config, but the optimizer gets a literal."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.analysis.syntax import walk
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import last_name
from preflight.rules._pf432_support import config_key
from preflight.rules.base import Rule, examples

_LR_KEYS = frozenset({"lr", "learning_rate", "base_lr", "initial_lr"})
_OPTIMIZERS = frozenset({"SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam",
                         "LBFGS", "Lion", "Adafactor", "AdamW8bit", "SparseAdam"})
_REPORTING = frozenset({"print", "info", "debug", "warning", "log", "write", "format", "add_scalar", "log_metrics",
                        "set_description", "set_postfix"})


def _only_reported(fn: ast.AST, name: str, parents: dict) -> bool:
    """Every read of ``name`` in ``fn`` is an argument of print/logging (or there is none)."""
    for node in walk(fn):
        if not (isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)):
            continue
        cur = parents.get(node)
        while isinstance(cur, (ast.FormattedValue, ast.JoinedStr, ast.BinOp, ast.Tuple, ast.keyword)):
            cur = parents.get(cur)
        if not (isinstance(cur, ast.Call) and last_name(cur.func) in _REPORTING):
            return False
    return True


@register
class ConfiguredLrNotUsed(Rule):
    code = "PF432"
    needs_text = ("lr",)
    name = "configured-lr-not-used"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("pytorch",)
    summary = "The learning rate is read from the config, but the optimizer is built with a literal one"
    explanation = """
## What it finds

A function that reads the learning rate from its configuration into a variable
(`lr = cfg["training"]["learning_rate"]`, `lr = args.lr`) and then builds a
`torch.optim` optimizer with a literal `lr=0.001`, while the variable is used
nowhere else than in a print or log call.

## Why it matters

The run logs the configured learning rate, and every sweep over it changes
nothing: the optimizer always trains with the literal (yifita/DSS issue 25: the configured
0.0005 was printed while Adam ran at 0.001).

## How to fix it

Pass the variable: `torch.optim.Adam(model.parameters(), lr=lr)`.

Also: an optimizer built with a configured `lr=args.lr` whose `CyclicLR(opt,
base_lr=4e-4, max_lr=7e-4)` (or `OneCycleLR(opt, max_lr=0.01)`) in the same
function has literal bounds: the scheduler writes its own learning rate into the
optimizer at every step, so `--lr` does nothing (haca3 issue 9).

## When preflight stays silent

* The variable is used for anything but printing/logging (a scheduler, a
  parameter group, a later `param_group["lr"] = lr`).
* The optimizer's `lr` is not a literal.
* For the scheduler shape: any bound that is not a literal (`max_lr=args.lr`), or an
  optimizer whose own `lr` is a literal (OpenPCDet's `adam_onecycle` placeholder lr
  under a OneCycle schedule built from the config) or a module's own default
  (`lr=self.hparams.lr` in a LightningModule: a nominal lr, as in torch's OneCycleLR
  example). The optimizer's `lr` must be an option the file declares (`args.lr`), a
  config read (`cfg["lr"]`), or a parameter every keyword call passes one of those.
"""
    bad_examples = examples("preflight.rules.code._pf432_examples", "PF432_BAD")
    good_examples = examples("preflight.rules.code._pf432_examples", "PF432_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        yield from self._scheduler_literals(ctx)
        if not any(len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and config_key(node.value) in _LR_KEYS
                   for node in ctx.nodes(ast.Assign)):
            return  # no function reads a learning rate from a config: none needs walking
        for fn in ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
            read: dict[str, ast.Assign] = {}
            for node in walk(fn):
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                        and config_key(node.value) in _LR_KEYS:
                    read[node.targets[0].id] = node
            if not read:
                continue
            parents = {c: p for p in walk(fn) for c in ast.iter_child_nodes(p)}
            for call in walk(fn):
                if not (isinstance(call, ast.Call) and last_name(call.func) in _OPTIMIZERS):
                    continue
                lit = next((kw for kw in call.keywords if kw.arg == "lr" and isinstance(kw.value, ast.Constant)
                            and isinstance(kw.value.value, (int, float))), None)
                if lit is None:
                    continue
                for name, assign in read.items():
                    if assign.lineno < call.lineno and _only_reported(fn, name, parents):
                        yield ctx.finding(
                            self, lit,
                            f"the learning rate is read from the config into `{name}` (line {assign.lineno}) but "
                            f"`{last_name(call.func)}` is built with `lr={ast.unparse(lit.value)}`, and `{name}` is "
                            "only printed: the configured value never reaches the optimizer. Pass "
                            f"`lr={name}`",
                            evidence=[ctx.evidence(assign, "the configured learning rate is read here")])
                        break

    def _scheduler_literals(self, ctx: FileContext) -> Iterable[Finding]:
        """``opt = Adam(params, lr=args.lr)`` then ``CyclicLR(opt, base_lr=4e-4, max_lr=7e-4)`` (or
        ``OneCycleLR(opt, max_lr=0.01)``) in the same function: the scheduler sets the learning rate
        from its literals at every step, so the configured ``lr`` never takes effect."""
        for call in ctx.nodes(ast.Call):
            name = last_name(call.func)
            if name not in _OVERRIDING or not call.args:
                continue
            bounds = [kw for kw in call.keywords if kw.arg in _OVERRIDING[name]]
            if len(bounds) != len(_OVERRIDING[name]) or not all(
                    isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, (int, float))
                    and not isinstance(kw.value.value, bool) for kw in bounds):
                continue
            fn = ctx.enclosing_function(call) or ctx.tree
            target = ast.unparse(call.args[0])
            for node in walk(fn):
                if not (isinstance(node, ast.Assign) and len(node.targets) == 1
                        and ast.unparse(node.targets[0]) == target and isinstance(node.value, ast.Call)
                        and last_name(node.value.func) in _OPTIMIZERS and node.lineno < call.lineno):
                    continue
                lr = next((kw.value for kw in node.value.keywords if kw.arg == "lr"), None)
                if lr is None or not _configured(ctx, lr, fn):
                    continue  # a module's own default (`self.hparams.lr`) is a nominal lr under these schedules
                said = ", ".join(f"{kw.arg}={ast.unparse(kw.value)}" for kw in bounds)
                yield ctx.finding(
                    self, call,
                    f"`{name}({target}, {said})` sets the learning rate from these literals at every step, so "
                    f"`lr={ast.unparse(lr)}` given to `{last_name(node.value.func)}` (line {node.lineno}) never "
                    f"takes effect: a learning rate set on the command line or in the config changes nothing. "
                    f"Derive the bounds from it (`max_lr={ast.unparse(lr)}`)",
                    evidence=[ctx.evidence(lr, "the configured learning rate")])
                break


_OVERRIDING = {"CyclicLR": ("base_lr", "max_lr"), "OneCycleLR": ("max_lr",)}


def _from_user(ctx: FileContext, expr: ast.AST) -> bool:
    """``args.lr`` (an option this file declares with ``add_argument``) or ``cfg["lr"]`` /
    ``cfg.optim.lr`` read from a config mapping: a value the user sets for the run."""
    from preflight.rules._pf4_support import script_index

    if isinstance(expr, ast.Attribute) and not ast.unparse(expr).startswith("self."):
        return expr.attr in script_index(ctx).arguments
    return isinstance(expr, ast.Subscript) and config_key(expr) in _LR_KEYS


def _configured(ctx: FileContext, lr: ast.AST, fn: ast.AST) -> bool:
    """The optimizer's ``lr`` comes from the command line or a config: directly, or through a
    parameter of the function (or class) every keyword call of which passes such a value."""
    if _from_user(ctx, lr):
        return True
    if not (isinstance(lr, ast.Name) and isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
            and lr.id in {a.arg for a in fn.args.args + fn.args.kwonlyargs}):
        return False
    callee = fn.name
    if callee == "__init__":
        cls = next((a for a in ctx.ancestors(fn) if isinstance(a, ast.ClassDef)), None)
        if cls is None:
            return False
        callee = cls.name
    values = [kw.value for call in ctx.nodes(ast.Call) if last_name(call.func) == callee
              for kw in call.keywords if kw.arg == lr.id]
    return bool(values) and all(_from_user(ctx, v) for v in values)
