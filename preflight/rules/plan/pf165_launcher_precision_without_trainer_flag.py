"""PF165 launcher-precision-without-trainer-flag: ``accelerate launch --mixed_precision fp16|bf16`` runs a
transformers Trainer script (transformers pinned before 4.30) whose launch-line TrainingArguments carry no
``--fp16``/``--bf16``: the Trainer trains in fp32."""

from __future__ import annotations

import os
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import launch_site

_PRECISIONS = ("fp16", "bf16")


def _launcher_precision(argv: list[str], script: str) -> Optional[str]:
    """``--mixed_precision X`` among the ``accelerate launch`` options before ``script``."""
    try:
        end = next(i for i, tok in enumerate(argv) if os.path.basename(tok) == script)
    except StopIteration:
        return None
    head = argv[:end]
    if not any(os.path.basename(tok) == "accelerate" for tok in head[:3]) or "launch" not in head:
        return None
    for i, tok in enumerate(head):
        if tok == "--mixed_precision" and i + 1 < len(head):
            return head[i + 1].strip("\"'")
        if tok.startswith("--mixed_precision="):
            return tok.split("=", 1)[1].strip("\"'")
    return None


@register
class LauncherPrecisionWithoutTrainerFlag(PlanRule):
    code = "PF165"
    name = "launcher-precision-without-trainer-flag"
    severity = Severity.WARNING
    category = Category.PERFORMANCE
    frameworks = ("transformers", "accelerate")
    summary = ("`accelerate launch --mixed_precision fp16/bf16` runs a Trainer script (transformers < 4.30) "
               "without `--fp16`/`--bf16` on its own arguments: the Trainer trains in full fp32")
    explanation = """
## What it finds

An `accelerate launch ... --mixed_precision fp16` (or `bf16`) line that runs a script
reading its `TrainingArguments` from the launch line
(`HfArgumentParser(...).parse_args_into_dataclasses()`) and handing them to a
transformers `Trainer`, where the script's arguments carry neither `--fp16` nor
`--bf16` (nor `--deepspeed`), in a project that pins transformers below 4.30.

## Why it matters

Before 4.30 the `Trainer` sets up its precision from `TrainingArguments` alone (its
own `autocast`/`GradScaler` when `fp16`/`bf16` is true) and never reads what the
launcher asked for: `--mixed_precision=fp16` on the launch line leaves the run in full
fp32, with twice the activation memory and no tensor-core speed-up (accelerate issue
1432, transformers 4.29 with accelerate 0.19: "I have to specify `--fp16` in the
arguments of `run_translation.py`"). Later releases build the Trainer's `Accelerator`
and read the launcher's `ACCELERATE_MIXED_PRECISION` (transformers issue 32622: "we'll
pick it up from the environment"), so only the older pins are reported.

## How to fix it

Pass `--fp16` (or `--bf16`) to the script as well.

## When preflight stays silent

* transformers is not pinned, or pinned at 4.30 or later.
* The script's arguments carry `--fp16`/`--bf16`/`--deepspeed`, the launcher asks for
  no mixed precision, or the arguments come from a JSON/YAML file.
* The script builds no transformers `Trainer` (an `accelerate` loop of its own honours
  the launcher).
"""
    bad_examples = examples("preflight.rules.plan._pf165_examples", "PF165_BAD")
    good_examples = examples("preflight.rules.plan._pf165_examples", "PF165_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        launch = launch_site(pctx)
        if launch is None or launch.script is None or pctx.project is None:
            return
        script = launch.script
        asked = _launcher_precision(list(pctx.project.argv), os.path.basename(str(script.source.path)))
        if asked not in _PRECISIONS:
            return
        values = launch.values
        if any(values.get(k) not in (None, False) for k in ("fp16", "bf16", "deepspeed", "half_precision_backend")):
            return
        version = pctx.version("transformers", script)
        if version is None or version.how != "pinned" or version.at_least(4, 30):
            return
        trainer = next((site.call for site in pctx.index(script).calls
                        if site.last in ("Trainer", "Seq2SeqTrainer")
                        and (site.qualified or "").startswith("transformers")), None)
        if trainer is None:
            return
        yield pctx.code_finding(
            self, script, trainer,
            f"`accelerate launch --mixed_precision {asked}` runs this Trainer script, but its TrainingArguments "
            f"carry no `--{asked}`: {version.describe()} sets up the Trainer's precision from its own arguments "
            "only, so the run trains in full fp32 (twice the activation memory, no tensor-core speed-up) although "
            f"the launch line asks for {asked}. Pass `--{asked}` to the script as well",
            evidence=[pctx.code_evidence(script, launch.anchor, "the arguments are read from the launch line here")])
