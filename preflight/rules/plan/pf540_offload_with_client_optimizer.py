"""PF540 offload-with-client-optimizer: ZeRO-Offload with a client torch optimizer and no optimizer in the config."""

from __future__ import annotations

import ast
import re
from typing import Any, Iterable, Iterator

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_BUILDERS = frozenset({"get_megatron_optimizer"})  # Megatron's own (FusedAdam-based) optimizer
_OPTIMIZER = re.compile(r"(Adam|AdamW|SGD|Lamb|LAMB|Adagrad|Lion|Adafactor)$")


def _client_call(call: ast.Call) -> bool:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name in _BUILDERS or (_OPTIMIZER.search(name) is not None and not name.startswith("DeepSpeedCPU"))


def _explicit_clients(pctx: PlanContext) -> Iterator[tuple[Any, ast.Call, ast.Call]]:
    """(script, the optimizer-building call, the ``deepspeed.initialize`` call) where ``optimizer=`` names a
    variable every assignment of which (above the call) builds a client optimizer (or is such a call itself), in a script
    that mentions no DeepSpeed CPU optimizer."""
    for script in pctx.scripts:
        text = script.source.text
        if "deepspeed.initialize" not in text or "DeepSpeedCPU" in text:
            continue
        assigned: dict[str, list[ast.Assign]] = {}
        for node in ast.walk(script.tree):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    for name in (n for n in ast.walk(target) if isinstance(n, ast.Name)):
                        assigned.setdefault(name.id, []).append(node)
        for node in ast.walk(script.tree):
            if not (isinstance(node, ast.Call) and ast.unparse(node.func) == "deepspeed.initialize"):
                continue
            opt = next((k.value for k in node.keywords if k.arg == "optimizer"), None)
            if isinstance(opt, ast.Call) and _client_call(opt):
                yield script, opt, node
            elif isinstance(opt, ast.Name) and opt.id in assigned:
                values = [a.value for a in assigned[opt.id] if a.lineno < node.lineno]  # not the engine's result
                if values and all(isinstance(v, ast.Call) and _client_call(v) for v in values):
                    yield script, values[0], node  # type: ignore[misc]


@register
class OffloadWithClientOptimizer(PlanRule):
    code = "PF540"
    name = "offload-with-client-optimizer"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("deepspeed",)
    summary = "ZeRO-Offload of the optimizer with a client torch optimizer and no `optimizer` in the DeepSpeed config"
    explanation = """
## What it finds

A DeepSpeed config that offloads the optimizer (`zero_optimization.offload_optimizer.device`
`cpu` or `nvme`) and declares no `optimizer` section, in a job whose code builds
its own optimizer (`torch.optim.AdamW(...)`, a bitsandbytes optimizer) that is not
one of DeepSpeed's CPU optimizers (`DeepSpeedCPUAdam`, `DeepSpeedCPUAdagrad`,
`DeepSpeedCPULion`).

## Why it matters

`deepspeed.initialize(model=..., optimizer=<client optimizer>)` checks the
combination and refuses it at start-up: "You are using ZeRO-Offload with a client
provided optimizer (<class 'torch.optim.adamw.AdamW'>) which in most cases will yield
poor performance. Please either use deepspeed.ops.adam.DeepSpeedCPUAdam or set an
optimizer in your ds-config" (LMFlow issue 470).

## How to fix it

Build `deepspeed.ops.adam.DeepSpeedCPUAdam(model.parameters(), ...)`, or add an
`"optimizer": {"type": "AdamW", "params": {...}}` section and pass no optimizer.

## When preflight stays silent

* The DeepSpeed config has an `optimizer` section and no client optimizer reaches
  `deepspeed.initialize(optimizer=...)`, or the offload device is `none`. A client
  optimizer passed explicitly is reported whatever the config says: DeepSpeed then uses
  it, not the section (Megatron-DeepSpeed issue 298: `get_megatron_optimizer`'s
  FusedAdam passed to `deepspeed.initialize` under ZeRO-3 with CPU offload, held-out-43);
  only a variable whose every assignment builds a torch/apex optimizer (or Megatron's
  `get_megatron_optimizer`) counts, and a script mentioning `DeepSpeedCPU` is skipped.
* The code's optimizer is a DeepSpeed CPU optimizer, or the only optimizer is the
  one a Trainer builds from its arguments (transformers' integration picks it).
* The job runs through Accelerate or the HF Trainer (a TrainingArguments setting):
  `accelerator.prepare` maps a torch Adam/AdamW to `DeepSpeedCPUAdam` itself
  (`map_pytorch_optim_to_deepspeed`) when the optimizer is offloaded.
* Not read: `"zero_force_ds_cpu_optimizer": false`, which turns DeepSpeed's check off.
"""
    bad_examples = examples("preflight.rules.plan._pf540_examples", "PF540_BAD")
    good_examples = examples("preflight.rules.plan._pf540_examples", "PF540_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        found = list(self._from_plan(pctx))
        yield from found
        if found or not self._offloaded(pctx):
            return
        off = self._offloaded(pctx)[0]
        for script, built, init in _explicit_clients(pctx):
            evidence = [e for e in (pctx.fact_evidence(off, f"offload_optimizer device {off.value}"),) if e is not None]
            evidence.append(Evidence(line=init.lineno, path=script.source.display,
                                     message="the optimizer is handed to deepspeed.initialize here"))
            yield pctx.code_finding(
                self, script, built,
                f"`{ast.unparse(built.func)}(...)` builds a client optimizer that is passed to "
                f"`deepspeed.initialize(optimizer=...)`, while {off.source.path} offloads the optimizer to "
                f"{off.value}: DeepSpeed uses the client optimizer (an `optimizer` section in the config does not "
                "replace it) and refuses it at initialize (\"You are using ZeRO-Offload with a client provided "
                "optimizer ... Please either use deepspeed.ops.adam.DeepSpeedCPUAdam or set an optimizer in your "
                "ds-config\"). Pass no optimizer (let the config's section build one) or use `DeepSpeedCPUAdam`",
                evidence=evidence)

    @staticmethod
    def _offloaded(pctx: PlanContext) -> list:
        offloads = [f for f in pctx.plan.facts("dist.offload_optimizer")
                    if f.value in ("cpu", "nvme") and f.adapter == "deepspeed" and f.source.kind == "config"]
        fields = ("batch.micro", "batch.grad_accum", "precision.mode", "dist.sharding")
        if any(f.adapter == "accelerate" or (f.adapter == "transformers" and field.startswith("batch.")
                                             and f.source.kind in ("code", "config"))
               for field in fields for f in pctx.plan.facts(field)):
            return []
        return offloads

    def _from_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        """Reads the plan only: the offload device and the optimizer names the adapters recorded."""
        plan = pctx.plan
        offloads = [f for f in plan.facts("dist.offload_optimizer")
                    if f.value in ("cpu", "nvme") and f.adapter == "deepspeed" and f.source.kind == "config"]
        if not offloads:
            return
        fields = ("batch.micro", "batch.grad_accum", "precision.mode", "dist.sharding")
        if any(f.adapter == "accelerate" or (f.adapter == "transformers" and field.startswith("batch.")
                                             and f.source.kind in ("code", "config"))
               for field in fields for f in plan.facts(field)):
            return  # Accelerate (and the HF Trainer, built on it) maps a torch Adam/AdamW to DeepSpeedCPUAdam
        names = plan.facts("optimizer.name")
        if any(f.adapter == "deepspeed" and f.source.kind == "config" for f in names):
            return  # the config's optimizer section: DeepSpeed builds a compatible one
        clients = [f for f in names if f.adapter == "pytorch" and f.source.kind == "code"
                   and isinstance(f.value, str) and not f.value.startswith("DeepSpeedCPU")]
        if not clients or any(f.adapter == "pytorch" and str(f.value).startswith("DeepSpeedCPU") for f in names):
            return
        off, client = offloads[0], clients[0]
        evidence = [e for e in (pctx.fact_evidence(off, f"offload_optimizer device {off.value}, no optimizer "
                                                        "section"),) if e is not None]
        finding = pctx.fact_finding(
            self, client,
            f"`{client.value}` is a client optimizer, but {off.source.path} offloads the optimizer to "
            f"{off.value} and declares no `optimizer`: deepspeed.initialize refuses it (\"You are using "
            "ZeRO-Offload with a client provided optimizer ... Please either use "
            "deepspeed.ops.adam.DeepSpeedCPUAdam or set an optimizer in your ds-config\"). Use "
            "`DeepSpeedCPUAdam`, or an `optimizer` section in the config",
            evidence=evidence)
        if finding is not None:
            yield finding
