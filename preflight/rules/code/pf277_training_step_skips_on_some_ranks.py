"""PF277 training-step-skips-on-some-ranks: a Lightning ``training_step`` that returns None
(skips the batch) on a condition, in a multi-process run with automatic optimization."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._pf27x_support import (
    lightning_classes,
    manual_optimization,
    method,
    multi_process_trainer,
    none_return,
    own_nodes,
    synced,
)


def _skip(fn: ast.FunctionDef) -> Optional[ast.Return]:
    """A ``return None`` under a condition, in a step that returns a loss on its other path."""
    returns = [n for n in own_nodes(fn) if isinstance(n, ast.Return)]
    if not any(not none_return(r) for r in returns):
        return None  # never returns a loss: not a skip on some batches
    parents = {id(child): node for node in own_nodes(fn) for child in ast.iter_child_nodes(node)}
    for ret in sorted((r for r in returns if none_return(r)), key=lambda r: r.lineno):
        node: ast.AST = ret
        while id(node) in parents:
            node = parents[id(node)]
            if isinstance(node, ast.If) and synced(node.test):
                break  # the ranks agree on the decision
            if isinstance(node, (ast.If, ast.Try)):
                return ret
    return None


@register
class TrainingStepSkipsOnSomeRanks(Rule):
    code = "PF277"
    name = "training-step-skips-on-some-ranks"
    severity = Severity.WARNING
    category = Category.DISTRIBUTED
    summary = ("`training_step` returns None on a condition (skips the batch) in a multi-process run: "
               "ranks that skip and ranks that do not fall out of step in the gradient all-reduce")
    frameworks = ("lightning",)
    needs_text = ("training_step", "return")
    explanation = """
## What it finds

A `LightningModule.training_step` (automatic optimization) that returns `None` (or a bare
`return`) under an `if`/`try` (a NaN loss, an empty batch, a random skip) while its other
path returns the loss, in a file whose one Lightning `Trainer` runs several processes
(`devices=4`, `strategy="ddp"`, `num_nodes=2`, ...).

## Why it matters

Returning `None` tells Lightning to skip the backward and the optimizer step of that batch.
Each process decides on its own data: under DDP a rank that skips never enters the gradient
all-reduce that the other ranks are waiting in, and the job hangs with no error (or, with
`find_unused_parameters`, the ranks pair up different buckets). Lightning documents the
`None` return as "skip to the next batch. This is only supported for automatic optimization.
This is not supported for multi-GPU, TPU, or DeepSpeed" (LightningModule.training_step), and
the hang is Lightning-AI/pytorch-lightning issue 5243 ("Returning None from training_step
with multi GPU DDP training freezes the training without exception").

## How to fix it

Make the decision the same on every rank (all-reduce the skip flag first), or keep every
rank in the backward with a zero loss instead of skipping:

```python
if torch.isnan(loss):
    loss = torch.nan_to_num(loss, nan=0.0) * 0.0
return loss
```

## When preflight stays silent

* The Trainer runs one process, or the file has no Trainer or several (not known to be
  multi-process).
* The class mentions `automatic_optimization` (manual optimization: the step is the
  user's).
* The condition is shared by the ranks: it mentions a reduce/gather/broadcast/sync
  (`self.trainer.strategy.reduce_boolean_decision(...)`, an all-reduced flag) or the rank.
* `training_step` returns `None` on every path (no loss returned: nothing is stepped anywhere),
  or the `None` return is not under a condition.
"""
    bad_examples = examples("preflight.rules.code._pf277_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf277_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        steps = []
        for cls in lightning_classes(ctx, frozenset({"LightningModule"})):
            fn = method(cls, "training_step")
            if fn is None or manual_optimization(cls):
                continue
            ret = _skip(fn)
            if ret is not None:
                steps.append((cls, ret))
        if not steps:
            return
        multi = multi_process_trainer(ctx)
        if multi is None:
            return
        trainer, why = multi
        for cls, ret in steps:
            yield ctx.finding(
                self, ret,
                f"`{cls.name}.training_step` returns None here to skip the batch, a decision each process "
                f"takes on its own data, while the Trainer runs several processes (`{ast.unparse(why)}`, line "
                f"{trainer.lineno}): the ranks that computed a loss wait in DDP's gradient all-reduce for the one "
                "that skipped and the job hangs without an error (Lightning: returning None 'is not supported "
                "for multi-GPU'). Make the skip identical on every rank, or return a zero loss "
                "(`loss * 0.0`) instead of None",
                evidence=[ctx.evidence(why, "the Trainer runs several processes")])
