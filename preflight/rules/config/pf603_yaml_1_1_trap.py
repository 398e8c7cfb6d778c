"""PF603 yaml-1-1-trap: a YAML value read as something other than it looks (YAML 1.1)."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import ConfigRule, PlanContext
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.config._pf60x_support import findings


@register
class Yaml11Trap(ConfigRule):
    code = "PF603"
    name = "yaml-1-1-trap"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("accelerate", "transformers", "hydra")
    summary = "A YAML value that the config's reader (PyYAML, OmegaConf) reads as a different type"
    explanation = """
## What it finds

Plain YAML scalars that YAML 1.1 readers turn into something else, in config files
preflight validates, judged by the reader that really loads the file:

- `1e-4`, `5e8`: PyYAML (used by `HfArgumentParser.parse_yaml_file`, accelerate's
  config loader, confuse's `Configuration`: confuse issue 91, unless a script reads the value typed
  with `.as_number()` / `.get(float)` / `confuse.Number()`, and yacs `CfgNode.load_cfg`: yacs issue 46; yacs's `merge_from_file`
  turns the strings back into numbers with `literal_eval`) reads them as **strings** (YAML 1.1 floats need a dot); OmegaConf
  (Hydra) reads them as floats, so Hydra configs (and files the audited scripts load
  with `OmegaConf.load` instead of `HfArgumentParser`) are not flagged for this; when no
  audited script says (`check DIR`, `validate FILE`), the Python files of the config's
  project (its folder when it has no `pyproject.toml`/`setup.py`/`.git`) decide: OmegaConf
  loads and no PyYAML read (`yaml.safe_load`, `parse_yaml_file`, `TrlParser`) mean OmegaConf;
- `yes`, `no`, `on`, `off`: booleans in YAML 1.1 (PyYAML and OmegaConf), flagged where
  the key expects a string (`mixed_precision: no` in an accelerate config);
- `010`: the octal number 8; `1:30`: the base-60 number 90;
- a bare `ON:`, `OFF:`, `YES:` or `NO:` used as a mapping **key** in any YAML config of the
  job: both readers make it the boolean key `True`/`False` (yacs issue 48: `DCN: {ON: True}`
  loads as `{True: True}`, which `merge_from_file` cannot match to the `MODEL.DCN.ON`
  default), reported as a warning;
- a plain value written as a Python tuple of numbers (`pix_dim: (0.5, 0.5, 0.781)`): YAML
  has no tuple syntax, so it is the string `"(0.5, 0.5, 0.781)"` (hydra issue 1135), a
  warning unless a script of the job parses strings as Python (`ast.literal_eval`, `eval`).

An error when the value then has the wrong type for its key, a warning otherwise.

## Why it matters

`learning_rate: 1e-4` reaches TrainingArguments as the string `"1e-4"` and fails or
misbehaves in the optimizer; `mixed_precision: no` becomes `False`.

## How to fix it

Write `1.0e-4` (or `0.0001`), quote strings (`'no'`) and keys (`"ON":`), drop leading zeros, write tuples as lists (`[0.5, 0.5]`).
"""
    bad_examples = examples("preflight.rules.config._pf60x_examples", "PF603_BAD")
    good_examples = examples("preflight.rules.config._pf60x_examples", "PF603_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        return findings(type(self), pctx)
