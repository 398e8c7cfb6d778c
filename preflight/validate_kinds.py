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
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from pathlib import Path

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
    # GPT-NeoX reads its YAML with yaml.load(FullLoader): YAML 1.1 like PyYAML's safe_load
    Kind("gpt-neox", "gpt_neox", "GPT-NeoX config (NeoXArgs)", "pyyaml", "GPT-NeoX",
         "PyYAML (NeoXArgs.from_ymls uses yaml.load)"),
    # top-level field names only (tools/gen_axolotl_fields.py); a kind with no schema file would be
    # recognised, counted and not validated (see SKIPPED_WHY)
    Kind("axolotl", "axolotl", "axolotl config", "pyyaml", "axolotl",
         "PyYAML (axolotl's load_cfg uses yaml.safe_load)"),
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
# keys of TRL's preference trainers (DPOConfig, ORPOConfig, KTOConfig, CPOConfig): such a file is not an
# SFTConfig file; its TrainingArguments part is still checked
_PREFERENCE_HINTS = ("beta", "max_prompt_length", "rpo_alpha", "precompute_ref_log_probs", "ref_adapter_name",
                     "generate_during_eval", "desirable_weight", "undesirable_weight", "cpo_alpha", "simpo_gamma",
                     "ref_model_init_kwargs", "sync_ref_model", "max_completion_length")


def preference_fields(data: Any) -> frozenset[str]:
    """The own fields of TRL's preference configs (DPOConfig, KTOConfig, ORPOConfig, CPOConfig,
    BCOConfig; ``tools/gen_trl_preference_fields.py``) when ``data`` has preference-trainer keys: the
    script reads such a file with one of them, so ``label_smoothing`` or ``loss_type`` is not a typo."""
    if not (isinstance(data, dict) and any(k in data for k in _PREFERENCE_HINTS)):
        return frozenset()
    return _preference_fields()


@lru_cache(maxsize=1)
def _preference_fields() -> frozenset[str]:
    from preflight.validate_schema_files import load_schema

    classes = load_schema("file:trl_preference_fields").get("classes", {})
    return frozenset(f for fields in classes.values() for f in fields)


# keys only an axolotl config has (its AxolotlInputConfig fields; a TrainingArguments file has none)
_AXOLOTL_HINTS = ("base_model", "base_model_config", "datasets", "sequence_len", "micro_batch_size", "adapter",
                  "lora_target_linear", "sample_packing", "val_set_size", "pad_to_sequence_len", "num_epochs",
                  "dataset_prepared_path", "special_tokens", "flash_attention", "wandb_project", "strict",
                  "plugins", "eval_sample_packing", "train_on_inputs", "rl", "chat_template_jinja")
# keys HfArgumentParser files usually hold besides TrainingArguments: the script's own dataclasses
# (transformers examples' ModelArguments / DataTrainingArguments, TRL's ModelConfig / ScriptArguments)
_HF_SCRIPT_KEYS = frozenset((
    "model_name_or_path", "model_revision", "config_name", "tokenizer_name", "cache_dir", "use_fast_tokenizer",
    "torch_dtype", "dtype", "attn_implementation", "trust_remote_code", "use_peft", "lora_r", "lora_alpha",
    "lora_dropout", "lora_target_modules", "lora_modules_to_save", "lora_task_type", "use_rslora", "use_dora",
    "load_in_8bit", "load_in_4bit", "bnb_4bit_quant_type", "use_bnb_nested_quant", "dataset_name",
    "dataset_config", "dataset_config_name", "dataset_train_split", "dataset_test_split", "dataset_mixer",
    "dataset_splits", "dataset_mixture", "datasets", "train_file", "validation_file", "test_file",
    "max_train_samples", "max_eval_samples", "preprocessing_num_workers", "overwrite_cache", "block_size",
    "max_seq_length", "pad_to_max_length", "validation_split_percentage", "streaming", "chat_template",
    "gradient_checkpointing_use_reentrant", "hub_model_revision", "model_init_kwargs", "use_liger",
    "tokenizer_name_or_path", "system_prompt", "eval_split", "text_column", "label_column",
))
# LLaMA-Factory's own dataclass fields (llamafactory-cli train FILE.yaml: HfArgumentParser over its
# FinetuningArguments/DataArguments), in configs that model repositories ship without the LLaMA-Factory
# code beside them; known keys only, they do not make a file a TrainingArguments file
_LLAMA_FACTORY_KEYS = frozenset(("lora_rank", "lora_target", "finetuning_type", "stage", "template", "cutoff_len"))
# fields that widely used scripts declare in their own dataclasses next to TrainingArguments/SFTConfig
# (TRL's ModelConfig/ScriptArguments, transformers examples' ModelArguments/DataTrainingArguments,
# alignment-handbook's SFTConfig subclass adds `chat_template`; LLaMA-Factory's `lora_rank`): not typos. Left out: `max_seq_length`
# (TRL renamed it, reported as such) and `hub_model_revision` (old recipes; no dataclass declares it)
SCRIPT_FIELDS = (_HF_SCRIPT_KEYS | _LLAMA_FACTORY_KEYS) - {"max_seq_length", "hub_model_revision"}
# what decides that a file is not one of the kinds: a torchtune recipe config instantiates
# `_component_` nodes (torchtune.config.instantiate), never TrainingArguments
_FOREIGN_MARKERS = ("_component_",)

# why a recognised kind is not validated, for kinds without a schema file (none at present: axolotl has
# its field list since issue 16's third held-out round)
SKIPPED_WHY: dict[str, str] = {}


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


def _hf_kind(data: dict[str, Any], extra: frozenset[str] = frozenset()) -> Optional[str]:
    """TrainingArguments/SFTConfig: at least two strong TrainingArguments keys, and at least half
    of the keys are TrainingArguments/SFTConfig fields or the usual script dataclass fields (or
    ``extra``: the fields the project's own dataclasses declare)."""
    keys = set(data)
    if len(keys.intersection(_TA_STRONG)) < 2:
        return None
    from preflight.validate_schema_files import schema_fields

    known = schema_fields("training-args") | schema_fields("sft-config") | _HF_SCRIPT_KEYS | extra
    if 2 * len(keys & known) < len(keys):
        return None
    if keys.intersection(_PREFERENCE_HINTS):
        return "training-args"
    return "sft-config" if keys.intersection(_SFT_HINTS) else "training-args"


def _has_marker(data: Any, depth: int = 0) -> bool:
    if depth > 8:
        return False
    if isinstance(data, dict):
        return any(m in data for m in _FOREIGN_MARKERS) or any(_has_marker(v, depth + 1) for v in data.values())
    if isinstance(data, list):
        return any(_has_marker(v, depth + 1) for v in data[:64])
    return False


# NeoXArgs fields that any training config may hold (a Hydra trainer group's ``seed``,
# ``num_gpus``, ``batch_size``): known NeoX keys, but no evidence that the file is a NeoX config
_NEOX_GENERIC = frozenset({
    "seed", "num_gpus", "num_nodes", "batch_size", "lr", "num_workers", "local_rank", "rank",
    "world_size", "hidden_size", "num_layers", "precision", "optimizer", "scheduler", "warmup",
    "temperature", "top_k", "top_p", "save", "load", "log_dir", "wandb", "tensorboard", "profile",
    "split", "norm", "activation", "checkpoint", "iteration", "comment", "launcher", "min_lr",
})


def _neox(data: dict[str, Any]) -> bool:
    """A GPT-NeoX config: most keys are NeoXArgs fields (``-`` read as ``_``) and at least two are
    model/training fields DeepSpeed does not have (a NeoX config may hold only some keys: NeoX
    merges several YAML files)."""
    from preflight.validate_schema_files import schema_fields

    neox = schema_fields("gpt-neox")
    deepspeed = schema_fields("deepspeed")
    keys = [str(k) for k in data]
    if not keys:
        return False
    known = [k for k in keys if k in neox]
    own = [k for k in known if k.replace("-", "_") not in deepspeed and k not in _NEOX_GENERIC]
    hyphen = [k for k in own if "-" in k]
    return 10 * len(known) >= 7 * len(keys) and (len(own) >= 3 or len(hyphen) >= 2)


def _axolotl(data: dict[str, Any]) -> bool:
    """``base_model`` (AxolotlInputConfig requires it) and at least two keys only axolotl has."""
    return isinstance(data.get("base_model"), str) and sum(k in data for k in _AXOLOTL_HINTS) >= 3


def _deepspeed_fits(block: dict[str, Any]) -> bool:
    """At least half of the keys are DeepSpeed keys, and its blocks are mappings."""
    from preflight.validate_schema_files import schema_fields

    fields = schema_fields("deepspeed")
    keys = [k for k in block if k != "_target_"]
    if 2 * sum(k in fields for k in keys) < len(keys):
        return False
    return all(isinstance(block.get(k), (dict, type(None))) for k in ("zero_optimization", "fp16", "bf16")
               if k in block)


def _accelerate_fits(data: dict[str, Any]) -> bool:
    from preflight.validate_schema_files import schema_fields

    fields = schema_fields("accelerate") | schema_fields("accelerate-sagemaker") | {"fp16", "dynamo_backend"}
    return 2 * sum(k in fields for k in data) >= len(data)


def _accelerate_blocks(data: dict[str, Any]) -> bool:
    """``distributed_type`` with one of accelerate's nested blocks (``fsdp_config:``, ...)."""
    return isinstance(data.get("distributed_type"), str) and any(
        isinstance(data.get(k), dict) for k in ("fsdp_config", "deepspeed_config", "megatron_lm_config",
                                                "dynamo_config", "fp8_config", "parallelism_config"))


def detect(config: LoadedConfig, path: Optional[Path] = None) -> list[Target]:
    """What in ``config`` preflight can validate, and as which kind: decided on evidence
    (enough of the file's keys are that library's keys and its shape fits); an empty list
    when nothing is recognised. ``path`` (the file on disk) lets the config's project count as
    evidence: see :func:`_project_hf_target`."""
    targets = _detect(config)
    if not targets and path is not None:
        targets = _project_hf_target(config, path)
    if path is not None and any(t.kind == "lightning-trainer" and not t.why.startswith("_target_")
                                for t in targets):
        from preflight.validate_project import code_without

        if code_without(path, ("lightning",)):
            # a `trainer:` node read by shape alone (no `_target_`) in a project whose Python code never
            # names Lightning: the lightning-hydra-template layout reused by a TensorFlow or plain
            # PyTorch project (PINNs-TF2's `trainer: {max_epochs, log_every}`), not Trainer()'s arguments
            targets = [t for t in targets if not (t.kind == "lightning-trainer" and not t.why.startswith("_target_"))]
    return targets


def _project_hf_target(config: LoadedConfig, path: Path) -> list[Target]:
    """An HfArgumentParser file whose keys are mostly the project's own dataclass fields
    (parler-tts' ``DataTrainingArguments`` beside ``Seq2SeqTrainingArguments``): recognised only
    when the project's code calls HfArgumentParser's reader for the file's format
    (``parse_json_file`` / ``parse_yaml_file``) and the file still has two strong TrainingArguments
    keys and at least half of its keys are TrainingArguments or project fields."""
    data = config.data
    if not isinstance(data, dict) or len(set(data).intersection(_TA_STRONG)) < 2 or _has_marker(data):
        return []
    from preflight.validate_project import declared_fields, hf_file_parser

    reader = hf_file_parser(path, config.kind)
    if not reader:
        return []
    kind = _hf_kind(data, declared_fields(path))
    if kind is None:
        return []
    return [Target(kind, (), data, f"TrainingArguments keys and the project's own dataclass fields "
                                   f"(HfArgumentParser reads {config.kind} files at {reader})")]


def _detect(config: LoadedConfig) -> list[Target]:
    from preflight.adapters.accelerate import is_accelerate_config
    from preflight.adapters.deepspeed import deepspeed_block

    data = config.data
    if not isinstance(data, dict) or not data:
        return []
    if _neox(data):
        return [Target("gpt-neox", (), data, "NeoXArgs keys")]
    if _axolotl(data):
        return [Target("axolotl", (), data, "axolotl keys (base_model, datasets, ...)")]
    found = deepspeed_block(config)
    if found is not None:
        prefix, block = found
        if not _deepspeed_fits(block):
            found = None
    if found is not None:
        prefix, block = found
        targets = [Target("deepspeed", tuple(prefix), block, "DeepSpeed keys")]
        if prefix:
            rest = {k: v for k, v in data.items() if k != prefix[0]}
            kind = _hf_kind(rest)
            if kind is not None and not _has_marker(data):
                targets.append(Target(kind, (), data, "TrainingArguments keys"))
        return targets
    if (is_accelerate_config(data) or _accelerate_blocks(data)) and _accelerate_fits(data):
        if data.get("compute_environment") == "AMAZON_SAGEMAKER":
            return [Target("accelerate-sagemaker", (), data, "compute_environment: AMAZON_SAGEMAKER")]
        return [Target("accelerate", (), data, "accelerate config keys")]
    targets = _target_nodes(data, (), 0)
    if targets:
        return targets
    if _has_marker(data):
        return []
    kind = _hf_kind(data)
    if kind is not None:
        if _looks_hydra(data):
            return [Target(kind, (), data, "TrainingArguments keys in a Hydra config", "omegaconf")]
        return [Target(kind, (), data, "TrainingArguments keys")]
    trainer = data.get("trainer")
    # a LightningCLI file (`seed_everything`, `ckpt_path`), a `model:` beside it without a Hydra
    # defaults list, or a NeMo experiment config (`exp_manager:` beside it, with or without defaults:
    # NeMo's scripts build pl.Trainer(**cfg.trainer) from it)
    # A Hydra config-group file (a `# @package` header) is no LightningCLI file: its `model:` beside
    # `trainer:` says nothing about Lightning (VISSL-style dataset overlays of a plain PyTorch loop)
    cli_shaped = "model" in data and "defaults" not in data and getattr(config, "header", None) is None
    if isinstance(trainer, dict) and (any(k in data for k in _LIGHTNING_CLI_KEYS) or cli_shaped
                                      or isinstance(data.get("exp_manager"), dict)):
        from preflight.validate_schema_files import schema_fields

        # a `trainer:` block of another framework (an RL trainer's settings, a project's own
        # trainer with nested `optim:` sections) is not Trainer()'s: Trainer() takes no mapping
        # under a name it does not know (its own mappings are LightningCLI `class_path` nodes)
        fields = schema_fields("lightning-trainer")
        foreign = any(k not in fields and isinstance(v, dict) and "class_path" not in v
                      for k, v in trainer.items())
        if not foreign and 2 * sum(k in fields for k in trainer) >= len(trainer):
            if _looks_hydra(data) or isinstance(data.get("exp_manager"), dict):
                # a Hydra/OmegaConf experiment config (NeMo's `exp_manager:` beside `trainer:`, a
                # defaults list, `${...}`, `???`): the script resolves the node before Trainer(**cfg)
                # sees it, so an interpolation or a mandatory `???` is no literal value
                return [Target("lightning-trainer", ("trainer",), trainer,
                               "Trainer node of a Hydra/OmegaConf config (trainer:)", "omegaconf")]
            return [Target("lightning-trainer", ("trainer",), trainer, "LightningCLI config (trainer:)")]
    return []


def _looks_hydra(data: dict[str, Any]) -> bool:
    """A defaults list, an interpolation or OmegaConf's mandatory-value marker ``???``: a file
    read by Hydra/OmegaConf."""
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
        elif isinstance(value, str) and ("${" in value or value.strip() == "???"):
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


# --------------------------------------------------------------------------- files that do not parse

# keys that say a file is a training config of a kind preflight validates, read from its text when
# the file does not parse (a broken NeoX YAML, a DeepSpeed JSON with a trailing comma)
_CONFIG_MARKERS = ("zero_optimization", "train_micro_batch_size_per_gpu", "train_batch_size",
                   "gradient_accumulation_steps", "distributed_type", "compute_environment", "mixed_precision",
                   "num_processes", "per_device_train_batch_size", "learning_rate", "num_train_epochs",
                   "lr_scheduler_type", "num-layers", "hidden-size", "seq-length", "model-parallel-size",
                   "pipe-parallel-size", "train-iters", "base_model", "sequence_len", "micro_batch_size",
                   "max_epochs", "accumulate_grad_batches",
                   # LightningCLI files (terratorch `examples/confs/*.yaml`: `trainer:` with jsonargparse's
                   # `class_path`/`init_args` and Trainer keys)
                   "seed_everything", "check_val_every_n_epoch", "log_every_n_steps", "class_path")
_MARKER_KEY = re.compile(r"""(?:^|[\s{,])["']?(""" + "|".join(re.escape(k) for k in _CONFIG_MARKERS)
                         + r""")["']?\s*:""", re.M)
_CONFIG_NAME_WORDS = ("deepspeed", "ds_config", "accelerate", "zero", "fsdp")


def looks_like_config(name: str, text: str) -> bool:
    """Whether a JSON/YAML file that does not parse (or parses only as a template) is a training
    config worth reporting: its name says so (``ds_config*.json``, ``*accelerate*``), or its text
    has at least two keys of the kinds preflight validates. A ``tsconfig.json`` with comments, a
    JSON Lines data file named ``.json`` or a Helm template is none of these: counted as not
    recognised, never an error, when it is found in a folder."""
    lowered = name.lower()
    if any(word in lowered for word in _CONFIG_NAME_WORDS):
        return True
    found = {m.group(1) for m in _MARKER_KEY.finditer(text[:200_000])}
    return len(found) >= 2
