"""Helpers of PF537 and PF539: a multi-process plain-DDP job, and the names ``accelerator.prepare``
returned a model under."""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.analysis.context import FileContext
from preflight.rules._pf4_support import accelerator_names, is_accelerator_receiver, target_text

Scope = Optional[ast.AST]

# accelerate plugins under which `prepare` does not wrap the model in DDP
NOT_DDP = ("DeepSpeedPlugin", "FullyShardedDataParallelPlugin", "MegatronLMPlugin")


def ddp_world(plan: Any) -> Any:
    """The plan's ``dist.world_size`` fact when it runs several processes and shards nothing (DDP
    or no sharding stated), else None."""
    world = plan.resolve("dist.world_size")
    if world is None or not isinstance(world.value, int) or world.value <= 1:
        return None
    sharding = plan.resolve("dist.sharding")
    return world if sharding is None or sharding.value in ("ddp", "none") else None


def names_another_wrapper(text: str) -> bool:
    """The script builds an accelerate plugin that replaces DDP (DeepSpeed, FSDP, Megatron-LM)."""
    return any(p in text for p in NOT_DDP)


def prepared(ctx: FileContext) -> list[tuple[str, ast.Assign, Scope]]:
    """``model, opt = accelerator.prepare(model, opt)``: (name, binding, function) for every target whose
    argument at the same position has the same name (the model, the optimizer, ...)."""
    accels = accelerator_names(ctx)
    out = []
    for node in ctx.nodes(ast.Assign):
        value = node.value
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                and value.func.attr == "prepare" and is_accelerator_receiver(value.func.value, accels)):
            continue
        if len(node.targets) != 1:
            continue
        target = node.targets[0]
        elts = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
        if len(elts) != len(value.args):
            continue
        for tgt, arg in zip(elts, value.args):
            text = target_text(tgt)
            if text is not None and text == target_text(arg):
                out.append((text, node, ctx.enclosing_function(node)))
    return out


def frozen_or_eval_mode(ctx: FileContext, name: str, binding: ast.Assign) -> bool:
    """``prepare(..., evaluation_mode=True)``, or ``name.requires_grad_(False)`` in the file: accelerate
    wraps a model in DDP only when it is not in evaluation mode and has a parameter that requires grad."""
    value = binding.value
    if isinstance(value, ast.Call) and any(kw.arg == "evaluation_mode" for kw in value.keywords):
        return True
    return any(isinstance(c.func, ast.Attribute) and c.func.attr == "requires_grad_"
               and target_text(c.func.value) == name and c.args
               and isinstance(c.args[0], ast.Constant) and c.args[0].value is False
               for c in ctx.nodes(ast.Call))


def rebound(ctx: FileContext, name: str, scope: Scope, after: int, before: int) -> bool:
    return any(ctx.enclosing_function(n) is scope and after < n.lineno < before
               and any(target_text(x) == name for t in n.targets for x in ast.walk(t))
               for n in ctx.nodes(ast.Assign))
