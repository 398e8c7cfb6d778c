"""The HF Trainer's optimizer when its DeepSpeed config has an ``optimizer`` section (a ``derive`` step).

``Trainer`` with ``deepspeed="ds.json"`` (``--deepspeed ds.json``, or accelerate's DeepSpeed plugin)
hands the optimizer to DeepSpeed whenever the config has an ``optimizer`` section:
``deepspeed_optim_sched`` builds a ``DummyOptim`` and DeepSpeed creates the config's optimizer, so
``TrainingArguments.optim`` (``--optim adamw_bnb_8bit``) is not used (frameworks.md,
TrainingArguments "optimizer"; transformers ``integrations/deepspeed.py`` ``deepspeed_optim_sched``,
4.x-5.x). Without that section the Trainer creates its own optimizer from ``optim``.

The config's optimizer is a fact of the deepspeed adapter (kind ``config``), but a command-line
``--optim`` (kind ``cli``) outranks a config by source kind. When the winning ``optimizer.name``
is a TrainingArguments ``optim`` (key ``optim``/``--optim``), the job's code or the modules that
declare its options name a TrainingArguments class (so ``optim`` is the Trainer's, not a project
flag of the same name), and the DeepSpeed config read for the job names one optimizer type, that
type is restated with the framework's precedence (a priority), and the ``optim`` fact stays in
the plan as the overridden value (bofenghuang/vigogne ``examples/train/llama2/train_sft_chat.sh``
``--optim adamw_bnb_8bit`` with ``ds_config_zero3_no_offload.json:15-23`` AdamW).
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from preflight.plan import Source, TrainingPlan

_ARGS_CLASS = re.compile(r"\b(?:Seq2Seq)?TrainingArguments\b|\b(?:SFT|DPO|GRPO|ORPO|KTO|CPO|Reward)Config\b")


def _trainer_args_named(project: Any) -> bool:
    from preflight.adapters.cliargs_options import declared_options

    for script in getattr(project, "scripts", ()):
        texts = [script.source.text]
        with contextlib.suppress(SyntaxError, ValueError, RecursionError):
            texts.extend(declared_options(script, project).texts)
        if any(_ARGS_CLASS.search(t) for t in texts):
            return True
    return False


def trainer_ds_optimizer(plan: TrainingPlan, project: Any) -> None:
    winner = plan.resolve("optimizer.name")
    if winner is None or (winner.source.key or "").lstrip("-") != "optim" or winner.adapter == "deepspeed":
        return
    ds = [f for f in plan.facts("optimizer.name") if f.adapter == "deepspeed" and f.source.kind == "config"
          and (f.source.key or "").endswith("optimizer.type")]
    if not ds or len({str(f.value).lower() for f in ds}) != 1 or project is None or not _trainer_args_named(project):
        return
    fact = ds[0]
    plan.add("optimizer.name", fact.value,
             Source("derived", fact.source.path, fact.source.line, fact.source.key,
                    f"optimizer.type {fact.value} in the DeepSpeed config: with an optimizer section the HF Trainer "
                    f"hands the optimizer to DeepSpeed (DummyOptim), so {winner.source.key} {winner.value} "
                    "is not used"),
             "medium", adapter="derive", priority=max(1, winner.priority + 1))
