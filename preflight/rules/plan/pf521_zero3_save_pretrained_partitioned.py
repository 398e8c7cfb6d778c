"""PF521 zero3-save-pretrained-partitioned: ``model.save_pretrained(dir)`` of the model a ZeRO-3
Trainer trained, without a gathered ``state_dict``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_TRAINERS = ("Trainer",)  # Trainer, Seq2SeqTrainer, SFTTrainer, a project's own MyDPOTrainer
_GUARD_WORDS = ("zero", "deepspeed", "ds_", "is_deepspeed")


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _trainers(fn: ast.AST) -> dict[str, str]:
    """Trainer variables of a function body -> the name of the model passed to them (or "")."""
    out: dict[str, str] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and _name(node.value.func).endswith(_TRAINERS) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            model = next((kw.value for kw in node.value.keywords if kw.arg == "model"), None)
            out[node.targets[0].id] = model.id if isinstance(model, ast.Name) else ""
    return out


def _guarded(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """Inside an ``if``/``with`` that names ZeRO or DeepSpeed (a branch the author wrote for it)."""
    cur = parents.get(id(node))
    while cur is not None:
        if isinstance(cur, ast.If) and any(w in ast.unparse(cur.test).lower() for w in _GUARD_WORDS):
            return True
        if isinstance(cur, ast.With) and any(w in ast.unparse(item.context_expr).lower()
                                             for item in cur.items for w in ("gatheredparameters", "zero")):
            return True
        cur = parents.get(id(cur))
    return False


@register
class Zero3SavePretrainedPartitioned(PlanRule):
    code = "PF521"
    name = "zero3-save-pretrained-partitioned"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("deepspeed", "transformers")
    summary = "`model.save_pretrained(dir)` after ZeRO-3 training saves the partitioned placeholders"
    explanation = """
## What it finds

In a job whose DeepSpeed config is at ZeRO stage 3, a `model.save_pretrained(dir)`
(or `trainer.model.save_pretrained(dir)`) without a `state_dict=` argument, after
`trainer.train()` in the same function, where `model` is the model given to that
Trainer.

## Why it matters

Under ZeRO-3 every parameter is partitioned across the ranks; outside DeepSpeed's
gathering, each rank's `parameters()` are empty placeholders. `save_pretrained`
reads the module's own `state_dict()` and never gathers: the LoRA adapter
written after a ZeRO-3 run is a few MB of empty tensors that cannot be loaded
(PEFT issue 453: 3.6 MB instead of 16 MB). `stage3_gather_16bit_weights_on_model_save`
does not help here: only `trainer.save_model()` uses it.

## How to fix it

Save through the Trainer (`trainer.save_model(dir)`, with
`stage3_gather_16bit_weights_on_model_save: true`), or gather first and pass the
result: `model.save_pretrained(dir, state_dict=state_dict)` with the state dict
collected under `deepspeed.zero.GatheredParameters(...)`.

## When preflight stays silent

The Accelerate shape is checked too: `accelerator.unwrap_model(model).save_pretrained(dir)`
without `state_dict=accelerator.get_state_dict(model)` under a ZeRO-3 config (trlx PR 429;
`zero3_save_16bit_model` gathers only for `get_state_dict`/`save_model`); there only an
explicit `state_dict=` excuses the call (trlx passes `**kwargs` that hold none).

* `state_dict=` is passed (the caller gathered it), or the call sits under an `if`
  or `with` that names ZeRO/DeepSpeed (`if trainer.is_deepspeed_enabled:`,
  `with deepspeed.zero.GatheredParameters(...)`).
* ZeRO stage 0-2 (every rank holds whole parameters), or no DeepSpeed config.
* The saved object is not the model the Trainer trained (a tokenizer, a config),
  or the save does not follow `trainer.train()` in the same function.
"""
    bad_examples = examples("preflight.rules.plan._pf521_examples", "PF521_BAD")
    good_examples = examples("preflight.rules.plan._pf521_examples", "PF521_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        stage = next((f for f in pctx.plan.facts("dist.sharding") if f.value == "zero3"
                      and f.source.kind == "config" and f.adapter in ("deepspeed", "accelerate")), None)
        if stage is None:
            return
        seen: set[int] = set()
        for script in pctx.scripts:
            parents = {id(child): node for node in ast.walk(script.tree) for child in ast.iter_child_nodes(node)}
            for node in ast.walk(script.tree):
                # Accelerate: accelerator.unwrap_model(model).save_pretrained(dir) without state_dict=
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "save_pretrained" and isinstance(node.func.value, ast.Call)
                        and isinstance(node.func.value.func, ast.Attribute)
                        and node.func.value.func.attr == "unwrap_model"):
                    continue
                if any(kw.arg == "state_dict" for kw in node.keywords) \
                        or _guarded(node, parents) or id(node) in seen:
                    continue
                seen.add(id(node))
                receiver = ast.unparse(node.func.value)
                owner = ast.unparse(node.func.value.func.value)
                message = (f"`{receiver}.save_pretrained(...)` under ZeRO-3 (stage 3 in {stage.source.path}): the "
                           "unwrapped module's parameters are partitioned placeholders on every rank and "
                           "save_pretrained does not gather them, so the saved weights are empty "
                           "(zero3_save_16bit_model gathers only for `get_state_dict`/`save_model`). Pass "
                           f"`state_dict={owner}.get_state_dict(model)`")
                evidence = [e for e in (pctx.fact_evidence(stage, "ZeRO stage 3"),) if e is not None]
                yield pctx.code_finding(self, script, node, message, evidence=evidence)
            for fn in ast.walk(script.tree):
                if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
                    continue
                trainers = _trainers(fn)
                if not trainers:
                    continue
                trained = self._first_train(fn, trainers)
                if trained is None:
                    continue
                trainer_name, train_line = trained
                model_name = trainers[trainer_name]
                for node in ast.walk(fn):
                    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                            and node.func.attr == "save_pretrained" and node.lineno > train_line):
                        continue
                    if any(kw.arg == "state_dict" or kw.arg is None for kw in node.keywords):
                        continue
                    receiver = ast.unparse(node.func.value)
                    if receiver not in (f"{trainer_name}.model", model_name) or not receiver:
                        continue
                    if _guarded(node, parents) or id(node) in seen:
                        continue
                    seen.add(id(node))
                    message = (f"`{receiver}.save_pretrained(...)` after ZeRO-3 training (stage 3 in "
                               f"{stage.source.path}): each rank's parameters are partitioned placeholders and "
                               "save_pretrained does not gather them, so the saved weights are empty. Use "
                               f"`{trainer_name}.save_model(...)` (with stage3_gather_16bit_weights_on_model_save) "
                               "or pass a `state_dict=` gathered under `deepspeed.zero.GatheredParameters`")
                    evidence = [e for e in (pctx.fact_evidence(stage, "ZeRO stage 3"),) if e is not None]
                    yield pctx.code_finding(self, script, node, message, evidence=evidence)

    @staticmethod
    def _first_train(fn: ast.AST, trainers: dict[str, str]) -> Optional[tuple[str, int]]:
        best: Optional[tuple[str, int]] = None
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "train" \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id in trainers \
                    and (best is None or node.lineno < best[1]):
                best = (node.func.value.id, node.lineno)
        return best
