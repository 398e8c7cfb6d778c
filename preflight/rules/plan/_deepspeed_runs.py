"""Shared by the rules on which DeepSpeed config a job runs with (PF527, PF214, PF469, PF547, PF550, PF195): a Transformers
Trainer in the job, whether a script runs a config, deepspeed.initialize with a scheduler."""

from __future__ import annotations

import ast
import os
from typing import Any, Optional

from preflight.plan_rules import PlanContext
from preflight.rules._pf4_support import calls, kwarg

# the HF integration: a DeepSpeed config's scheduler replaces the one the Trainer would build
_TRAINERS = ("Trainer", "Seq2SeqTrainer", "SFTTrainer", "DPOTrainer", "GRPOTrainer", "RewardTrainer", "ORPOTrainer",
             "KTOTrainer", "PPOTrainer")


def initialize_with_scheduler(pctx: PlanContext) -> Optional[tuple[Any, Any]]:
    """(script, call) of a ``deepspeed.initialize(..., lr_scheduler=<not None>)``."""
    for script in pctx.scripts:
        for site in pctx.index(script).calls:
            if not (site.qualified or site.name or "").startswith("deepspeed") \
                    or (site.name or "").split(".")[-1] != "initialize":
                continue
            kw = next((k for k in site.call.keywords if k.arg == "lr_scheduler"), None)
            if kw is None or (getattr(kw.value, "value", 0) is None):
                continue
            return script, site.call
    return None


def uses_hf_trainer(pctx: PlanContext) -> Optional[tuple[Any, Any]]:
    for script in pctx.scripts:
        for site in pctx.index(script).calls:
            last = (site.name or "").split(".")[-1]
            if last in _TRAINERS and (site.qualified or "").startswith(("transformers", "trl")):
                return script, site.call
    return None


def runs_config(pctx: PlanContext, script: Any, config: Any) -> bool:
    """Whether the script is run with this config: the config is a dict of the script itself, or the
    script or its launch line names the file (``config="ds.json"``, ``--deepspeed ds.json``)."""
    path = str(config.path)
    if path == str(script.source.path) or os.path.abspath(path) == os.path.abspath(str(script.source.path)):
        return True
    base = os.path.basename(path)
    launch = " ".join(pctx.project.script_args(script) or ())
    return base in script.source.text or base in launch


def client_optimizer(pctx: PlanContext) -> bool:
    """(PF550, PF195) Some script hands ``deepspeed.initialize`` its own optimizer: the config's block is not built."""
    for script in pctx.scripts:
        text = script.text if script.text is not None else script.source.text
        if "initialize" not in (text or ""):
            continue
        for call, qual in calls(pctx.file_context(script)):
            if qual == "deepspeed.initialize":
                given = kwarg(call, "optimizer")
                if given is not None and not (isinstance(given, ast.Constant) and given.value is None):
                    return True
    return False
