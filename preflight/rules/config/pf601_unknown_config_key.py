"""PF601 unknown-config-key: a key the library does not know, with "did you mean"."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import ConfigRule, PlanContext
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.config._pf60x_support import findings


@register
class UnknownConfigKey(ConfigRule):
    code = "PF601"
    name = "unknown-config-key"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("deepspeed", "accelerate", "transformers", "lightning", "hydra")
    summary = "A config key the library does not know (usually a typo)"
    explanation = """
## What it finds

A key in a DeepSpeed config, an accelerate config file, a TrainingArguments/SFTConfig
file read by `HfArgumentParser`, or a Hydra node whose `_target_` is a Lightning
`Trainer` / `TrainingArguments` / `SFTConfig`, that the library does not define. The
message names the closest real key. The schemas are generated from the libraries
(`tools/gen_schemas.py`; see docs/validate.md for the versions).

## Why it matters

Depending on the library the job fails at start-up (accelerate's
`ClusterConfig.from_yaml_file`, `Trainer(**kwargs)`, DeepSpeed's pydantic blocks such
as `zero_optimization`: reported as errors) or, worse, the key is silently ignored
(DeepSpeed's top level, accelerate's nested blocks: reported as warnings) and the
setting you meant never takes effect.

In an `HfArgumentParser` file a key may belong to the script's own dataclasses, so
only keys close to a TrainingArguments field, and not declared by a `@dataclass` of
the script, are reported.

## How to fix it

Use the key the message suggests, or remove the key.
"""
    bad_examples = examples("preflight.rules.config._pf60x_examples", "PF601_BAD")
    good_examples = examples("preflight.rules.config._pf60x_examples", "PF601_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        return findings(type(self), pctx)
