"""PF547 trainer-optimizer-replaced-by-deepspeed: ``--adafactor``/``--optim X`` for an HF Trainer whose
DeepSpeed config has its own ``optimizer`` block."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._deepspeed_runs import runs_config, uses_hf_trainer

_ARGS = ("TrainingArguments", "Seq2SeqTrainingArguments", "SFTConfig", "DPOConfig", "ORPOConfig", "KTOConfig",
         "GRPOConfig", "RewardConfig")


def _from_launch(args: list[str]) -> Optional[tuple[str, str]]:
    """(what was asked, how it was written) from the script's arguments."""
    for i, tok in enumerate(args):
        name, eq, value = tok.partition("=")
        if name == "--adafactor":
            if eq and value.lower() in ("false", "0", "no"):
                continue
            nxt = args[i + 1] if not eq and i + 1 < len(args) else ""
            if nxt.lower() in ("false", "0", "no"):
                continue
            return "adafactor", tok if eq else "--adafactor"
    return None


def _from_code(pctx: PlanContext, script) -> Optional[tuple[str, str]]:
    for site in pctx.index(script).calls:
        if (site.name or "").split(".")[-1] not in _ARGS:
            continue
        for kw in site.call.keywords:
            if kw.arg == "adafactor" and isinstance(kw.value, ast.Constant) and kw.value.value is True:
                return "adafactor", "adafactor=True"
    return None


@register
class TrainerOptimizerReplacedByDeepSpeed(PlanRule):
    code = "PF547"
    name = "trainer-optimizer-replaced-by-deepspeed"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("deepspeed", "transformers")
    summary = ("`--adafactor` asks the HF Trainer for Adafactor, which the DeepSpeed config's `optimizer` "
               "block replaces")
    explanation = """
## What it finds

A job run by the HF Trainer (a `Trainer`, `Seq2SeqTrainer` or TRL trainer) with a
DeepSpeed config that has an `optimizer` section (not Adafactor), while the launch line
(`--adafactor`) or the script's `TrainingArguments(adafactor=True)` asks for Adafactor.
(An `--optim X` that differs from the config's optimizer is a conflict PF501 reports.)

## Why it matters

When the DeepSpeed config defines an optimizer, the Trainer hands optimizer creation to
DeepSpeed and never builds the one its own arguments name. In transformers 4.6 the flag
was silently ignored and the run trained with the config's optimizer at the learning
rate chosen for Adafactor (transformers issue 11749: T5 launched with `--adafactor`
trained with DeepSpeed's AdamW at Adafactor's learning rate 1e-3). Later 4.x releases
stop before training ("--adafactor was passed, but also found `optimizer` configured in
the DeepSpeed config"), and transformers 5 removed the `adafactor` argument (PR 41017):
in no release does the job train with Adafactor, and the first two find out only once
the GPUs are allocated.

## How to fix it

Remove the config's `optimizer` block (add `"zero_allow_untested_optimizer": true` for
an optimizer DeepSpeed does not know) so that the Trainer builds the one it is asked
for; or drop the flag and tune the config's optimizer.

## When preflight stays silent

* No HF trainer runs the config, or the script neither names the config nor is
  launched with it.
* `--adafactor` is not given (or `--adafactor false`), or the config's optimizer is
  Adafactor.
"""
    bad_examples = examples("preflight.rules.plan._pf547_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf547_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        configs = [(cfg, block, prefix) for cfg, block, prefix in pctx.deepspeed_configs()
                   if isinstance(block.get("optimizer"), dict) and isinstance(block["optimizer"].get("type"), str)]
        if not configs:
            return
        trainer = uses_hf_trainer(pctx)
        if trainer is None:
            return
        script, call = trainer
        asked = _from_launch(list(pctx.project.script_args(script) or ())) or _from_code(pctx, script)
        if asked is None:
            return
        for config, block, prefix in configs:
            kind = block["optimizer"]["type"]
            if kind.lower() == "adafactor" or not runs_config(pctx, script, config):
                continue
            yield pctx.config_finding(
                self, config, (*prefix, "optimizer"),
                f"the job asks the Trainer for Adafactor (`{asked[1]}`), but this DeepSpeed config has its own "
                f"optimizer ({kind}), and the Trainer then lets DeepSpeed build the optimizer: transformers 4.6 "
                f"silently trained with {kind} at the learning rate chosen for Adafactor (transformers issue "
                "11749); later 4.x releases stop at start (\"--adafactor was passed, but also found `optimizer` "
                "configured in the DeepSpeed config\"), and 5.x has no `adafactor` argument. Remove this "
                "`optimizer` block (with `\"zero_allow_untested_optimizer\": true`) and use `--optim adafactor`, "
                "or drop the flag",
                evidence=[pctx.code_evidence(script, call, "the HF Trainer runs the job")])
