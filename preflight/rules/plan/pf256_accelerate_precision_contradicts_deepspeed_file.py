"""PF256 accelerate-precision-contradicts-deepspeed-file: an accelerate config (or ``accelerate launch
--mixed_precision``) asks for fp16 while the DeepSpeed JSON it names enables bf16, or the reverse."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_OTHER = {"fp16": "bf16", "bf16": "fp16"}


def _argv_precision(argv: list[str]) -> Optional[str]:
    """``--mixed_precision X`` / ``--mixed_precision=X`` on an ``accelerate launch`` line."""
    if "accelerate" not in " ".join(argv[:2]):
        return None
    for i, tok in enumerate(argv):
        if tok == "--mixed_precision" and i + 1 < len(argv):
            return argv[i + 1]
        if tok.startswith("--mixed_precision="):
            return tok.split("=", 1)[1]
        if tok.endswith(".py"):
            break  # the script's own arguments follow
    return None


def _enabled(section: object) -> bool:
    return isinstance(section, dict) and str(section.get("enabled", "false")).lower() == "true"


@register
class AcceleratePrecisionContradictsDeepspeedFile(PlanRule):
    code = "PF256"
    name = "accelerate-precision-contradicts-deepspeed-file"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("accelerate", "deepspeed")
    summary = ("The accelerate config's `mixed_precision` (fp16/bf16) contradicts the DeepSpeed JSON it names "
               "(bf16/fp16 enabled)")
    explanation = """
## What it finds

An accelerate config that runs DeepSpeed (`distributed_type: DEEPSPEED`) with a
`deepspeed_config.deepspeed_config_file`, and asks for `mixed_precision: fp16` while that
JSON has `"bf16": {"enabled": true}`, or for `bf16` while it has `"fp16": {"enabled":
true}`. An `accelerate launch --mixed_precision ...` argument counts instead of the
config's value (the launcher's arguments win over the file).

## Why it matters

Accelerate checks the pair when it builds the DeepSpeed plugin:
`DeepSpeedPlugin.set_mixed_precision` raises "`--mixed_precision` arg cannot be set to
`fp16` when `bf16` is set in the DeepSpeed config file" (accelerate
utils/dataclasses.py). Releases before that check start the run with both: the engine
casts the weights to the JSON's bf16 while Accelerate's autocast produces fp16
activations, and the first matmul fails with "expected mat1 and mat2 to have the same
dtype, but got: c10::BFloat16 != c10::Half" (accelerate issue 3197).

## How to fix it

Make the two say the same format (`mixed_precision: bf16` for a bf16 JSON), or write
`"enabled": "auto"` in the JSON so that Accelerate fills it.

## When preflight stays silent

* The JSON's block says `"auto"` or is absent, or the two agree; `mixed_precision` is
  `no` (the JSON decides alone).
* The accelerate config does not run DeepSpeed or names no JSON preflight was given or
  could read.
"""
    bad_examples = examples("preflight.rules.plan._pf256_examples", "PF256_BAD")
    good_examples = examples("preflight.rules.plan._pf256_examples", "PF256_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        files = pctx.deepspeed_configs()
        if not files:
            return
        flag = _argv_precision(list(pctx.project.argv)) if pctx.project is not None else None
        for cfg in pctx.configs:
            data = cfg.data if isinstance(cfg.data, dict) else {}
            block = data.get("deepspeed_config")
            if str(data.get("distributed_type", "")).upper() != "DEEPSPEED" or not isinstance(block, dict):
                continue
            name = block.get("deepspeed_config_file")
            if not isinstance(name, str):
                continue
            asked = flag if flag is not None else data.get("mixed_precision")
            if asked not in _OTHER:
                continue
            other = _OTHER[str(asked)]
            for ds, ds_block, prefix in files:
                if Path(str(ds.path)).name != Path(name).name or not _enabled(ds_block.get(other)):
                    continue
                where = (f"`accelerate launch --mixed_precision {asked}`" if flag is not None
                         else f"`mixed_precision: {asked}` in {cfg.path}")
                message = (f"{where} contradicts `{ds.path}`, which enables `{other}`: accelerate stops with "
                           f"\"`--mixed_precision` arg cannot be set to `{asked}` when `{other}` is set in the "
                           "DeepSpeed config file\"; releases without that check build a "
                           f"{other} engine fed {asked} autocast activations and the first matmul fails (\"expected "
                           "mat1 and mat2 to have the same dtype\"). Make them agree "
                           f"(`mixed_precision: {other}`), or write `\"enabled\": \"auto\"` in the JSON")
                yield pctx.config_finding(
                    self, cfg, ("mixed_precision",), message,
                    evidence=[pctx.config_evidence(ds, (*prefix, other, "enabled"), f"{other} enabled here")])
