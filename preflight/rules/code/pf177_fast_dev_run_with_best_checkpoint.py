"""PF177 fast-dev-run-with-best-checkpoint: ``Trainer(fast_dev_run=True)`` in a run that then reads the best
checkpoint (``ckpt_path="best"``, ``best_model_path``), which ``fast_dev_run`` never writes."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._lightning_code import imports_lightning
from preflight.rules.code._test_code import in_test_code

_RUNS = frozenset({"test", "validate", "predict"})


def _fast_dev_run(call: ast.Call) -> Optional[ast.keyword]:
    """The call's ``fast_dev_run`` keyword when it is a literal that turns the mode on (True or a count >= 1)."""
    kw = next((k for k in call.keywords if k.arg == "fast_dev_run"), None)
    if kw is None or not isinstance(kw.value, ast.Constant):
        return None
    value = kw.value.value
    if value is True or (type(value) is int and value >= 1):
        return kw
    return None


def _is_trainer(call: ast.Call) -> bool:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name == "Trainer"


def _conditional(ctx: FileContext, node: ast.AST, scope: ast.AST) -> bool:
    """The call sits in an ``if`` branch or a conditional expression of its scope (a debug switch; not the
    ``if __name__ == "__main__":`` guard)."""
    for parent in ast.walk(scope):
        if isinstance(parent, (ast.If, ast.IfExp)) and parent is not node \
                and "__name__" not in ast.unparse(parent.test) \
                and any(n is node for n in ast.walk(parent)):
            return True
    return False


def _best_reads(scope: ast.AST, trainer: Optional[str]) -> list[ast.AST]:
    """Reads of the best checkpoint in the scope: ``<trainer>.test/validate/predict(..., ckpt_path="best")``
    on the fast-dev-run trainer, or any ``.best_model_path`` attribute."""
    out: list[ast.AST] = []
    for node in ast.walk(scope):
        if isinstance(node, ast.Attribute) and node.attr == "best_model_path" and isinstance(node.ctx, ast.Load):
            out.append(node)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _RUNS \
                and trainer is not None and ast.unparse(node.func.value) == trainer:
            kw = next((k for k in node.keywords if k.arg == "ckpt_path"), None)
            if kw is not None and isinstance(kw.value, ast.Constant) and kw.value.value == "best":
                out.append(node)
    return out


def _bound_to(scope: ast.AST, call: ast.Call) -> Optional[str]:
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and node.value is call and len(node.targets) == 1:
            return ast.unparse(node.targets[0])
    return None


@register
class FastDevRunWithBestCheckpoint(Rule):
    code = "PF177"
    name = "fast-dev-run-with-best-checkpoint"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    summary = ("`Trainer(fast_dev_run=True)` in a run that then reads the best checkpoint (`ckpt_path=\"best\"`, "
               "`best_model_path`): fast_dev_run trains one batch and saves no checkpoint")
    frameworks = ("lightning",)
    needs_text = ("fast_dev_run",)
    explanation = """
## What it finds

In a file that imports Lightning, a `Trainer(...)` call whose `fast_dev_run` is a literal that
turns the mode on (`True` or a batch count), not inside an `if` branch or conditional
expression, in a scope (function or module) that also reads the best checkpoint: that
trainer's `test`/`validate`/`predict(..., ckpt_path="best")`, or any `.best_model_path`.

## Why it matters

`fast_dev_run` is a debugging switch: the Trainer runs one (or N) training and validation
batches, ignores `max_epochs`, and turns off the loggers and every checkpoint callback, so
`ModelCheckpoint.best_model_path` stays empty (Lightning issue 7143, "best_model_path not set
when fast_dev_run=True": working as intended). Left in a real training script, the run "trains"
one batch, saves nothing, and the `ckpt_path="best"` test fails ("no checkpoint callback" /
empty path) or the exported path is empty.

## How to fix it

Remove `fast_dev_run` from the real run, or drive it from a command-line switch
(`fast_dev_run=args.debug`) and skip the best-checkpoint steps in debug runs.

## When preflight stays silent

* Test code (`test_*.py`, `*_test.py`, `conftest.py`, a `test*` function or fixture).
* `fast_dev_run` is not a literal (`args.fast_dev_run`, a config value), is `False` or `0`.
* The Trainer call sits in an `if`/conditional-expression branch (a debug path).
* Nothing in the same scope reads the best checkpoint.
"""
    bad_examples = examples("preflight.rules.code._pf177_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf177_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not imports_lightning(ctx, ctx.tree):
            return
        for call in ctx.nodes(ast.Call):
            if not _is_trainer(call):
                continue
            kw = _fast_dev_run(call)
            if kw is None:
                continue
            scope = ctx.enclosing_function(call) or ctx.tree
            if _conditional(ctx, call, scope):
                continue
            if in_test_code(ctx, call):
                continue
            reads = _best_reads(scope, _bound_to(scope, call))
            if not reads:
                continue
            read = reads[0]
            count = "one" if isinstance(kw.value, ast.Constant) and kw.value.value is True else ast.unparse(kw.value)
            yield ctx.finding(
                self, kw.value,
                f"`fast_dev_run={ast.unparse(kw.value)}` makes this a debugging run: the Trainer runs "
                f"{count} training and validation batch(es), "
                f"ignores `max_epochs`, and disables the loggers and checkpointing, yet line {getattr(read, 'lineno', 0)} reads the "
                "best checkpoint, which is never written (`best_model_path` stays empty; Lightning issue 7143); "
                "remove `fast_dev_run` from the real run or drive it from a debug switch",
                evidence=[ctx.evidence(read, "the best checkpoint is read here")])
