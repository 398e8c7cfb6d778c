"""The ``FSDPStrategy`` a Lightning Fabric built in the script is given, when the job is launched
with plain ``python``/``srun``/``torchrun`` rather than ``fabric run`` (used by
:mod:`preflight.adapters.loop_shapes`).

LLM360/amber-train ``main.py`` at its pinned commit: ``fabric = L.Fabric(..., strategy=FSDPStrategy(
auto_wrap_policy=..., activation_checkpointing_policy={LlamaDecoderLayer}, cpu_offload=True,
limit_all_gathers=True))``, launched by ``srun python main.py``. Lightning Fabric's
``FSDPStrategy`` (lightning/fabric/strategies/fsdp.py): ``sharding_strategy`` defaults to
``"FULL_SHARD"``; ``cpu_offload=True`` (or ``CPUOffload(offload_params=True)``) keeps the
parameters on the CPU and runs the optimizer step there; an ``activation_checkpointing_policy``
(or the older ``activation_checkpointing``) wraps those layers in activation checkpointing.

The strategy object is the call given as ``strategy=``, or the one call bound to that name that
runs (``launchers_fabric.fabric_strategy_in_code``); facts are medium (a name bound under a guard
not decided: low).
"""

from __future__ import annotations

import ast
from typing import Any

from preflight.adapters.launchers_fabric import _strategy_candidates


def fabric_strategy_facts(adapter: Any, project: Any, plan: Any, script: Any, idx: Any, fabric: Any) -> None:
    """Sharding, CPU offload and activation checkpointing from ``Fabric(strategy=FSDPStrategy(...))``."""
    expr = fabric.kwarg("strategy")
    if expr is None:
        return
    candidates = _strategy_candidates(idx, expr)
    if len(candidates) != 1 or isinstance(candidates[0][0], ast.AST):
        return  # a constant, or an expression that is not one call (``A() if x else "ddp"``): not read here
    site, runs = candidates[0]
    if site.last != "FSDPStrategy" or not (site.qualified or "").startswith(("lightning", "pytorch_lightning")):
        return
    conf = "medium" if runs and idx.runs(fabric) else "low"

    def add(field: str, value: Any, node: Any, detail: str) -> None:
        adapter.add_checked(plan, field, value, project.source(script, node, "code", detail=detail), conf)

    kw = site.kwarg("sharding_strategy")
    if kw is None:
        add("dist.sharding", "fsdp_full", site.call,
            "FSDPStrategy(...) given to Fabric(strategy=...): sharding_strategy default FULL_SHARD")
    offload = site.kwarg("cpu_offload")
    if offload is not None:
        on = idx.resolve(offload)
        flag = on is not None and on.value is True
        if isinstance(offload, ast.Call) and (ast.unparse(offload.func)).endswith("CPUOffload"):
            arg = next((k.value for k in offload.keywords if k.arg == "offload_params"),
                       offload.args[0] if offload.args else None)
            value = idx.resolve(arg) if arg is not None else None
            flag = value is not None and value.value is True
        if flag:
            add("dist.offload_params", "cpu", offload,
                "FSDPStrategy(cpu_offload=...): parameters on the CPU, the optimizer step there too")
            add("dist.offload_optimizer", "cpu", offload,
                "FSDPStrategy(cpu_offload=...): parameters on the CPU, the optimizer step there too")
    for name in ("activation_checkpointing_policy", "activation_checkpointing"):
        given = site.kwarg(name)
        if given is not None and not (isinstance(given, ast.Constant) and given.value is None):
            add("memory.gradient_checkpointing", True, given, f"FSDPStrategy({name}=...)")
            break
