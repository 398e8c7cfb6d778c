"""PF224 fsdp-plain-clip-grad-norm: ``torch.nn.utils.clip_grad_norm_(model.parameters(), ...)`` on a
model wrapped in FSDP1's ``FullyShardedDataParallel`` with a sharded strategy: each rank clips by the
norm of its own shards."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, kwarg, qualify
from preflight.rules.base import Rule, examples

_CLIP = frozenset({"torch.nn.utils.clip_grad_norm_", "torch.nn.utils.clip_grad_norm",
                   "torch.nn.utils.clip_grad.clip_grad_norm_", "torch.nn.utils.clip_grad.clip_grad_norm"})
_FSDP = "torch.distributed.fsdp"


def _target(node: ast.AST) -> Optional[str]:
    """``model`` or ``self.model``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return f"self.{node.attr}"
    return None


def _is_fsdp1(ctx: FileContext, call: ast.Call) -> bool:
    qual = qualify(ctx, call.func)
    return qual.startswith(_FSDP) and qual.rsplit(".", 1)[-1] == "FullyShardedDataParallel"


def _no_shard(ctx: FileContext, call: ast.Call) -> Optional[bool]:
    """True for ``NO_SHARD`` (gradients whole on every rank), False for a sharded strategy (the
    default ``FULL_SHARD`` included), None when preflight cannot read it."""
    strategy = kwarg(call, "sharding_strategy")
    if strategy is None:
        return False
    text = ast.unparse(strategy)
    if text.endswith("NO_SHARD"):
        return True
    if text.endswith(("FULL_SHARD", "SHARD_GRAD_OP", "HYBRID_SHARD", "_HYBRID_SHARD_ZERO2")):
        return False
    return None


@register
class FsdpPlainClipGradNorm(Rule):
    code = "PF224"
    needs_text = ("FullyShardedDataParallel",)
    name = "fsdp-plain-clip-grad-norm"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = ("`torch.nn.utils.clip_grad_norm_(model.parameters())` on an FSDP1 `FullyShardedDataParallel` "
               "model with sharded gradients: each rank clips by a partial norm; use `model.clip_grad_norm_`")
    explanation = """
## What it finds

`torch.nn.utils.clip_grad_norm_(X.parameters(), ...)` (or `clip_grad_norm`) where `X` (a name
or `self.X`) was bound to `FullyShardedDataParallel(...)` in the same function (or class)
before, with a sharded `sharding_strategy` (`FULL_SHARD`, the default, `SHARD_GRAD_OP`,
`HYBRID_SHARD`).

## Why it matters

With a sharded strategy every rank holds only its flat shard of each gradient, so the plain
helper computes the norm of the local shards: a different, too small total on every rank.
Each rank then scales its shard by its own factor, so the update is no longer a clipped
gradient (clipping is weaker than asked and differs across shards), and the logged grad norm
is not the model's. The FSDP docstring says so: "If at least some FSDP instance uses a sharded
strategy (i.e. one other than `NO_SHARD`), then you should use this method instead of
`torch.nn.utils.clip_grad_norm_` since this method handles the fact that gradients are sharded
across ranks" (`FullyShardedDataParallel.clip_grad_norm_`,
`torch/distributed/fsdp/fully_sharded_data_parallel.py`). Reported in PrimeIntellect's DiLoCo
training code.

## How to fix it

Call the wrapper's method, which all-reduces the norm across ranks:
`grad_norm = model.clip_grad_norm_(max_norm)`.

## When preflight stays silent

* `sharding_strategy=ShardingStrategy.NO_SHARD` (whole gradients on every rank), or a
  strategy preflight cannot read.
* FSDP2 (`fully_shard`): its parameters are DTensors and the plain helper's norm is reduced
  across the mesh (torchtune issue 2169).
* `model.clip_grad_norm_(...)`, or the model passed to the helper is not the FSDP wrapper
  this function (or class) built.
"""
    bad_examples = examples("preflight.rules.code._pf224_examples", "PF224_BAD")
    good_examples = examples("preflight.rules.code._pf224_examples", "PF224_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        wrapped: list[tuple[str, ast.AST, ast.Call, bool]] = []  # (target, scope, FSDP call, sharded)
        for node in ctx.nodes(ast.Assign):
            if not (isinstance(node.value, ast.Call) and _is_fsdp1(ctx, node.value)):
                continue
            shard = _no_shard(ctx, node.value)
            if shard is None:
                continue
            for target in node.targets:
                name = _target(target)
                if name is None:
                    continue
                scope = ctx.enclosing(node, ast.ClassDef) if name.startswith("self.") \
                    else ctx.enclosing_function(node)
                wrapped.append((name, scope or ctx.tree, node.value, not shard))
        if not wrapped:
            return
        for call, qual in calls(ctx):
            if qual not in _CLIP or not call.args:
                continue
            params = call.args[0]
            if not (isinstance(params, ast.Call) and isinstance(params.func, ast.Attribute)
                    and params.func.attr == "parameters" and not params.args):
                continue
            name = _target(params.func.value)
            if name is None:
                continue
            # the latest binding of that name before the clip, in the clip's function (or class)
            bound = [w for w in wrapped if w[0] == name and ctx.under(call, w[1]) and w[2].lineno < call.lineno]
            others = [n for n in ctx.nodes(ast.Assign)
                      if any(_target(t) == name for t in n.targets)
                      and (not bound or n.lineno > bound[-1][2].lineno) and n.lineno < call.lineno
                      and not (isinstance(n.value, ast.Call) and _is_fsdp1(ctx, n.value))
                      and (name.startswith("self.") or ctx.enclosing_function(n) is ctx.enclosing_function(call))]
            if not bound or others or not bound[-1][3]:
                continue
            fsdp = bound[-1][2]
            yield ctx.finding(
                self, call,
                f"`{ast.unparse(call.func)}({name}.parameters(), ...)` on a `FullyShardedDataParallel` model "
                "with sharded gradients: each rank holds only its shards, so the norm is a per-rank partial "
                "norm, every rank scales its shard by a different factor and the returned grad norm is not "
                f"the model's. Use `{name}.clip_grad_norm_(max_norm)`, which reduces the norm across ranks",
                evidence=[ctx.evidence(fsdp, f"`{name}` is wrapped in FSDP with a sharded strategy here")])
