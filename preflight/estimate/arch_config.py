"""The records of an architecture and the config access its readers share.

:class:`Architecture` (the numbers of a model), :class:`ParamCount`, :class:`ArchitectureError`,
and :class:`Cfg`: a Hugging Face config dict with the model type's class defaults and HF-style
key aliases, plus the head and label helpers every reader uses. Split from
:mod:`preflight.estimate.arch` (the readers, :func:`~preflight.estimate.arch.from_hf_config`),
which re-exports the records; the vision and other readers import from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence


class ArchitectureError(ValueError):
    """A config this module cannot read (unknown ``model_type``, a missing or bad number)."""


@dataclass(frozen=True)
class Architecture:
    name: str                 # catalog name or Hub id
    model_type: str           # HF model_type: "llama", "mixtral", "qwen2_moe", "bert", "t5", ...
    family: str               # "decoder" | "encoder" | "encoder-decoder" | "vision" | "cnn" | "multimodal"
    hidden_size: int
    num_layers: int           # decoder layers (encoder layers for encoder-only / vision)
    num_heads: int
    num_kv_heads: int
    head_dim: int
    intermediate_size: int    # dense MLP width
    vocab_size: int
    tie_embeddings: bool
    gated_mlp: bool           # SwiGLU/GeGLU (3 matrices) vs plain (2)
    num_encoder_layers: int = 0          # encoder-decoder: encoder depth (num_layers = decoder depth)
    num_experts: int = 0                 # MoE routed experts per MoE layer (0 = dense)
    experts_per_token: int = 0
    shared_experts: int = 0
    moe_intermediate_size: int = 0
    moe_layers: int = 0                  # how many layers are MoE (others dense)
    max_position: int = 0
    sliding_window: Optional[int] = None
    image_size: int = 0
    patch_size: int = 0
    num_channels: int = 0
    params_total: int = 0                # best known total (exact from safetensors/catalog, else formula)
    params_active: int = 0               # per token (MoE), = total for dense
    params_source: str = "formula"       # "catalog" | "safetensors" | "formula"
    published_params: Optional[int] = None
    source: str = ""                     # where the numbers come from (URL / file)
    extra: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=False)

    @property
    def is_moe(self) -> bool:
        return self.num_experts > 0


@dataclass(frozen=True)
class ParamCount:
    total: int
    active: int
    by_part: Mapping[str, int] = field(default_factory=dict, hash=False, compare=False)


# --------------------------------------------------------------------------------------------
# Config defaults: HF configs on the Hub omit keys equal to the config class default (common in
# the nested text_config/vision_config of multimodal models).  Values from the transformers
# config classes (transformers 5.x, checked with AutoConfig.for_model(model_type).to_dict()).
# --------------------------------------------------------------------------------------------
DEFAULTS: Dict[str, Dict[str, Any]] = {
    "llama": {"vocab_size": 32000, "hidden_size": 4096, "intermediate_size": 11008,
              "num_hidden_layers": 32, "num_attention_heads": 32, "max_position_embeddings": 2048,
              "tie_word_embeddings": False},
    "mistral": {"vocab_size": 32000, "hidden_size": 4096, "intermediate_size": 14336,
                "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
                "max_position_embeddings": 131072, "tie_word_embeddings": False,
                "sliding_window": 4096},
    "qwen2": {"vocab_size": 151936, "hidden_size": 4096, "intermediate_size": 22016,
              "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 32,
              "max_position_embeddings": 32768, "tie_word_embeddings": False},
    "gemma": {"vocab_size": 256000, "hidden_size": 3072, "intermediate_size": 24576,
              "num_hidden_layers": 28, "num_attention_heads": 16, "num_key_value_heads": 16,
              "head_dim": 256, "max_position_embeddings": 8192, "tie_word_embeddings": True},
    "gemma2": {"vocab_size": 256000, "hidden_size": 2304, "intermediate_size": 9216,
               "num_hidden_layers": 26, "num_attention_heads": 8, "num_key_value_heads": 4,
               "head_dim": 256, "max_position_embeddings": 8192, "tie_word_embeddings": True,
               "sliding_window": 4096},
    "gemma3_text": {"vocab_size": 262208, "hidden_size": 2304, "intermediate_size": 9216,
                    "num_hidden_layers": 26, "num_attention_heads": 8, "num_key_value_heads": 4,
                    "head_dim": 256, "max_position_embeddings": 131072,
                    "tie_word_embeddings": True, "sliding_window": 4096},
    "clip_vision_model": {"hidden_size": 768, "intermediate_size": 3072, "num_hidden_layers": 12,
                          "num_attention_heads": 12, "image_size": 224, "patch_size": 32,
                          "num_channels": 3},
    "clip_text_model": {"vocab_size": 49408, "hidden_size": 512, "intermediate_size": 2048,
                        "num_hidden_layers": 12, "num_attention_heads": 8,
                        "max_position_embeddings": 77},
    "siglip_vision_model": {"hidden_size": 768, "intermediate_size": 3072,
                            "num_hidden_layers": 12, "num_attention_heads": 12,
                            "image_size": 224, "patch_size": 16, "num_channels": 3,
                            "vision_use_head": True},
    "t5": {"vocab_size": 32128, "d_model": 512, "d_kv": 64, "d_ff": 2048, "num_layers": 6,
           "num_heads": 8, "feed_forward_proj": "relu", "relative_attention_num_buckets": 32,
           "tie_word_embeddings": True},
    "bert": {"vocab_size": 30522, "hidden_size": 768, "intermediate_size": 3072,
             "num_hidden_layers": 12, "num_attention_heads": 12, "max_position_embeddings": 512,
             "type_vocab_size": 2},
    "gpt2": {"vocab_size": 50257, "n_embd": 768, "n_layer": 12, "n_head": 12, "n_positions": 1024,
             "tie_word_embeddings": True},
}
DEFAULTS["mixtral"] = dict(DEFAULTS["mistral"], num_local_experts=8, num_experts_per_tok=2)
DEFAULTS["vit"] = dict(DEFAULTS["clip_vision_model"], patch_size=16, qkv_bias=True)
DEFAULTS["roberta"] = dict(DEFAULTS["bert"])
DEFAULTS["xlm-roberta"] = dict(DEFAULTS["bert"])


class Cfg:
    """A config dict with the model type's defaults and HF-style key aliases."""

    def __init__(self, data: Mapping[str, Any], model_type: str, where: str) -> None:
        self.data = data
        self.defaults = DEFAULTS.get(model_type, {})
        self.where = where

    def has(self, key: str) -> bool:
        return self.data.get(key) is not None or key in self.defaults

    def raw(self, *keys: str, default: Any = None) -> Any:
        for key in keys:
            if self.data.get(key) is not None:
                return self.data[key]
        for key in keys:
            if self.defaults.get(key) is not None:
                return self.defaults[key]
        return default

    def integer(self, *keys: str, default: Optional[int] = None) -> int:
        value = self.raw(*keys)
        if value is None:
            if default is not None:
                return default
            raise ArchitectureError(f"{self.where}: missing {keys[0]!r} in the config")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
            raise ArchitectureError(f"{self.where}: {keys[0]!r} must be a whole number, got {value!r}")
        if value < 0:
            raise ArchitectureError(f"{self.where}: {keys[0]!r} must not be negative, got {value!r}")
        return int(value)

    def opt_integer(self, *keys: str) -> Optional[int]:
        return self.integer(*keys) if self.raw(*keys) is not None else None

    def flag(self, key: str, default: bool) -> bool:
        value = self.raw(key)
        return default if value is None else bool(value)

    def integers(self, key: str) -> List[int]:
        value = self.raw(key)
        if not isinstance(value, (list, tuple)) or not value or not all(
                isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value):
            raise ArchitectureError(f"{self.where}: {key!r} must be a list of positive integers")
        return [int(v) for v in value]


def num_labels(cfg: Cfg) -> int:
    labels = cfg.raw("id2label")
    if isinstance(labels, Mapping) and labels:
        return len(labels)
    n = cfg.raw("num_labels")
    return int(n) if isinstance(n, int) and n > 0 else 2


def architecture_names(cfg: Cfg) -> Sequence[str]:
    value = cfg.raw("architectures")
    return [str(v) for v in value] if isinstance(value, (list, tuple)) else []


def has_head(cfg: Cfg, suffix: str) -> bool:
    return any(a.endswith(suffix) for a in architecture_names(cfg))


#: encoder heads whose output is not over the vocabulary: (class-name suffix, head kind)
ENCODER_HEADS = (("ForSequenceClassification", "sequence"), ("ForMultipleChoice", "sequence"),
                  ("ForTokenClassification", "token"), ("ForQuestionAnswering", "token"))


def encoder_head(cfg: Cfg) -> str:
    """``lm`` (masked-LM logits over the vocabulary, the default), ``sequence`` (one row of
    labels per sample) or ``token`` (a few labels per token), from ``architectures``."""
    for suffix, kind in ENCODER_HEADS:
        if has_head(cfg, suffix):
            return kind
    return "lm"


def config_object(value: Any, name: str, key: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ArchitectureError(f"{name}: {key!r} must be an object")
    return value
