"""PF505 zero3-save-without-gather: a ZeRO-3 job that saves the model without 16-bit gathering."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._zero3_saves import (
    engine_scripts,
    function_bodies,
    guarded,
    is_file_save,
    parent_map,
    saved,
)

_SAVES = ("save_model", "save_pretrained", "save_16bit_model", "_save")
_NOT_MODEL = ("tokenizer", "processor", "config", "feature_extractor", "image_processor")
_FLAG = "stage3_gather_16bit_weights_on_model_save"


def _zero3_evidence(pctx: PlanContext, zero3: Any) -> list[Evidence]:
    """The stage-3 fact as evidence, where the plan can point at it."""
    found = pctx.fact_evidence(zero3, "ZeRO stage 3: parameters are partitioned")
    return [found] if found is not None else []


@register
class Zero3SaveWithoutGather(PlanRule):
    code = "PF505"
    name = "zero3-save-without-gather"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("deepspeed", "transformers", "accelerate")
    summary = "A ZeRO-3 job saves the model without `stage3_gather_16bit_weights_on_model_save`"
    explanation = """
## What it finds

A DeepSpeed config at ZeRO stage 3 without
`"stage3_gather_16bit_weights_on_model_save": true` (or an accelerate config
with `zero_stage: 3` and without `zero3_save_16bit_model: true`), in a job whose
script saves the model: `trainer.save_model()`, `trainer._save(output_dir,
state_dict=...)`, `model.save_pretrained(...)`, `accelerator.save_model(...)`,
`engine.save_16bit_model(...)`.

## Why it matters

Under ZeRO-3 each rank holds only a shard of every parameter. Without the
flag, the HF Trainer's `save_model` writes no usable weights (only the
DeepSpeed checkpoint shards, which need `zero_to_fp32.py` to become a model),
`save_16bit_model` saves nothing, and Accelerate's `get_state_dict` refuses.
The job trains for hours and the final model is missing, or is the
placeholder of empty partitioned tensors.

Also, whatever the flag says: `accelerator.unwrap_model(model).save_pretrained(...)`
without `state_dict=` in a ZeRO-3 job, and the unwrapped model's own `state_dict()`
written to a file (`save_file(accelerator.unwrap_model(flux).state_dict(), path)`,
`torch.save(...)`, directly or through a name bound to the unwrapped model or to its
state dict: `sd = accelerator.unwrap_model(flux).state_dict()` then `save_file(sd, path)`;
accelerate issue 3238), or bound to a name whose values are then used (`sd =
accelerator.unwrap_model(model).state_dict()` then `llm.load_weights(sd.items())`, a GRPO
loop syncing a vLLM engine): the unwrapped module holds this rank's partitions; only
`accelerator.get_state_dict(model)` gathers them.

## How to fix it

Add `"stage3_gather_16bit_weights_on_model_save": true` to
`zero_optimization` (accelerate config: `zero3_save_16bit_model: true`), or
convert the checkpoint with `zero_to_fp32.py` after training.

## When preflight stays silent

* The flag is true, or `"auto"`/unreadable; stage 0-2.
* No script of the audit saves the model (saving a tokenizer or config does not count).
* `engine.module.state_dict()` under `with deepspeed.zero.GatheredParameters(...)`, or
  in a branch whose test names the stage or ZeRO (`if zero_stage != 3:`), or in a
  function that writes no file; `engine._zero3_consolidated_16bit_state_dict()`.
* `save_pretrained(..., state_dict=...)`: the caller passes the weights (gathered
  itself, or a model DeepSpeed never partitioned: DeepSpeedExamples' zero_inference
  saves dummy weights before `deepspeed.initialize`); the flag plays no part.
* An unwrapped state dict of which only `.keys()` (the parameter names) is used.
"""
    bad_examples = examples("preflight.rules.plan._pf505_examples", "PF505_BAD")
    good_examples = examples("preflight.rules.plan._pf505_examples", "PF505_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        """Reads the plan for the config side: a ZeRO-3 stage and the save-gather flag that one
        config's adapter recorded (DeepSpeed JSON or dict, accelerate YAML)."""
        zero3 = next((f for f in pctx.plan.facts("dist.sharding") if f.value == "zero3" and f.source.kind == "config"
                      and f.adapter in ("deepspeed", "accelerate")), None)
        if zero3 is not None:
            yield from self._unwrapped_saves(pctx, zero3)
            if zero3.adapter == "deepspeed":
                yield from _partitioned_state_dicts(self, pctx, zero3)
                from preflight.rules.plan._pf505_helper_saves import helper_saves

                yield from helper_saves(self, pctx, _zero3_evidence(pctx, zero3))
        state_dict_call = self._get_state_dict_call(pctx)
        save = state_dict_call if state_dict_call is not None else self._save_call(pctx)
        if save is None:
            return
        plan = pctx.plan
        for stage in plan.facts("dist.sharding"):
            if stage.value != "zero3" or stage.source.kind != "config" \
                    or stage.adapter not in ("deepspeed", "accelerate"):
                continue
            flags = [f for f in plan.facts("dist.save_16bit_weights")
                     if f.source.path == stage.source.path and f.adapter == stage.adapter]
            if not flags or flags[0].value is not False:
                continue  # true, "auto" or unreadable
            flag = flags[0]
            name = (flag.source.key or _FLAG).rsplit(".", 1)[-1]
            yield from self._report(pctx, flag, name, save, flag.source.kind != "default",
                                    raises=state_dict_call is not None)

    @staticmethod
    def _save_call(pctx: PlanContext) -> Optional[Evidence]:
        for script in pctx.scripts:
            if pctx.index(script).imports_any("lightning", "pytorch_lightning"):
                continue
            for node in ast.walk(script.tree):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr in _SAVES):
                    continue
                receiver = ast.unparse(node.func.value).lower()
                if any(word in receiver for word in _NOT_MODEL):
                    continue
                if node.func.attr == "_save" and "trainer" not in receiver:
                    continue  # Trainer._save(output_dir, state_dict=...): only on a trainer
                if node.func.attr == "save_pretrained" and any(kw.arg == "state_dict" for kw in node.keywords):
                    continue  # the caller chose the weights (gathered, or never partitioned); PF521 judges it
                return pctx.code_evidence(script, node, f"the model is saved here (`{node.func.attr}`)")
        return None

    @staticmethod
    def _get_state_dict_call(pctx: PlanContext) -> Optional[Evidence]:
        """``accelerator.get_state_dict(model)`` (alone, or as ``save_pretrained(state_dict=...)``): under
        ZeRO-3 Accelerate gathers the 16-bit weights only when the save flag is on, and otherwise raises
        ``ValueError: Cannot get 16bit model weights because stage3_gather_16bit_weights_on_model_save in
        DeepSpeed config is False`` (accelerate issue 883). Not inside a ``try`` (a fallback) or a branch
        on the stage."""
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if "get_state_dict" not in text or "accelerat" not in text:
                continue
            parents = parent_map(script.tree)
            for node in ast.walk(script.tree):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "get_state_dict" and node.args):
                    continue
                receiver = ast.unparse(node.func.value).rsplit(".", 1)[-1].lower()
                if "accelerat" not in receiver or guarded(node, parents, script.tree) \
                        or _in_try(node, parents):
                    continue
                return pctx.code_evidence(script, node, f"`{ast.unparse(node.func)}(...)` gathers the model here")
        return None

    def _unwrapped_saves(self, pctx: PlanContext, zero3: Any) -> Iterable[Finding]:
        """``accelerator.unwrap_model(m).save_pretrained(...)`` (directly, or through a name bound to
        it) without ``state_dict=``: under ZeRO-3 the unwrapped module still holds this rank's
        partitions, whatever the save flag says (only ``get_state_dict`` gathers)."""
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if "unwrap_model" not in text or ("save_pretrained" not in text and "get_state_dict" not in text
                                              and "state_dict" not in text):
                continue
            unwrapped = {t.id for node in ast.walk(script.tree) if isinstance(node, ast.Assign)
                         and _is_unwrap(node.value) for t in node.targets if isinstance(t, ast.Name)}
            yield from self._unwrapped_state_dict_files(pctx, script, zero3)
            for node in ast.walk(script.tree):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and node.func.attr == "get_state_dict" and node.args:
                    given = node.args[0]
                    if _is_unwrap(given) or (isinstance(given, ast.Name) and given.id in unwrapped):
                        yield self._unwrapped_state_dict(pctx, script, node, given, zero3)
                    continue
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "save_pretrained"):
                    continue
                receiver = node.func.value
                if not (_is_unwrap(receiver) or (isinstance(receiver, ast.Name) and receiver.id in unwrapped)):
                    continue
                if any(kw.arg in ("state_dict", None) for kw in node.keywords):
                    continue
                message = (f"ZeRO stage 3 and `{ast.unparse(receiver)}.save_pretrained(...)` without `state_dict=`: "
                           "the unwrapped model still holds only this rank's partitions of each parameter, so the "
                           "saved weights are empty placeholders (the config's 16-bit save flag applies to "
                           "`accelerator.get_state_dict`, not to this call). Pass "
                           "`state_dict=accelerator.get_state_dict(model)`, called on every rank")
                evidence = _zero3_evidence(pctx, zero3)
                yield pctx.code_finding(self, script, node, message, evidence=evidence)

    def _unwrapped_state_dict_files(self, pctx: PlanContext, script: Any, zero3: Any) -> Iterable[Finding]:
        """``save_file(accelerator.unwrap_model(m).state_dict(), path)`` / ``torch.save(...)`` (the unwrapped
        model directly, or a name bound to it earlier in the function): under ZeRO-3 the module's own state
        dict holds this rank's empty partitions (accelerate issue 3238)."""
        parents = parent_map(script.tree)
        for fn, own in function_bodies(script.tree):
            bound: dict[str, int] = {}
            for node in own:
                if isinstance(node, ast.Assign) and _is_unwrap(node.value):
                    for t in node.targets:
                        if isinstance(t, ast.Name):
                            bound[t.id] = min(bound.get(t.id, node.lineno), node.lineno)
            for node in own:
                if not (isinstance(node, ast.Call) and is_file_save(node) and node.args):
                    continue
                given = node.args[0]
                if not (isinstance(given, ast.Call) and isinstance(given.func, ast.Attribute)
                        and given.func.attr == "state_dict" and not given.args and not given.keywords):
                    continue
                owner = given.func.value
                if not (_is_unwrap(owner) or (isinstance(owner, ast.Name) and owner.id in bound
                                              and bound[owner.id] < given.lineno)):
                    continue
                if guarded(node, parents, fn):
                    continue
                message = (f"ZeRO stage 3 and `{ast.unparse(given)}` of the unwrapped model written to a file: the "
                           "unwrapped module still holds only this rank's partitions of each parameter, so the "
                           "saved tensors are empty placeholders (accelerate issue 3238). Save "
                           "`accelerator.get_state_dict(model)` instead, called on every rank (it gathers the "
                           "weights), and write the file on the main process")
                evidence = _zero3_evidence(pctx, zero3)
                yield pctx.code_finding(self, script, given, message, evidence=evidence)
            yield from self._unwrapped_state_dict_handed_on(pctx, script, zero3, own, parents, fn)

    def _unwrapped_state_dict_handed_on(self, pctx: PlanContext, script: Any, zero3: Any, own: list[ast.AST],
                                        parents: dict[int, ast.AST], fn: ast.AST) -> Iterable[Finding]:
        """``sd = accelerator.unwrap_model(m).state_dict()`` whose values are then used (``sd.items()``,
        ``sd[k]``, ``load_weights(sd)``, ``other.load_state_dict(sd)``): the weights of this rank's
        partitions handed to another model or engine (a GRPO loop syncing vLLM, TRL issue 2633 shape).
        Only ``sd.keys()`` (names, not values) is harmless."""
        for node in own:
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
                continue
            value = node.value
            if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                    and value.func.attr == "state_dict" and not value.args and not value.keywords
                    and _is_unwrap(value.func.value)):
                continue
            name = node.targets[0].id
            uses = [n for n in own if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
                    and n.lineno > node.lineno]
            consumed = [u for u in uses if not (isinstance(parents.get(id(u)), ast.Attribute)
                                                and parents[id(u)].attr == "keys")]  # type: ignore[attr-defined]
            if not consumed or guarded(node, parents, fn):
                continue
            if any(isinstance(parents.get(id(u)), ast.Call) and is_file_save(parents[id(u)])  # type: ignore[arg-type]
                   for u in consumed):
                # ``sd = accelerator.unwrap_model(flux).state_dict()`` then ``save_file(sd, path)``
                message = (f"ZeRO stage 3 and `{name} = {ast.unparse(value)}`, written to a file below: the "
                           "unwrapped module still holds only this rank's partitions of each parameter, so the "
                           "saved tensors are empty placeholders (accelerate issue 3238). Save "
                           "`accelerator.get_state_dict(model)` instead, called on every rank (it gathers the "
                           "weights), and write the file on the main process")
                yield pctx.code_finding(self, script, value, message, evidence=_zero3_evidence(pctx, zero3))
                continue
            message = (f"ZeRO stage 3 and `{name} = {ast.unparse(value)}`, whose weights are used below: the "
                       "unwrapped module still holds only this rank's partitions of each parameter, so the tensors "
                       "handed on are empty placeholders (accelerate issue 3238), and whatever loads them (another "
                       "model, a vLLM engine) gets wrong weights. Use `accelerator.get_state_dict(model)`, called "
                       "on every rank (it gathers the weights)")
            yield pctx.code_finding(self, script, value, message, evidence=_zero3_evidence(pctx, zero3))

    def _unwrapped_state_dict(self, pctx: PlanContext, script: Any, call: ast.Call, given: ast.AST,
                              zero3: Any) -> Finding:
        """``accelerator.get_state_dict(accelerator.unwrap_model(model))``: under ZeRO-3 Accelerate
        gathers the weights through the DeepSpeed engine (``zero_gather_16bit_weights_on_model_save``,
        ``_zero3_consolidated_16bit_state_dict``), which the unwrapped module does not have (trlx PR 576)."""
        message = (f"ZeRO stage 3 and `{ast.unparse(call.func)}({ast.unparse(given)})`: `get_state_dict` gathers "
                   "the partitioned weights through the DeepSpeed engine it is given "
                   "(`_zero3_consolidated_16bit_state_dict`); the unwrapped module is no engine, so the call "
                   "fails or returns this rank's empty partitions. Pass the prepared model: "
                   "`accelerator.get_state_dict(model)` (it unwraps itself)")
        evidence = _zero3_evidence(pctx, zero3)
        return pctx.code_finding(self, script, call, message, evidence=evidence)

    def _report(self, pctx: PlanContext, flag: Any, name: str, save: Evidence,
                explicit: bool, raises: bool = False) -> Iterable[Finding]:
        said = f"`{name}` is false" if explicit else f"`{name}` is not set (default false)"
        if raises:
            message = (f"ZeRO stage 3 with {said}, and the script calls `accelerator.get_state_dict`: Accelerate "
                       "gathers the partitioned weights only when that flag is on, and otherwise raises "
                       "`ValueError: Cannot get 16bit model weights because stage3_gather_16bit_weights_on_"
                       "model_save in DeepSpeed config is False` at the save, after the whole run: no model is "
                       f"saved. Set `{name}` to true")
        else:
            message = (f"ZeRO stage 3 with {said}, and the script saves the model: each rank holds only a shard, "
                       "so the saved model has no usable weights (only DeepSpeed checkpoint shards that need "
                       f"`zero_to_fp32.py`). Set `{name}` to true")
        evidence = [e for e in (pctx.fact_evidence(flag, said), save) if e is not None]
        finding = pctx.fact_finding(self, flag, message, evidence=evidence)
        if finding is not None:
            yield finding


def _in_try(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """Inside the body of a ``try`` with a handler: the script falls back when the gather fails."""
    child, cur = node, parents.get(id(node))
    while cur is not None:
        if isinstance(cur, ast.Try) and cur.handlers and child in cur.body:
            return True
        child, cur = cur, parents.get(id(cur))
    return False


def _is_unwrap(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "unwrap_model"


def _partitioned_state_dicts(rule: PlanRule, pctx: PlanContext, zero3: Any) -> Iterable[Finding]:
    """``torch.save(engine.module.state_dict(), ...)`` and its spellings under ZeRO-3 (see the
    explanation): the module's own state dict holds this rank's empty partitions."""
    for script, engines, models in engine_scripts(pctx, "state_dict", "initialize", "save"):
        parents = parent_map(script.tree)
        for fn, own in function_bodies(script.tree):
            if not any(isinstance(n, ast.Call) and is_file_save(n) for n in own):
                continue
            for node in own:
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "state_dict" and not node.args and not node.keywords):
                    continue
                owner = ast.unparse(node.func.value)
                base = owner[:-len(".module")] if owner.endswith(".module") else owner
                given_at = models.get((id(fn), owner))
                if (id(fn), base) not in engines and (0, base) not in engines and not (given_at is not None and node.lineno > given_at):
                    continue
                if guarded(node, parents, fn) or not saved(own, node):
                    continue
                message = (f"ZeRO stage 3: `{owner}.state_dict()` returns this rank's partitions of the "
                           "parameters, empty placeholders (`tensor([])`), and this function writes it to "
                           "a file: the saved weights are empty. Gather first (`engine."
                           "_zero3_consolidated_16bit_state_dict()`, `engine.save_16bit_model(dir)` with "
                           "`stage3_gather_16bit_weights_on_model_save`, or `deepspeed.zero.GatheredParameters`"
                           " on every rank), or convert the checkpoint with `zero_to_fp32.py`")
                evidence = _zero3_evidence(pctx, zero3)
                yield pctx.code_finding(rule, script, node, message, evidence=evidence)
