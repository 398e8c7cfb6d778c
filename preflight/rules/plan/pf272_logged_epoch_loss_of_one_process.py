"""PF272 logged-epoch-loss-of-one-process: under a multi-process accelerate launch, the epoch's summed
training loss is logged with ``accelerator.log`` without being reduced across processes."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import accelerator_calls
from preflight.rules.base import examples
from preflight.rules.code._logged_loss import logged_pairs, loop_sum, starts_at_zero
from preflight.rules.plan._schedule_support import processes

_COLLECTIVE_WORDS = ("gather", "reduce")
_EVAL_WORDS = ("val", "eval", "test", "dev")


def _reduced(scope: ast.AST, name: str) -> bool:
    """``name`` reaches a collective (``accelerator.reduce``, ``gather``, ``all_reduce``) in the scope."""
    for node in ast.walk(scope):
        if isinstance(node, ast.Call) and any(w in ast.unparse(node.func).lower() for w in _COLLECTIVE_WORDS) \
                and any(isinstance(n, ast.Name) and n.id == name
                        for a in [*node.args, *(k.value for k in node.keywords)] for n in ast.walk(a)):
            return True
    return False


@register
class LoggedEpochLossOfOneProcess(PlanRule):
    code = "PF272"
    name = "logged-epoch-loss-of-one-process"
    severity = Severity.WARNING
    category = Category.DISTRIBUTED
    frameworks = ("accelerate",)
    summary = ("On several processes the epoch's summed training loss is logged with `accelerator.log` "
               "unreduced: the curve is the main process's shard of the data, not the epoch")
    explanation = """
## What it finds

A job launched on more than one process (the launch command, the accelerate config)
whose script sums the batch losses of its training loop into a total started at zero
(`total_loss += loss.detach().float()`) and logs that total (divided or not) with
`accelerator.log(...)` under a training-loss key, while the total never reaches a
collective (`accelerator.reduce`, `accelerator.gather`, `dist.all_reduce`) in that function.

## Why it matters

`accelerator.prepare` shards the training loader: each process sees 1/N of the batches,
so each process's total covers 1/N of the epoch, and `accelerator.log` writes only on
the main process. The logged "epoch train loss" is the mean over the main process's
shard (an eighth of the data on 8 processes), not over the epoch; the accelerate
maintainers: "you would need to gather to get the total epoch loss" (accelerate issue
2109, on the `no_trainer` examples).

## How to fix it

`epoch_loss = accelerator.reduce(total_loss, reduction="mean") / len(train_dataloader)`
(every process must call it), then log `epoch_loss.item()`.

## When preflight stays silent

* The launch runs one process, or the process count is not known.
* The total reaches `reduce`/`gather`/`all_reduce` anywhere in the function (also into
  another name that is logged instead).
* The key names an evaluation loss (`val`, `eval`, `test`, `dev`): those are gathered
  from the evaluation loop, not summed over the training shard.
* The total is not grown inside a loop over batches (see PF271), or not started at zero.
"""
    bad_examples = examples("preflight.rules.plan._pf272_examples", "PF272_BAD")
    good_examples = examples("preflight.rules.plan._pf272_examples", "PF272_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        world = processes(pctx)
        if world is None:
            return
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if "Accelerator" not in text or "+=" not in text:
                continue
            ctx = pctx.file_context(script)
            for call in accelerator_calls(ctx, "log"):
                for key, value in logged_pairs(call):
                    lowered = key.lower()
                    if "loss" not in lowered or any(w in lowered for w in _EVAL_WORDS):
                        continue
                    scope = ctx.enclosing_function(call) or ctx.tree
                    for name in sorted({n.id for n in ast.walk(value) if isinstance(n, ast.Name)}):
                        total = loop_sum(scope, name)
                        if total is None or not starts_at_zero(scope, name) or _reduced(scope, name):
                            continue
                        yield pctx.code_finding(
                            self, script, value,
                            f"\"{key}\" logs `{name}`, this process's sum of its batch losses "
                            f"(`{ast.unparse(total)}`, line {total.lineno}), on {world.value} processes: the "
                            f"prepared loader gives each process 1/{world.value} of the batches and "
                            "`accelerator.log` writes the main process's value only, so the logged epoch loss "
                            f"covers one shard. Reduce it first: `accelerator.reduce({name}, reduction=\"mean\")`",
                            evidence=[pctx.code_evidence(script, total, "summed on each process separately",
                                                         same_file=True)])
                        break
