"""PF690 deepspeed-batch-keys-vs-trainer-launch: a DeepSpeed JSON with literal micro-batch or accumulation
values that differ from the HF Trainer arguments of the launch line (given there, or left at their defaults)."""

from __future__ import annotations

import os
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

# DeepSpeed key -> (TrainingArguments field, its default, the plan field PF501 compares)
_KEYS = {
    "train_micro_batch_size_per_gpu": ("per_device_train_batch_size", 8, "batch.micro"),
    "gradient_accumulation_steps": ("gradient_accumulation_steps", 1, "batch.grad_accum"),
}
# the options that only the HF TrainingArguments parser takes together: the launched script parses them
_HF_MARKS = ("output_dir",)
# a script that builds the engine itself (its own parser may take --output_dir too)
_OWN_ENGINE = ("deepspeed.initialize", "add_config_arguments")


def _flags(tokens: list[str]) -> dict[str, str]:
    """``--name value`` / ``--name=value`` options of the script's arguments (a bare switch -> "true")."""
    out: dict[str, str] = {}
    for i, tok in enumerate(tokens):
        if not tok.startswith("--"):
            continue
        name, eq, value = tok[2:].partition("=")
        if not eq:
            nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
            value = nxt if nxt and not nxt.startswith("--") else "true"
        out[name.replace("-", "_")] = value
    return out


def _int(value: Any) -> Optional[int]:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    text = str(value).strip()
    return int(text) if text.isdigit() else None


def _own_default(pctx: PlanContext, field: str) -> bool:
    """A script of the job names the field itself (an arguments class of its own, a value set in code):
    the library default may not be the one in force."""
    return any(field in script.source.text for script in pctx.scripts)


@register
class DeepspeedBatchKeysVsTrainerLaunch(PlanRule):
    code = "PF690"
    name = "deepspeed-batch-keys-vs-trainer-launch"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("deepspeed", "transformers")
    summary = ("the DeepSpeed JSON hard-codes `train_micro_batch_size_per_gpu`/`gradient_accumulation_steps` "
               "to values the HF Trainer arguments of the launch line do not have: the Trainer stops at start-up")
    explanation = """
## What it finds

A launch line that runs an HF Trainer script with its TrainingArguments on the command
line (`--output_dir ...` and `--deepspeed ds.json`), where `ds.json` gives
`train_micro_batch_size_per_gpu` or `gradient_accumulation_steps` as a number that differs
from `--per_device_train_batch_size` / `--gradient_accumulation_steps` of the line, or from
their defaults (8 and 1) when the line leaves them out.

## Why it matters

The HF DeepSpeed integration fills only `"auto"` values from the TrainingArguments and
compares the explicit ones with them; when they differ it stops before training with
"ValueError: Please correct the following DeepSpeed config values that mismatch
TrainingArguments values: - ds train_micro_batch_size_per_gpu=16 vs hf
per_device_train_batch_size=8 - ds gradient_accumulation_steps=8 vs hf
gradient_accumulation_steps=1" (LlamaFactory issue 366: a config copied from a DeepSpeed
example, run with a command line that sets neither value). In a scheduler job it fails
after the queue wait and the model download.

## How to fix it

Write `"auto"` for both keys in the DeepSpeed JSON and set the values on the command line,
or make the two agree.

## When preflight stays silent

* The DeepSpeed value is `"auto"` or equals the argument (given or default).
* The launch line carries no `--output_dir` (not recognisably HF TrainingArguments), or
  no `--deepspeed` JSON among the job's configs.
* The argument is left out but a script of the job names it (its own arguments class
  may change the default).
* The script's arguments are read by the plan, where PF501 compares the two values.
* A script of the job builds the engine itself (`deepspeed.initialize`): no Trainer
  compares the values.
"""
    bad_examples = examples("preflight.rules.plan._pf690_examples", "PF690_BAD")
    good_examples = examples("preflight.rules.plan._pf690_examples", "PF690_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        argv = pctx.project.argv
        if not argv or "--deepspeed" not in " ".join(argv):
            return
        from preflight.adapters.launchers import parse_launch

        info = parse_launch(argv)
        flags = _flags(list(info.script_args))
        path = flags.get("deepspeed", "")
        if not path.endswith(".json") or not all(m in flags for m in _HF_MARKS):
            return
        if any(m in script.source.text for script in pctx.scripts for m in _OWN_ENGINE):
            return  # the script builds the DeepSpeed engine itself: no Trainer compares the values
        named = os.path.basename(path)
        for config, block, prefix in pctx.deepspeed_configs():
            if os.path.basename(str(config.path)) != named:
                continue
            for key, (arg, default, field) in _KEYS.items():
                value = _int(block.get(key))
                if value is None:
                    continue
                if any(f.adapter == "transformers" and f.source.kind != "default" for f in pctx.plan.facts(field)):
                    continue  # the plan holds the Trainer's value: PF501 compares them
                given = arg in flags
                hf = _int(flags[arg]) if given else (None if _own_default(pctx, arg) else default)
                if hf is None or hf == value:
                    continue
                said = f"--{arg} {hf} on the launch line" if given else f"{arg}={hf}, the default (the line " \
                    f"leaves --{arg} out)"
                yield pctx.config_finding(
                    self, config, (*prefix, key),
                    f"\"{key}\": {value} here, but the Trainer runs with {said}: the HF DeepSpeed integration fills "
                    "only \"auto\" values and stops before training (\"Please correct the following DeepSpeed "
                    f"config values that mismatch TrainingArguments values: - ds {key}={value} vs hf {arg}={hf}\"). "
                    f"Write \"{key}\": \"auto\" and set --{arg} on the command line")
