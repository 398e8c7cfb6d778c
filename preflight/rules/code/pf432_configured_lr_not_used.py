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

## When preflight stays silent

* The variable is used for anything but printing/logging (a scheduler, a
  parameter group, a later `param_group["lr"] = lr`).
* The optimizer's `lr` is not a literal.
"""
    bad_examples = examples("preflight.rules.code._pf432_examples", "PF432_BAD")
    good_examples = examples("preflight.rules.code._pf432_examples", "PF432_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
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
