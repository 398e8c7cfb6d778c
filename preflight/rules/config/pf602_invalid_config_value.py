"""PF602 invalid-config-value: a config value of the wrong type or not an allowed value."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import ConfigRule, PlanContext
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.config._pf60x_support import findings


@register
class InvalidConfigValue(ConfigRule):
    code = "PF602"
    name = "invalid-config-value"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("deepspeed", "accelerate", "transformers", "lightning", "hydra")
    summary = "A config value of the wrong type, or not one of the values the library accepts"
    explanation = """
## What it finds

A value in a DeepSpeed config, an accelerate config file, a TrainingArguments/SFTConfig
file or a Hydra node targeting a Lightning `Trainer` / `TrainingArguments` whose type
or value the library rejects: `"zero_optimization": {"stage": 4}`, `optim:
adamw_torh` (with the closest allowed value), `precision: 15`, a string where a number
is expected. Types and allowed values come from the libraries' own dataclasses,
signatures and pydantic models (`tools/gen_schemas.py`).

`"auto"` in a DeepSpeed config is accepted (the HF Trainer or Accelerate fills it in),
Hydra interpolations (`${...}`) and `???` are not checked, and a string that DeepSpeed's
pydantic models convert (`"true"`, `"4"`) is only a note.

## Why it matters

The job fails when the library reads the config (often after the model has been
loaded), or the value is used as the wrong type later in training.

## How to fix it

Use a value of the type and range the message gives.
"""
    bad_examples = examples("preflight.rules.config._pf60x_examples", "PF602_BAD")
    good_examples = examples("preflight.rules.config._pf60x_examples", "PF602_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        return findings(type(self), pctx)
