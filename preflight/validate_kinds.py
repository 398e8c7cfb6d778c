"""Config kinds: what preflight validates, and which kind a config file (or a node in it) is.

A :class:`Kind` names its schema in ``preflight/schemas/config/``, how its file is read and who
reads its keys; :func:`detect` finds the parts of a loaded config that are one of the
:data:`KINDS` (a DeepSpeed block, an accelerate config, a Hydra node whose ``_target_`` names a
Lightning ``Trainer``, TrainingArguments or SFTConfig, a TrainingArguments/SFTConfig file by its
keys, a LightningCLI ``trainer:`` block). Checking a kind against its schema is
:mod:`preflight.validate`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from preflight.loaders import LoadedConfig

__all__ = ["KINDS", "Kind", "Target", "detect", "target_kind"]


@dataclass(frozen=True)
class Kind:
    """A config kind: its schema file, how its file is read, and how it is named."""

    name: str
    schema: str
    label: str
    reader: str  # "pyyaml" (yaml.safe_load), "omegaconf" (Hydra) or "yaml11" (another YAML 1.1 reader)
    owner: str  # who reads the keys, for messages: "DeepSpeed", "Trainer()", ...
    loader: str  # what reads a YAML file of this kind


KINDS: dict[str, Kind] = {k.name: k for k in (
    Kind("deepspeed", "deepspeed", "DeepSpeed config", "pyyaml", "DeepSpeed",
         "PyYAML (HF Trainer / accelerate read YAML DeepSpeed blocks with yaml.safe_load)"),
    Kind("accelerate", "accelerate_config", "accelerate config", "pyyaml", "accelerate launch",
         "PyYAML (accelerate's ClusterConfig.from_yaml_file uses yaml.safe_load)"),
    Kind("accelerate-sagemaker", "accelerate_sagemaker_config", "accelerate config (SageMaker)", "pyyaml",
         "accelerate launch", "PyYAML (accelerate's SageMakerConfig.from_yaml_file uses yaml.safe_load)"),
    Kind("training-args", "training_arguments", "TrainingArguments (HfArgumentParser file)", "pyyaml",
         "TrainingArguments", "PyYAML (HfArgumentParser.parse_yaml_file uses yaml.safe_load)"),
    Kind("sft-config", "sft_config", "TRL SFTConfig (HfArgumentParser file)", "pyyaml", "SFTConfig",
         "PyYAML (HfArgumentParser.parse_yaml_file uses yaml.safe_load)"),
    # LightningCLI files are read by jsonargparse: 1e-4 is not flagged there (only YAML 1.1
    # booleans, octals and base-60 numbers, which every YAML 1.1 reader shares)
    Kind("lightning-trainer", "lightning_trainer", "Lightning Trainer arguments", "yaml11", "Trainer()",
         "its YAML reader"),
)}

_TRAINER_TARGET = re.compile(r"^(lightning\.pytorch|lightning|pytorch_lightning)(\.trainer){0,2}\.Trainer$")
_TARGETS: dict[str, re.Pattern[str]] = {
    "lightning-trainer": _TRAINER_TARGET,
    "training-args": re.compile(r"^transformers(\.training_args)?\.TrainingArguments$"),
    "sft-config": re.compile(r"^trl(\.trainer)?(\.sft_config)?\.SFTConfig$"),
}
# keys only SFTConfig has (over TrainingArguments), used to tell an SFT file apart
_SFT_HINTS = ("packing", "dataset_text_field", "max_length", "completion_only_loss", "assistant_only_loss",
              "packing_strategy", "padding_free", "dataset_num_proc", "eos_token", "pad_token",
              "dataset_kwargs", "model_init_kwargs", "max_seq_length")
_TA_STRONG = ("per_device_train_batch_size", "per_device_eval_batch_size", "gradient_accumulation_steps",
              "num_train_epochs", "learning_rate", "output_dir", "lr_scheduler_type", "warmup_steps",
              "eval_strategy", "save_strategy", "logging_steps", "optim")
_LIGHTNING_CLI_KEYS = ("seed_everything", "ckpt_path")


@dataclass
class Target:
    """A part of a config file validated as one kind (the whole file or a nested node)."""

    kind: str
    prefix: tuple[Any, ...]
    data: Any
    why: str
    reader: Optional[str] = None  # how the file is read, when the file itself tells


# --------------------------------------------------------------------------- detection


def target_kind(target: Any) -> Optional[str]:
    """The kind a Hydra ``_target_`` names, or None."""
    if not isinstance(target, str):
        return None
    for kind, pattern in _TARGETS.items():
        if pattern.match(target.strip()):
            return kind
    return None


def _hf_kind(data: dict[str, Any]) -> Optional[str]:
    keys = set(data)
    if len(keys.intersection(_TA_STRONG)) < 2:
        return None
    return "sft-config" if keys.intersection(_SFT_HINTS) else "training-args"


def detect(config: LoadedConfig) -> list[Target]:
    """What in ``config`` preflight can validate, and as which kind."""
    from preflight.adapters.accelerate import is_accelerate_config
    from preflight.adapters.deepspeed import deepspeed_block

    data = config.data
    if not isinstance(data, dict):
        return []
    found = deepspeed_block(config)
    if found is not None:
        prefix, block = found
        targets = [Target("deepspeed", tuple(prefix), block, "DeepSpeed keys")]
        if prefix:
            rest = {k: v for k, v in data.items() if k != prefix[0]}
            kind = _hf_kind(rest)
            if kind is not None:
                targets.append(Target(kind, (), data, "TrainingArguments keys"))
        return targets
    if is_accelerate_config(data):
        if data.get("compute_environment") == "AMAZON_SAGEMAKER":
            return [Target("accelerate-sagemaker", (), data, "compute_environment: AMAZON_SAGEMAKER")]
        return [Target("accelerate", (), data, "accelerate config keys")]
    targets = _target_nodes(data, (), 0)
    if targets:
        return targets
    kind = _hf_kind(data)
    if kind is not None:
        if _looks_hydra(data):
            return [Target(kind, (), data, "TrainingArguments keys in a Hydra config", "omegaconf")]
        return [Target(kind, (), data, "TrainingArguments keys")]
    trainer = data.get("trainer")
    if isinstance(trainer, dict) and (any(k in data for k in _LIGHTNING_CLI_KEYS)
                                      or ("model" in data and "defaults" not in data)):
        return [Target("lightning-trainer", ("trainer",), trainer, "LightningCLI config (trainer:)")]
    return []


def _looks_hydra(data: dict[str, Any]) -> bool:
    """A defaults list or an interpolation: a file read by Hydra/OmegaConf."""
    if isinstance(data.get("defaults"), list):
        return True
    stack: list[Any] = [data]
    seen = 0
    while stack and seen < 10_000:
        value = stack.pop()
        seen += 1
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str) and "${" in value:
            return True
    return False


def _target_nodes(data: Any, prefix: tuple[Any, ...], depth: int) -> list[Target]:
    out: list[Target] = []
    if depth > 32 or not isinstance(data, dict):
        return out
    kind = target_kind(data.get("_target_"))
    if kind is not None:
        out.append(Target(kind, prefix, data, f"_target_: {data['_target_']}"))
        return out
    for key, value in data.items():
        if isinstance(value, dict):
            out.extend(_target_nodes(value, (*prefix, key), depth + 1))
    return out
