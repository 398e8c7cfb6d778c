"""PF193 zero3-load-after-initialize: pretrained weights loaded with a plain ``load_state_dict`` (or
``engine.load_module_state_dict``) into a model that ``deepspeed.initialize`` has already partitioned with
ZeRO-3: every parameter is a ``torch.Size([0])`` placeholder, so the load fails with a size mismatch."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples


def _is_initialize(call: ast.AST, text: str) -> bool:
    if not isinstance(call, ast.Call):
        return False
    name = ast.unparse(call.func)
    return name.endswith("deepspeed.initialize") or (
        name == "initialize" and "from deepspeed import" in text and "initialize" in text)


def _model_arg(call: ast.Call) -> Optional[str]:
    """The model handed to ``deepspeed.initialize`` (``model=`` or the second positional argument)."""
    value = next((k.value for k in call.keywords if k.arg == "model"), call.args[1] if len(call.args) > 1 else None)
    return value.id if isinstance(value, ast.Name) else None


def _gathered(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    cur = parents.get(id(node))
    while cur is not None:
        if isinstance(cur, (ast.With, ast.AsyncWith)) and any(
                "GatheredParameters" in ast.unparse(item.context_expr) for item in cur.items):
            return True
        if isinstance(cur, ast.If) and "zero" in ast.unparse(cur.test).lower():
            return True
        cur = parents.get(id(cur))
    return False


def _rebound(scope: ast.AST, name: str, start: int, end: int) -> bool:
    """``name`` is bound again between the initialize and the load (a new, unpartitioned model)."""
    for node in ast.walk(scope):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and start < node.lineno < end:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                elts = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
                if any(isinstance(e, ast.Name) and e.id == name for e in elts):
                    return True
    return False


@register
class Zero3LoadAfterInitialize(PlanRule):
    code = "PF193"
    name = "zero3-load-after-initialize"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = ("Weights loaded with a plain `load_state_dict` / `engine.load_module_state_dict` after "
               "`deepspeed.initialize` partitioned the model with ZeRO-3: its parameters are empty placeholders")
    explanation = """
## What it finds

A job whose DeepSpeed config sets ZeRO stage 3, and a script that, after
`engine, ... = deepspeed.initialize(model=model, ...)` in the same function, loads a state dict
into that model with `engine.load_module_state_dict(sd)`, `engine.module.load_state_dict(sd)`
or `model.load_state_dict(sd)`, outside `deepspeed.zero.GatheredParameters`.

## Why it matters

`deepspeed.initialize` with ZeRO-3 partitions every parameter of the model in place: each rank
keeps only its shard, and the module's `param.data` becomes an empty placeholder of shape
`torch.Size([0])`. A plain `load_state_dict` compares the checkpoint against those
placeholders and stops with "size mismatch for shared.weight: copying a param with shape
torch.Size([250112, 512]) from checkpoint, the shape in current model is torch.Size([0])"
(DeepSpeed issue 3574, an mT5 built from its config and loaded after initialize;
pytorch-lightning issue 18648 and transformers issue 14628 hit the same placeholders loading
into a model still under ZeRO-3).

## How to fix it

Load the weights before `deepspeed.initialize` (`Model.from_pretrained(...)`, or
`model.load_state_dict(torch.load(path, map_location="cpu"))` on the plain module), resume a
DeepSpeed checkpoint with `engine.load_checkpoint(dir)`, or gather the parameters for the load:
`with deepspeed.zero.GatheredParameters(list(model.parameters()), modifier_rank=0):
model.load_state_dict(sd)` (`engine.load_module_state_dict(sd, fetch_z3_params=True)` on
recent DeepSpeed).

## When preflight stays silent

* ZeRO stage 0-2 (the module keeps whole parameters), or no ZeRO-3 config preflight can read.
* The load runs before `deepspeed.initialize`, inside `GatheredParameters` (or a branch on
  ZeRO), with `fetch_z3_params=True`, or the name is bound to a new model in between.
* `engine.load_checkpoint(...)`, or a load in another function than the initialize.
"""
    bad_examples = examples("preflight.rules.plan._pf193_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf193_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        zero3 = next((f for f in pctx.plan.facts("dist.sharding") if f.value == "zero3"
                      and f.source.kind == "config" and f.adapter == "deepspeed"), None)
        if zero3 is None:
            return
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or "initialize" not in text or "load_" not in text:
                continue
            fctx = pctx.file_context(script)
            for node in ast.walk(script.tree):
                if not (isinstance(node, ast.Assign) and len(node.targets) == 1
                        and isinstance(node.targets[0], ast.Tuple) and node.targets[0].elts
                        and isinstance(node.targets[0].elts[0], ast.Name) and _is_initialize(node.value, text)):
                    continue
                assert isinstance(node.value, ast.Call)
                engine = node.targets[0].elts[0].id
                model = _model_arg(node.value)
                scope = fctx.enclosing_function(node) or script.tree
                load = self._first_load(scope, node.lineno, engine, model)
                if load is None:
                    continue
                ev = pctx.fact_evidence(zero3, "ZeRO stage 3")
                message = (f"`{ast.unparse(load.func)}(...)` loads weights into the model after "
                           f"`deepspeed.initialize` (line {node.lineno}) partitioned it with ZeRO-3: every parameter is "
                           "now an empty `torch.Size([0])` placeholder on each rank, so the load fails with \"size "
                           "mismatch ... the shape in current model is torch.Size([0])\". Load the weights before "
                           "initialize (`from_pretrained`, or `load_state_dict` on the plain module), resume with "
                           "`engine.load_checkpoint(...)`, or wrap the load in "
                           "`deepspeed.zero.GatheredParameters(list(model.parameters()), modifier_rank=0)`")
                yield pctx.code_finding(self, script, load, message, evidence=[ev] if ev is not None else [])
                break

    @staticmethod
    def _first_load(scope: ast.AST, start: int, engine: str, model: Optional[str]) -> Optional[ast.Call]:
        parents = {id(c): n for n in ast.walk(scope) for c in ast.iter_child_nodes(n)}
        loads: list[ast.Call] = []
        for node in ast.walk(scope):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and getattr(node, "lineno", 0) > start and node.args):
                continue
            owner = ast.unparse(node.func.value)
            if node.func.attr == "load_module_state_dict" and owner == engine:
                if any(k.arg == "fetch_z3_params" and not (isinstance(k.value, ast.Constant) and not k.value.value)
                       for k in node.keywords):
                    continue
                target = engine
            elif node.func.attr == "load_state_dict" and owner == f"{engine}.module":
                target = engine
            elif node.func.attr == "load_state_dict" and model is not None and owner == model:
                target = model
            else:
                continue
            if _gathered(node, parents) or _rebound(scope, target, start, node.lineno):
                continue
            loads.append(node)
        return min(loads, key=lambda n: (n.lineno, n.col_offset)) if loads else None
