"""PF346 rank-dependent-synced-log-keys: ``self.log(f"...{v}", ..., sync_dist=True)`` in a loop over
values drawn from the batch: ranks log different keys and the all-reduce pairs them by position."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_STEPS = frozenset({"training_step", "validation_step", "test_step", "predict_step"})


def _batch_names(fn: ast.FunctionDef) -> set[str]:
    """The step's batch parameter and the names computed from it, in statement order."""
    params = [a.arg for a in fn.args.args]
    if len(params) < 2:
        return set()
    names = {params[1]}
    for stmt in sorted((n for n in ast.walk(fn) if isinstance(n, ast.Assign)), key=lambda n: n.lineno):
        if {n.id for n in ast.walk(stmt.value) if isinstance(n, ast.Name)} & names:
            names.update(n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return names


def _synced(call: ast.Call) -> bool:
    sync = next((k.value for k in call.keywords if k.arg == "sync_dist"), None)
    return isinstance(sync, ast.Constant) and sync.value is True


@register
class RankDependentSyncedLogKeys(Rule):
    code = "PF346"
    needs_text = ("sync_dist",)
    name = "rank-dependent-synced-log-keys"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("`self.log(f\"...{v}\", ..., sync_dist=True)` in a loop over values of the batch: ranks log "
               "different keys, and the all-reduce averages unrelated metrics or hangs")
    explanation = """
## What it finds

In a `*_step` of a LightningModule: a `for v in <values computed from the batch>:` loop
(`domain.unique().tolist()`, the classes present in the batch) around
`self.log(f"name_{v}", value, sync_dist=True)`.

## Why it matters

Each rank logs the keys of its own batch. `sync_dist=True` all-reduces the logged values
in the order they are logged, not by name: ranks that log different keys (or a different
number of them) average one domain's accuracy with another's, or wait in a collective the
others never enter (lightning issue 21409: "ranks log different metric keys with
sync_dist"). Checkpoint monitors on those keys are silently wrong.

## How to fix it

Log the same keys on every rank: accumulate per-value counts in torchmetrics objects (or
tensors indexed by the value) and log all of them, for every possible value, at epoch end.

## When preflight stays silent

* The loop runs over values that are the same on every rank (`range(n)`, a constant list,
  an attribute of the module), or the key does not depend on the loop value.
* `sync_dist` is not given (each rank keeps its own values: no collective).
"""
    bad_examples = examples("preflight.rules.code._pf346_examples", "PF346_BAD")
    good_examples = examples("preflight.rules.code._pf346_examples", "PF346_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for fn in ctx.nodes(ast.FunctionDef):
            if fn.name not in _STEPS:
                continue
            batch = _batch_names(fn)
            if not batch:
                continue
            for loop in (n for n in ast.walk(fn) if isinstance(n, ast.For)):
                iterated = {n.id for n in ast.walk(loop.iter) if isinstance(n, ast.Name)}
                if not iterated & batch:
                    continue
                targets = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
                for node in ast.walk(loop):
                    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                            and node.func.attr == "log" and ast.unparse(node.func.value) == "self" and node.args
                            and _synced(node)):
                        continue
                    key = node.args[0]
                    if isinstance(key, ast.Constant) or not ({n.id for n in ast.walk(key)
                                                              if isinstance(n, ast.Name)} & targets):
                        continue
                    yield ctx.finding(
                        self, node,
                        f"`self.log({ast.unparse(key)}, ..., sync_dist=True)` names its key after "
                        f"`{ast.unparse(loop.target)}`, which runs over `{ast.unparse(loop.iter)}` (values of this "
                        "rank's batch): ranks log different keys, and the all-reduce pairs values by position, so "
                        "per-key metrics are averaged with other keys' values or the ranks wait in mismatched "
                        "collectives (lightning issue 21409). Log the same keys on every rank (accumulate per "
                        "value, log all at epoch end)",
                        evidence=[ctx.evidence(loop, "loop over values of the batch")])
