"""A TrainingArguments arguments file on its own (``preflight check args.yaml``, or a file an
``audit`` was given that no script's parser reads): the one fact a file alone can carry about
its precision, ``fp16`` and ``bf16`` both true (``precision.fp16_and_bf16``, read by PF503).

A file counts as TrainingArguments keys when it holds more than two of them and is not a
DeepSpeed config (whose ``fp16``/``bf16`` blocks the deepspeed adapter reads). Files a script's
``HfArgumentParser`` reads are recorded by the transformers adapter, with the script's context;
this adapter adds nothing for a file that already has such facts.
"""

from __future__ import annotations

from preflight.adapters.transformers_args import TRAINING_KEYS, record_fp16_and_bf16

from preflight.adapters_api import Adapter, Project
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter


@register_adapter
class TrainingArgsFileAdapter(Adapter):
    name = "training_args_file"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(isinstance(cfg.data, dict) and cfg.data.get("fp16") is True and cfg.data.get("bf16") is True
                   for _, cfg in project.configs)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        owned = {f.source.path for name in plan.fields() for f in plan.facts(name)
                 if f.adapter == "deepspeed" and f.source.path}
        owned |= {f.source.path for f in plan.facts("precision.fp16_and_bf16") if f.source.path}
        for _, cfg in project.configs:
            data = cfg.data
            if cfg.path in owned or not isinstance(data, dict):
                continue
            if data.get("fp16") is True and data.get("bf16") is True and sum(k in data for k in TRAINING_KEYS) > 2:
                fp16 = project.config_source(cfg, ("fp16",), detail="fp16: true")
                bf16 = project.config_source(cfg, ("bf16",), detail="bf16: true")
                record_fp16_and_bf16(lambda *a: self.add_checked(plan, *a), fp16, bf16, "high")
