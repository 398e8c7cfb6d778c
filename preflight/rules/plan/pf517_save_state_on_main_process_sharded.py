"""PF517 save-state-on-main-process-sharded: ``accelerator.save_state`` on the main process under DeepSpeed/FSDP."""

from __future__ import annotations

import ast
import re
from typing import Any, Iterable

from preflight.analysis.syntax import own_nodes
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf414_support import last_name
from preflight.rules._pf427_support import parent_walker, rank_zero_guard
from preflight.rules.base import examples

_SHARDED = {"zero1": "DeepSpeed ZeRO-1", "zero2": "DeepSpeed ZeRO-2", "zero3": "DeepSpeed ZeRO-3",
            "fsdp_full": "FSDP", "fsdp_hybrid": "FSDP", "fsdp_grad_op": "FSDP"}
_SAVES = ("save_state", "get_state_dict")


@register
class SaveStateOnMainProcessSharded(PlanRule):
    code = "PF517"
    name = "save-state-on-main-process-sharded"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("accelerate", "deepspeed")
    summary = "`accelerator.save_state` runs on the main process only in a DeepSpeed or FSDP job"
    explanation = """
## What it finds

`accelerator.save_state(...)` (or `accelerator.get_state_dict(...)`) inside
`if accelerator.is_main_process:` (or another rank-0 test), in a job the plan
shows runs under DeepSpeed or FSDP: `accelerate launch --use_deepspeed/--use_fsdp`,
an accelerate config with `distributed_type: DEEPSPEED`/`FSDP`, or a DeepSpeed
config with a ZeRO stage.

## Why it matters

Under DeepSpeed `save_state` calls the engine's `save_checkpoint`, which every
rank must enter (each writes its ZeRO shard, then they synchronise); under FSDP it
gathers the sharded state dict from all ranks. Called on the main process alone,
the main process waits for ranks that never arrive and the job hangs at the first
checkpoint (diffusers issue 2606, accelerate issue 1171, DeepSpeed issue 2993; several diffusers scripts save when
`accelerator.is_main_process or accelerator.distributed_type == DistributedType.DEEPSPEED`).
Under plain DDP the same code works, which is why it survives until the job is
moved to DeepSpeed.

Also, under DeepSpeed ZeRO-3, `model.save_pretrained(...)` (without `state_dict=`) of
the model given to `deepspeed.initialize` (or of `engine.module`) inside a rank-0 test:
the parameters are partitioned, so rank 0 alone either writes its empty partitions or,
where the save gathers them (a PEFT prompt-learning model runs its prompt encoder to
save; transformers PR 29980), waits for the other ranks and the job hangs.

## How to fix it

Call `accelerator.save_state(path)` on every process; Accelerate writes the
shared files from the main process itself.

## When preflight stays silent

* No DeepSpeed/FSDP sharding in the plan (plain DDP, one process); for
  `save_pretrained`, a ZeRO stage below 3 (whole parameters on every rank).
* `save_pretrained(..., state_dict=...)`: the caller gathered the weights.
* The guard also lets DeepSpeed ranks through (`is_main_process or
  distributed_type == DistributedType.DEEPSPEED`), or both branches save.
"""
    bad_examples = examples("preflight.rules.plan._pf517_examples", "PF517_BAD")
    good_examples = examples("preflight.rules.plan._pf517_examples", "PF517_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        sharded = [f for f in pctx.plan.facts("dist.sharding") if f.value in _SHARDED]
        if not sharded:
            return
        fact = sharded[0]
        what = _SHARDED[fact.value]
        if any(f.value == "zero3" and f.adapter == "deepspeed" for f in sharded):
            zero3 = next(f for f in sharded if f.value == "zero3" and f.adapter == "deepspeed")
            yield from _rank_zero_pretrained_saves(self, pctx, zero3)
        for script in pctx.scripts:
            if not any(isinstance(n, ast.Attribute) and n.attr in _SAVES for n in ast.walk(script.tree)):
                continue
            ancestors = parent_walker(script.tree)
            for node in ast.walk(script.tree):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr in _SAVES and "accelerator" in last_name(node.func.value).lower()):
                    continue
                guard = rank_zero_guard(ancestors, node)
                if guard is None:
                    continue
                evidence = [pctx.code_evidence(script, guard, "only the main process runs this", same_file=True)]
                said = pctx.fact_evidence(fact, f"{what} ({fact.source.detail or fact.value})")
                if said is not None:
                    evidence.append(said)
                yield pctx.code_finding(
                    self, script, node,
                    f"`{ast.unparse(node.func)}(...)` runs on the main process only, but this job trains under "
                    f"{what}: the save is a collective there (every rank writes its shard or sends its part of the "
                    "state), so the main process waits for ranks that never call it and the job hangs at the first "
                    "checkpoint. Call it on every process", evidence=evidence)


_DS_WORDS = re.compile(r"deepspeed|zero|\bds_|_ds\b")


def _engine_models(tree: ast.AST) -> set[tuple[int, str]]:
    """(scope, spelling) of ``engine.module`` for the engines ``deepspeed.initialize`` returned and of the
    models given to it; scope is the defining function, or 0 for ``self.`` attributes (every method)."""
    out: set[tuple[int, str]] = set()
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
            continue
        for node in own_nodes(fn):
            if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                    and last_name(node.value.func) == "initialize" and "deepspeed" in ast.unparse(node.value.func)):
                continue
            spelled = []
            for tgt in node.targets:
                first = tgt.elts[0] if isinstance(tgt, (ast.Tuple, ast.List)) and tgt.elts else tgt
                if isinstance(first, (ast.Name, ast.Attribute)):
                    spelled.append(ast.unparse(first) + ".module")
            given = next((kw.value for kw in node.value.keywords if kw.arg == "model"), None)
            if isinstance(given, (ast.Name, ast.Attribute)):
                spelled.append(ast.unparse(given))
            out |= {(0 if text.startswith("self.") else id(fn), text) for text in spelled}
    return out


def _rank_zero_pretrained_saves(rule: PlanRule, pctx: PlanContext, zero3: Any) -> Iterable[Finding]:
    """``if rank == 0: model.save_pretrained(dir)`` of a ZeRO-3 engine's model (see the explanation)."""
    for script in pctx.scripts:
        text = script.text if script.text is not None else script.source.text
        if "save_pretrained" not in text or "initialize" not in text:
            continue
        models = _engine_models(script.tree)
        if not models:
            continue
        ancestors = parent_walker(script.tree)
        for fn in ast.walk(script.tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
                continue
            for node in own_nodes(fn):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "save_pretrained"):
                    continue
                owner = ast.unparse(node.func.value)
                if (id(fn), owner) not in models and (0, owner) not in models:
                    continue
                if any(kw.arg in ("state_dict", None) for kw in node.keywords) or _deepspeed_branch(ancestors, node):
                    continue
                guard = rank_zero_guard(ancestors, node)
                if guard is None:
                    continue
                yield _pretrained_finding(rule, pctx, script, node, guard, zero3)


def _deepspeed_branch(ancestors: Any, node: ast.AST) -> bool:
    """Inside either branch of an ``if`` that names DeepSpeed or ZeRO (code written for it)."""
    return any(isinstance(a, ast.If) and _DS_WORDS.search(ast.unparse(a.test).lower()) is not None
               for a in ancestors(node))


def _pretrained_finding(rule: PlanRule, pctx: PlanContext, script: Any, node: ast.Call, guard: ast.AST,
                        zero3: Any) -> Finding:
    evidence = [pctx.code_evidence(script, guard, "only rank 0 runs this", same_file=True)]
    said = pctx.fact_evidence(zero3, "DeepSpeed ZeRO-3: every parameter is partitioned across the ranks")
    if said is not None:
        evidence.append(said)
    return pctx.code_finding(
        rule, script, node,
        f"`{ast.unparse(node.func)}(...)` runs on rank 0 only, but the model is partitioned by ZeRO-3: "
        "rank 0 holds empty placeholders of the parameters, so the save either writes no weights or, "
        "where it gathers them (a PEFT prompt-learning model runs its prompt encoder to save), waits for "
        "ranks that never join and the job hangs. Call it on every rank (`is_main_process=rank == 0`), "
        "with `state_dict=` gathered under ZeRO-3", evidence=evidence)
