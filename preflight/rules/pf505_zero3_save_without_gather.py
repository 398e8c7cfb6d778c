"""PF505 zero3-save-without-gather: a ZeRO-3 job that saves the model without 16-bit gathering."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_SAVES = ("save_model", "save_pretrained", "save_16bit_model")
_NOT_MODEL = ("tokenizer", "processor", "config", "feature_extractor", "image_processor")
_FLAG = "stage3_gather_16bit_weights_on_model_save"


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
script saves the model: `trainer.save_model()`, `model.save_pretrained(...)`,
`accelerator.save_model(...)`, `engine.save_16bit_model(...)`.

## Why it matters

Under ZeRO-3 each rank holds only a shard of every parameter. Without the
flag, the HF Trainer's `save_model` writes no usable weights (only the
DeepSpeed checkpoint shards, which need `zero_to_fp32.py` to become a model),
`save_16bit_model` saves nothing, and Accelerate's `get_state_dict` refuses.
The job trains for hours and the final model is missing, or is the
placeholder of empty partitioned tensors.

## How to fix it

Add `"stage3_gather_16bit_weights_on_model_save": true` to
`zero_optimization` (accelerate config: `zero3_save_16bit_model: true`), or
convert the checkpoint with `zero_to_fp32.py` after training.

## When preflight stays silent

* The flag is true, or `"auto"`/unreadable; stage 0-2.
* No script of the audit saves the model (saving a tokenizer or config does not count).
"""
    bad_examples = examples("preflight.rules._pf50x_examples", "PF505_BAD")
    good_examples = examples("preflight.rules._pf50x_examples", "PF505_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        from preflight.adapters.accelerate import is_accelerate_config  # off the check path

        save = self._save_call(pctx)
        if save is None:
            return
        for config, block, prefix in pctx.deepspeed_configs():
            zo = block.get("zero_optimization")
            if not isinstance(zo, dict) or zo.get("stage") != 3:
                continue
            flag = zo.get(_FLAG, False)
            if flag is False:
                key = (*prefix, "zero_optimization", _FLAG) if _FLAG in zo else (*prefix, "zero_optimization",
                                                                                   "stage")
                yield self._report(pctx, config, key, _FLAG, save, _FLAG in zo)
        for config in pctx.configs:
            if not is_accelerate_config(config.data):
                continue
            ds = config.data.get("deepspeed_config")
            if not isinstance(ds, dict) or ds.get("zero_stage") != 3 or "deepspeed_config_file" in ds:
                continue
            flag = ds.get("zero3_save_16bit_model", False)
            if flag is False:
                key = ("deepspeed_config", "zero3_save_16bit_model") if "zero3_save_16bit_model" in ds else (
                    "deepspeed_config", "zero_stage")
                yield self._report(pctx, config, key, "zero3_save_16bit_model", save,
                                   "zero3_save_16bit_model" in ds)

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
                return pctx.code_evidence(script, node, f"the model is saved here (`{node.func.attr}`)")
        return None

    def _report(self, pctx: PlanContext, config: Any, key: tuple, flag: str, save: Evidence,
                explicit: bool) -> Finding:
        said = f"`{flag}` is false" if explicit else f"`{flag}` is not set (default false)"
        message = (f"ZeRO stage 3 with {said}, and the script saves the model: each rank holds only a shard, so "
                   "the saved model has no usable weights (only DeepSpeed checkpoint shards that need "
                   f"`zero_to_fp32.py`). Set `{flag}` to true")
        return pctx.config_finding(self, config, key, message,
                                   evidence=[pctx.config_evidence(config, key, said), save])
