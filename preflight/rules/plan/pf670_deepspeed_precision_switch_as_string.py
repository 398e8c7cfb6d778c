"""PF670 deepspeed-precision-switch-as-string: ``"fp16"``/``"bf16"`` ``"enabled"`` written as the JSON string
``"true"``/``"false"`` in a DeepSpeed config that the HF Trainer (or an old DeepSpeed) reads."""

from __future__ import annotations

from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._deepspeed_runs import runs_config, uses_hf_trainer

_SECTIONS = ("fp16", "bf16", "bfloat16")
_PYDANTIC_PRECISION = (0, 17, 1)  # DeepSpeedFP16Config/DeepSpeedBF16Config (pydantic bool) from this release


def _string_switch(block: dict[str, Any], section: str) -> Optional[str]:
    node = block.get(section)
    if not isinstance(node, dict):
        return None
    value = node.get("enabled")
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value
    return None


@register
class DeepSpeedPrecisionSwitchAsString(PlanRule):
    code = "PF670"
    name = "deepspeed-precision-switch-as-string"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("deepspeed", "transformers")
    summary = ("A DeepSpeed config's `fp16`/`bf16` `\"enabled\"` written as the string \"true\"/\"false\": the HF "
               "Trainer reports a mismatch with its boolean flags, and DeepSpeed before 0.17.1 reads \"false\" as on")
    explanation = """
## What it finds

A DeepSpeed config whose `"fp16": {"enabled": ...}` or `"bf16": {"enabled": ...}` is the JSON
*string* `"true"` or `"false"` (quoted), where

* the job is trained by the HF `Trainer` (or a TRL trainer) with this config, or
* the value is `"false"` and the project pins a DeepSpeed release below 0.17.1.

## Why it matters

* The HF Trainer's DeepSpeed integration (`HfTrainerDeepSpeedConfig.trainer_config_process` in
  transformers `integrations/deepspeed.py`) calls `fill_match("bf16.enabled", args.bf16 or
  args.bf16_full_eval)` and `fill_match("fp16.enabled", ...)`; `fill_match` only replaces `"auto"`
  and otherwise records a mismatch when `ds_val != hf_val`. The string `"true"` is never equal to
  the boolean `True`, so `trainer_config_finalize` stops the job with "Please correct the following
  DeepSpeed config values that mismatch TrainingArguments values: - ds bf16.enabled=true vs hf
  bf16|bf16_full_eval=True" (LlamaFactory issue 3493).
* DeepSpeed itself read these switches with `get_scalar_param` (`param_dict.get(...)`, the raw JSON
  value) up to 0.17.0 (`deepspeed/runtime/config.py` `get_fp16_enabled`/`get_bfloat16_enabled`): the
  non-empty string `"false"` is truthy, so the precision it names is switched *on* (with the other
  one on too: "bfloat16 and fp16 modes cannot be simultaneously enabled"). From 0.17.1 the switches
  are pydantic `bool` fields (`deepspeed/runtime/precision_config.py`) that convert the strings.

## How to fix it

Write the JSON booleans `true`/`false` without quotes, or `"auto"` under the HF Trainer or Accelerate.

## When preflight stays silent

* The value is a boolean, `"auto"`, or absent.
* No HF Trainer runs the config and DeepSpeed is not pinned, is pinned at 0.17.1 or later, or
  the string is `"true"` (which old releases also read as on).
* The job has several DeepSpeed configs and the Trainer's script or launch line does not name this one.
* Accelerate's own DeepSpeed plugin (without the HF Trainer) only fills `"auto"` there and does not compare.
"""
    bad_examples = examples("preflight.rules.plan._pf670_examples", "PF670_BAD")
    good_examples = examples("preflight.rules.plan._pf670_examples", "PF670_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        configs = pctx.deepspeed_configs()
        found = [(cfg, block, prefix, section, value) for cfg, block, prefix in configs for section in _SECTIONS
                 if (value := _string_switch(block, section)) is not None]
        if not found:
            return
        trainer = uses_hf_trainer(pctx)
        only = len(configs) == 1
        for cfg, _block, prefix, section, value in found:
            if trainer is not None and (only or runs_config(pctx, trainer[0], cfg)):
                script, call = trainer
                yield pctx.config_finding(
                    self, cfg, (*prefix, section, "enabled"),
                    f"`{section}.enabled` is the JSON string {value!r}, not a boolean: the HF Trainer's DeepSpeed "
                    "integration only fills \"auto\" and compares any other value with its own boolean "
                    f"`{'fp16' if section == 'fp16' else 'bf16'}` flag, and a string never equals it, so the job stops "
                    f"at start-up with \"DeepSpeed config values that mismatch TrainingArguments values: - ds "
                    f"{section}.enabled={value} vs hf ...\". Write {value.lower()} without quotes (or \"auto\")",
                    evidence=[pctx.code_evidence(script, call, "the HF Trainer runs the job with this config")])
                continue
            if value.strip().lower() != "false":
                continue
            version = pctx.version("deepspeed")
            if version is None or version.how != "pinned" or version.at_least(*_PYDANTIC_PRECISION):
                continue
            yield pctx.config_finding(
                self, cfg, (*prefix, section, "enabled"),
                f"`{section}.enabled` is the JSON string {value!r}: {version.describe()} reads it as the raw value "
                f"(`get_scalar_param`), and the non-empty string is truthy, so {section} is switched ON. Write false "
                "without quotes")
