"""PF479 wrapped-forward-on-main-process-only: a forward through the model returned by
``accelerator.prepare`` (or ``DistributedDataParallel``) run by the main process alone: DDP's forward
broadcasts the module's buffers to every rank, which are not there, and the job hangs."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import (
    accelerator_names,
    calls,
    is_accelerator_receiver,
    target_text,
)
from preflight.rules._pf427_support import rank_zero_flags_in, rank_zero_guard
from preflight.rules.base import Rule, examples

_DDP = frozenset({"torch.nn.parallel.DistributedDataParallel", "torch.nn.parallel.distributed.DistributedDataParallel"})


@register
class WrappedForwardOnMainProcessOnly(Rule):
    code = "PF479"
    needs_text = ("prepare", "DistributedDataParallel")
    name = "wrapped-forward-on-main-process-only"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate", "pytorch")
    summary = ("A forward through the DDP-wrapped (prepared) model runs on the main process only: DDP's "
               "forward broadcasts buffers to every rank and the job hangs")
    explanation = """
## What it finds

`model(x)` where `model` is the name bound to the model returned by
`accelerator.prepare(...)` or `DistributedDataParallel(...)` in the same function,
inside `if accelerator.is_main_process:` / `if rank == 0:` (any rank-0 test), with no
rebinding of the name in between (`model = accelerator.unwrap_model(model)`).

## Why it matters

In a multi-process run `accelerator.prepare` returns the model wrapped in
`DistributedDataParallel`. Its forward begins with a collective: with the default
`broadcast_buffers=True` and a module that has buffers (BatchNorm running statistics,
registered position ids), `_pre_forward` calls `_sync_buffers()`, a broadcast from
rank 0 (`torch/nn/parallel/distributed.py`, `_check_sync_bufs_pre_fwd`). Run by the main
process alone, that broadcast waits for ranks that never join it: evaluation "gets
stuck" with every GPU at 100% (accelerate issue 2081; maintainer: "you start something
on a different process without ever calling wait_for_everyone()").

## How to fix it

Evaluate every process on a prepared loader and `gather_for_metrics`, or run the
main-process forward through the bare module: `accelerator.unwrap_model(model)(x)`
(or `model.module(x)`).

## When preflight stays silent

* The forward goes through `accelerator.unwrap_model(model)`, `model.module`, or a name
  bound again before the call.
* The call is not under a rank-0 test of its own function, or the `else` branch makes
  the same call.
* The name was not bound from `prepare`/`DistributedDataParallel` in the same function.
* A single-process run does not wrap the model: the finding only matters under a
  multi-process launch, and preflight cannot see the module's buffers, hence a warning.
"""
    bad_examples = examples("preflight.rules.code._pf479_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf479_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        wrapped = self._wrapped_models(ctx)
        if not wrapped:
            return
        flags = rank_zero_flags_in(ctx)
        for call in ctx.nodes(ast.Call):
            name = target_text(call.func)
            if name is None or name not in wrapped:
                continue
            fn = ctx.enclosing_function(call)
            binding = next((b for b, f in wrapped[name] if f is fn and b.lineno < call.lineno), None)
            if binding is None or self._rebound(ctx, name, binding, call, fn):
                continue
            guard = rank_zero_guard(ctx.ancestors, call, flags)
            if guard is None:
                continue
            yield ctx.finding(
                self, call,
                f"`{name}` is the model wrapped on line {binding.lineno} (DistributedDataParallel in a "
                "multi-process run), and only the main process runs this forward: DDP's forward starts by "
                "broadcasting the module's buffers (BatchNorm statistics) to every rank, which are not running it, "
                "so the job hangs. Evaluate on every process, or forward through "
                f"`accelerator.unwrap_model({name})` here",
                evidence=[ctx.evidence(binding, "the model is wrapped here"),
                          ctx.evidence(guard, "only the main process runs this")])

    @staticmethod
    def _wrapped_models(ctx: FileContext) -> dict[str, list[tuple[ast.Assign, Optional[ast.AST]]]]:
        """Names bound to a prepared/DDP-wrapped model: ``model, opt = accelerator.prepare(model, opt)``
        (a target whose argument at the same position has the same name) or ``model = DDP(model, ...)``."""
        ddp = {id(c) for c, q in calls(ctx) if q in _DDP}
        accels = accelerator_names(ctx)
        out: dict[str, list[tuple[ast.Assign, Optional[ast.AST]]]] = {}
        for node in ctx.nodes(ast.Assign):
            value = node.value
            if not isinstance(value, ast.Call) or len(node.targets) != 1:
                continue
            target = node.targets[0]
            names: list[str] = []
            func = value.func
            if id(value) in ddp:
                text = target_text(target)
                if text:
                    names.append(text)
            elif isinstance(func, ast.Attribute) and func.attr == "prepare" \
                    and is_accelerator_receiver(func.value, accels):
                elts = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
                if len(elts) == len(value.args):
                    for tgt, arg in zip(elts, value.args):
                        text = target_text(tgt)
                        if text and text == target_text(arg):
                            names.append(text)
            fn = ctx.enclosing_function(node)
            for name in names:
                out.setdefault(name, []).append((node, fn))
        return out

    @staticmethod
    def _rebound(ctx: FileContext, name: str, binding: ast.Assign, call: ast.Call, fn: Optional[ast.AST]) -> bool:
        for node in ctx.nodes(ast.Assign):
            if node is binding or not binding.lineno < node.lineno < call.lineno or ctx.enclosing_function(node) is not fn:
                continue
            if any(target_text(n) == name for t in node.targets for n in ast.walk(t)):
                return True
        return False
