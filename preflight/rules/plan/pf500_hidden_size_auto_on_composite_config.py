"""PF500 hidden-size-auto-on-composite-config: DeepSpeed bucket sizes left "auto" for an encoder-decoder model
whose composite config has no ``hidden_size``: the HF integration cannot fill them and stops at start-up."""

from __future__ import annotations

import re
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._deepspeed_runs import runs_config, uses_hf_trainer

# the keys the HF Trainer and Accelerate fill from `model.config.hidden_size` (or `hidden_sizes`)
_KEYS = ("reduce_bucket_size", "stage3_prefetch_bucket_size", "stage3_param_persistence_threshold")
# transformers models whose config is a composite of an encoder's and a decoder's configs, with no top-level
# `hidden_size` or `hidden_sizes`
_COMPOSITE = ("EncoderDecoderModel", "VisionEncoderDecoderModel", "SpeechEncoderDecoderModel")


_SETS_HIDDEN = re.compile(r"config\.hidden_size\s*=[^=]|setattr\([^)]*[\"']hidden_size[\"']")


def _composite_model(pctx: PlanContext) -> Optional[tuple[Any, Any, str]]:
    """The first call that builds a composite encoder-decoder model from transformers: (script, call, class)."""
    for script in pctx.scripts:
        for site in pctx.index(script).calls:
            qual = site.qualified or ""
            if not qual.startswith("transformers."):
                continue
            parts = qual.split(".")
            cls = next((p for p in parts if p in _COMPOSITE), None)
            if cls is not None:
                return script, site.call, cls
    return None


def _accelerate_script(pctx: PlanContext) -> Optional[Any]:
    for script in pctx.scripts:
        if any((site.qualified or "").startswith("accelerate.") and (site.name or "").endswith("Accelerator")
               for site in pctx.index(script).calls):
            return script
    return None


@register
class HiddenSizeAutoOnCompositeConfig(PlanRule):
    code = "PF500"
    name = "hidden-size-auto-on-composite-config"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("deepspeed", "transformers")
    summary = ("DeepSpeed `reduce_bucket_size`/`stage3_*` left \"auto\" for an `EncoderDecoderModel`: its composite "
               "config has no `hidden_size` to fill them from, so DeepSpeed initialisation fails")
    explanation = """
## What it finds

A DeepSpeed config whose `zero_optimization.reduce_bucket_size`,
`stage3_prefetch_bucket_size` or `stage3_param_persistence_threshold` is `"auto"`, in a job
that trains with the HF Trainer (or Accelerate) a transformers `EncoderDecoderModel`,
`VisionEncoderDecoderModel` or `SpeechEncoderDecoderModel`.

## Why it matters

The HF Trainer's DeepSpeed integration (and Accelerate's) fills those three values from
`model.config.hidden_size` (or `max(model.config.hidden_sizes)`). An encoder-decoder
model's config is a composite `EncoderDecoderConfig` holding an `encoder` and a `decoder`
config, with neither key at the top: initialisation stops on every rank before the first
step (transformers issue 22176: "'EncoderDecoderConfig' object has no attribute
'hidden_size'"; later versions raise "The model's config file has neither `hidden_size`
nor `hidden_sizes` entry, therefore it's not possible to automatically fill out the
following `auto` entries"; transformers issue 20169 for TrOCR's
`VisionEncoderDecoderModel`).

## How to fix it

Write the three values in the config from the encoder's hidden size h: `reduce_bucket_size`
h*h, `stage3_prefetch_bucket_size` 0.9*h*h, `stage3_param_persistence_threshold` 10*h
(768 for bert-base: 589824, 530841, 7680).

## When preflight stays silent

* The three keys are numbers (or absent: DeepSpeed's defaults need no hidden size).
* The model is an ordinary transformers model (its config has `hidden_size` or an
  `attribute_map` to it, as T5's `d_model` does), or a composite model built by the
  project's own code.
* A script gives the config a `hidden_size` itself (`model.config.hidden_size = 768`, or
  `setattr(..., "hidden_size", ...)`: the workaround in transformers issue 20169).
* No HF Trainer or Accelerator runs the job (a plain `deepspeed.initialize` does not read
  the model's config; "auto" fails there for another reason).
"""
    bad_examples = examples("preflight.rules.plan._pf500_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf500_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        configs = []
        for config, block, prefix in pctx.deepspeed_configs():
            zero = block.get("zero_optimization")
            if isinstance(zero, dict):
                auto = [k for k in _KEYS if isinstance(zero.get(k), str) and zero[k].strip().lower() == "auto"]
                if auto:
                    configs.append((config, prefix, auto))
        if not configs:
            return
        model = _composite_model(pctx)
        if model is None:
            return
        trainer = uses_hf_trainer(pctx)
        accelerate = _accelerate_script(pctx) if trainer is None else None
        if trainer is None and accelerate is None:
            return
        script, call, cls = model
        if any(_SETS_HIDDEN.search(s.source.text) for s in pctx.scripts):
            return  # the workaround of transformers issue 20169: the script gives the config a hidden_size
        for config, prefix, auto in configs:
            if trainer is not None and not runs_config(pctx, trainer[0], config):
                continue
            filler = "the HF Trainer's DeepSpeed integration" if trainer is not None else "Accelerate"
            keys = ", ".join(f"`{k}`" for k in auto)
            yield pctx.config_finding(
                self, config, (*prefix, "zero_optimization", auto[0]),
                f"{keys} {'is' if len(auto) == 1 else 'are'} \"auto\", which {filler} fills from "
                f"`model.config.hidden_size`; the model is a `{cls}` (line {call.lineno} of "
                f"{script.source.display}), whose composite config has no `hidden_size` nor `hidden_sizes`, so "
                "initialisation fails on every rank before the first step (transformers issue 22176). Write the "
                "values from the encoder's hidden size h: reduce_bucket_size h*h, stage3_prefetch_bucket_size "
                "0.9*h*h, stage3_param_persistence_threshold 10*h",
                evidence=[pctx.code_evidence(script, call, f"a `{cls}` is built here")])
