"""LLM Foundry recipes (``composer train.py yamls/finetune/mpt-7b_dolly_sft.yaml key=value``):
a YAML run by ``llmfoundry.command_utils.train_from_yaml``, recognised by its keys
(``model.name`` one of LLM Foundry's model names, or ``device_train_microbatch_size`` with
``max_duration``/``global_train_batch_size``).

Read (mosaicml/llm-foundry llmfoundry/command_utils/train.py and its YAMLs):
``model.pretrained_model_name_or_path`` (a Hub id), ``device_train_microbatch_size`` (an
integer; ``auto`` is chosen at run time), ``global_train_batch_size``, ``max_seq_len``,
``precision`` (Composer's ``amp_bf16``/``amp_fp16`` autocast, ``fp32``),
``fsdp_config.sharding_strategy`` and ``activation_checkpointing`` (when an FSDP config is
given), ``optimizer.name``, ``train_loader.num_workers``/``pin_memory``, and
``model.peft_config`` (LoRA with ``r``; absent: no PEFT). ``${variables.x}`` interpolations are
followed in the file; ``a.b=value`` overrides after the YAML on the command line win.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from preflight.adapters.recipes import _bool, _Pass

from preflight.adapters_api import Adapter, Project
from preflight.loaders import LoadedConfig
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_MODELS = ("hf_causal_lm", "mpt_causal_lm", "hf_t5", "hf_seq2seq", "hf_causal_lm_with_liger")
_PRECISION = {"amp_bf16": "amp_bf16", "amp_fp16": "amp_fp16", "fp32": "fp32", "amp_fp8": "amp_fp8"}
_SHARDING = {"FULL_SHARD": "fsdp_full", "SHARD_GRAD_OP": "fsdp_grad_op", "HYBRID_SHARD": "fsdp_hybrid",
             "NO_SHARD": "ddp"}
_INTERP = re.compile(r"^\$\{([A-Za-z_][\w.]*)\}$")


def _is_foundry(cfg: LoadedConfig) -> bool:
    d = cfg.data
    if not isinstance(d, dict):
        return False
    model = d.get("model")
    named = isinstance(model, dict) and model.get("name") in _MODELS
    return named or ("device_train_microbatch_size" in d and ("max_duration" in d or "global_train_batch_size" in d))


@register_adapter
class FoundryRecipeAdapter(Adapter):
    name = "recipes_foundry"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(_is_foundry(cfg) for _, cfg in project.configs)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for _, cfg in project.configs:
            if _is_foundry(cfg):
                _Foundry(self, project, plan, cfg).run()


class _Foundry(_Pass):
    def __init__(self, *a: Any) -> None:
        super().__init__(*a)
        self.cli = {}
        for tok in self.project.argv:  # `composer train.py cfg.yaml a.b=value` (omegaconf dotlist)
            key, eq, value = tok.partition("=")
            if eq and not key.startswith("-") and re.fullmatch(r"[A-Za-z_][\w.]*", key):
                self.cli[key] = value

    def value(self, *keys: str) -> tuple[Any, Optional[Source]]:
        flag = ".".join(keys)
        if flag in self.cli:
            return self.cli[flag], self.cli_src(flag)
        if not self.cfg.has(keys):
            return None, None
        value, src = self.cfg.get(keys), self.src(*keys)
        for _ in range(4):  # `${variables.max_seq_len}`: the value at that path of the file
            m = _INTERP.match(value) if isinstance(value, str) else None
            if m is None:
                break
            path = tuple(m.group(1).split("."))
            if not self.cfg.has(path):
                return None, None
            value = self.cfg.get(path)
            src = Source(src.kind, src.path, src.line, src.key, f"{'.'.join(keys)}: {m.group(0)} = {value!r}")
        return value, src

    def run(self) -> None:
        model, src = self.value("model", "pretrained_model_name_or_path")
        if isinstance(model, str) and re.fullmatch(r"[\w.-]+/[\w.-]+", model):
            self.add("model.ref", model, src)
        for keys, field in ((("device_train_microbatch_size",), "batch.micro"),
                            (("global_train_batch_size",), "batch.global"),
                            (("max_seq_len",), "data.seq_len"),
                            (("train_loader", "num_workers"), "data.num_workers")):
            value, vsrc = self.int_value(*keys)
            if value is not None and (value or field == "data.num_workers"):
                self.add(field, value, vsrc)
        pin, psrc = self.value("train_loader", "pin_memory")
        if _bool(pin) is not None:
            self.add("data.pin_memory", _bool(pin), psrc)
        precision, psrc = self.value("precision")
        if isinstance(precision, str) and precision in _PRECISION:
            self.add("precision.mode", _PRECISION[precision], psrc)
        fsdp = self.cfg.get(("fsdp_config",)) if self.cfg.has(("fsdp_config",)) else None
        if isinstance(fsdp, dict):
            strategy, ssrc = self.value("fsdp_config", "sharding_strategy")
            if isinstance(strategy, str) and strategy.upper() in _SHARDING:
                self.add("dist.sharding", _SHARDING[strategy.upper()], ssrc)
            ckpt, csrc = self.value("fsdp_config", "activation_checkpointing")
            if _bool(ckpt) is not None:
                self.add("memory.gradient_checkpointing", _bool(ckpt), csrc)
        opt, osrc = self.value("optimizer", "name")
        if isinstance(opt, str) and opt:
            self.add("optimizer.name", opt, osrc)
        peft = self.cfg.get(("model", "peft_config")) if self.cfg.has(("model", "peft_config")) else None
        if isinstance(peft, dict) and str(peft.get("peft_type", "")).upper() == "LORA":
            self.add("peft.method", "lora", self.src("model", "peft_config", "peft_type"))
            rank, rsrc = self.int_value("model", "peft_config", "r")
            if rank:
                self.add("peft.rank", rank, rsrc)
        elif peft is None and isinstance(self.cfg.data.get("model"), dict):
            self.add("peft.method", "none", self.src("model", detail="model has no peft_config: no PEFT"),
                     "medium")
