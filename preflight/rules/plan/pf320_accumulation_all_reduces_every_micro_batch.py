"""PF320 accumulation-all-reduces-every-micro-batch: gradients accumulated by hand over micro-batches of a
DDP (or accelerate-prepared) model on several processes, with no ``no_sync``: every backward all-reduces."""

from __future__ import annotations

import ast
from typing import Any, Callable, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._loader_datasets import text_of
from preflight.rules.plan._schedule_support import processes

# a data-parallel wrapper that all-reduces in backward: torch's DDP, or accelerate's prepare (which wraps
# the model in DDP on several processes)
_WRAPPERS = ("DistributedDataParallel(", "DDP(", "accelerator.prepare(")
# the script already decides when to synchronise, or hands the loop to something that does
_HANDLED = ("no_sync", ".accumulate(", "sync_gradients", "require_backward_grad_sync", "deepspeed", "Trainer(",
            "LightningModule", "Fabric(", "set_gradient_accumulation_boundary")


def _is_call(node: ast.AST, attr: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == attr


def _optimizer_step(node: ast.AST) -> bool:
    """``optimizer.step()`` / ``opt.step()`` / ``scaler.step(optimizer)``."""
    if not _is_call(node, "step"):
        return False
    text = ast.unparse(node).lower()
    return "opt" in text


def _window_of_one(divisor: ast.AST, resolve: Callable[[ast.AST], Any]) -> bool:
    """The modulo's divisor is the constant 1 (``gradient_accumulation_steps = 1`` above the loop):
    ``step % 1 == 0`` holds on every pass, so there is no accumulation window."""
    found = resolve(divisor)
    value = getattr(found, "value", None)
    return isinstance(value, int) and not isinstance(value, bool) and value == 1


def _window_loop(loop: ast.For, resolve: Callable[[ast.AST], Any] = lambda node: None) -> Optional[ast.Call]:
    """The backward of a loop that runs it on every pass and steps the optimizer under a modulo test
    (``if (step + 1) % accum == 0:``, ``accum`` not the constant 1): the backward call, else None."""
    backward: Optional[ast.Call] = None
    gated = False
    for stmt in loop.body:
        if isinstance(stmt, ast.If):
            mods = [n for n in ast.walk(stmt.test) if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mod)]
            test_mod = bool(mods) and not all(_window_of_one(n.right, resolve) for n in mods)
            if test_mod and any(_optimizer_step(n) for s in stmt.body for n in ast.walk(s)):
                gated = True
                continue
            if any(_optimizer_step(n) for n in ast.walk(stmt)):
                return None
        elif isinstance(stmt, (ast.For, ast.While, ast.With, ast.Try)):
            if any(_optimizer_step(n) for n in ast.walk(stmt)):
                return None
        else:
            if any(_optimizer_step(n) for n in ast.walk(stmt)):
                return None  # a step on every pass: no accumulation
            found = next((n for n in ast.walk(stmt) if _is_call(n, "backward")), None)
            if found is not None and backward is None:
                backward = found  # type: ignore[assignment]
    return backward if gated else None


@register
class AccumulationAllReducesEveryMicroBatch(PlanRule):
    code = "PF320"
    name = "accumulation-all-reduces-every-micro-batch"
    severity = Severity.WARNING
    category = Category.PERFORMANCE
    frameworks = ("pytorch", "accelerate")
    summary = ("Gradients are accumulated by hand over micro-batches of a DDP model on several processes "
               "without `no_sync`: every micro-batch's backward all-reduces the full gradients")
    explanation = """
## What it finds

A training loop that runs `backward` (or `accelerator.backward`) on every pass and
steps the optimizer only under a modulo test (`if (step + 1) % accum == 0:`), in a file
whose model is wrapped in `DistributedDataParallel` or prepared by `accelerator.prepare`,
in a job launched on several processes, when nothing in the file skips the gradient
synchronisation (`model.no_sync()`, `accelerator.no_sync`, `accelerator.accumulate`,
`sync_gradients`, `require_backward_grad_sync`).

## Why it matters

DDP all-reduces every gradient bucket during each `backward`. Accumulating over N
micro-batches then communicates N times per optimizer step where once suffices: N-1 of
N all-reduces are wasted, and on slower interconnects adding GPUs makes training slower
(accelerate issue 192, "The more GPU I use, the slower the training speed": wrapping the
accumulating micro-batches in `model.no_sync()` halved the training time). The result
is the same; the time is not.

## How to fix it

Skip the synchronisation on the accumulating micro-batches:

```python
ctx = model.no_sync if (step + 1) % accum != 0 else contextlib.nullcontext
with ctx():
    loss = model(**batch).loss / accum
    accelerator.backward(loss)
```

or, with accelerate 0.10 or later, `Accelerator(gradient_accumulation_steps=accum)` and
`with accelerator.accumulate(model):` around each micro-batch.

## When preflight stays silent

* One process, or a process count preflight cannot read.
* The job runs DeepSpeed (a DeepSpeed config, `distributed_type: DEEPSPEED`) or FSDP: they do not
  all-reduce per `backward` the way DDP does.
* The file names `no_sync`, `accumulate(`, `sync_gradients` or
  `require_backward_grad_sync`, or runs a DeepSpeed engine, a Trainer, Lightning or Fabric
  (they handle the synchronisation).
* The optimizer steps on every pass (a modulo by a constant 1, `gradient_accumulation_steps = 1`
  in the transformers `no_trainer` examples, included), or the loop's structure is not the one above.
"""
    bad_examples = examples("preflight.rules.plan._pf320_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf320_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        world = processes(pctx)
        if world is None:
            return
        sharding = pctx.plan.resolve("dist.sharding")
        if pctx.deepspeed_configs() or (sharding is not None and str(sharding.value).lower().startswith(
                ("zero", "fsdp", "deepspeed"))):
            return  # a DeepSpeed engine or FSDP reduces on its own schedule, not DDP's per-backward all-reduce
        for script in pctx.scripts:
            text = text_of(script)
            if "backward" not in text or not any(w in text for w in _WRAPPERS) or any(w in text for w in _HANDLED):
                continue
            for loop in ast.walk(script.tree):
                if not isinstance(loop, ast.For):
                    continue
                backward = _window_loop(loop, pctx.index(script).resolve)
                if backward is None:
                    continue
                yield pctx.code_finding(
                    self, script, backward,
                    f"this backward runs on every micro-batch while the optimizer steps only every few (the modulo "
                    f"test in the loop), and the model is data-parallel on {world.value} processes with no "
                    "`no_sync`: each micro-batch's backward all-reduces the full gradients, so all but one "
                    "all-reduce per optimizer step is wasted communication. Skip the synchronisation on the "
                    "accumulating micro-batches (`with model.no_sync():`, or `accelerator.accumulate(model)` with "
                    "`gradient_accumulation_steps` on accelerate >= 0.10)",
                    evidence=[e for e in (pctx.fact_evidence(world, f"{world.value} processes"),) if e is not None])
