"""The calibration matrix: which models, shapes and training regimes are measured.

Pure Python (no torch import) so that tests and the estimator accuracy bench can read it.
Every case is one training configuration. The CPU reference harness
(`calibration/reference.py`) and the GPU harness (`calibration/gpu.py`) run the SAME cases,
so a CPU reference figure and a GPU figure for one case name are comparable.

Shapes are small but real: true hidden sizes, head counts and vocabularies of public models,
with fewer layers (the per-layer terms are linear in depth; `llama-8l-*` and
`llama-2l-*` pin that) so the whole matrix runs in minutes on two CPU cores.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any, Dict, List, Optional, Tuple

PRECISIONS = ("fp32", "amp-bf16", "bf16")
OPTIMIZERS = ("adamw", "sgd-momentum", "adafactor")
ATTENTIONS = ("eager", "sdpa")


@dataclass(frozen=True)
class Case:
    """One configuration of the matrix.

    `hf_config` holds the keyword arguments given to the Hugging Face config class
    (`transformers.AutoConfig.for_model(model_type, **hf_config)`); the harness records the
    full resulting `config.to_dict()` beside its measurement.
    """

    name: str
    model_type: str
    task: str  # "causal-lm" | "masked-lm" | "seq2seq" | "image-classification"
    hf_config: Dict[str, Any]
    batch: int
    seq_len: Optional[int] = None  # tokens per sample (encoder input for seq2seq)
    target_len: Optional[int] = None  # decoder tokens for seq2seq
    image_size: Optional[int] = None
    precision: str = "amp-bf16"  # fp32 | amp-bf16 (fp32 weights + autocast) | bf16 (bf16 weights)
    optimizer: str = "adamw"  # adamw | sgd-momentum | adafactor
    optimizer_impl: str = "foreach"  # foreach (the CUDA default) | for-loop
    grad_ckpt: bool = False
    attention: Optional[str] = "sdpa"  # eager | sdpa | None (no attention: CNNs)
    lora_r: Optional[int] = None
    lora_alpha: int = 32
    lora_dropout: float = 0.05
    lora_targets: Tuple[str, ...] = ()
    notes: str = ""
    extra: Dict[str, Any] = field(default_factory=dict)

    def describe(self) -> Dict[str, Any]:
        """The case as a JSON-ready dict (what the data files store under "case")."""
        out = asdict(self)
        out["lora_targets"] = list(self.lora_targets)
        if self.lora_r is None:
            for key in ("lora_alpha", "lora_dropout", "lora_targets"):
                out[key] = None
        return out


# Architectures: real widths, heads, vocabularies; depth reduced.
LLAMA = {  # Llama-2-7B widths at 1/4 (head_dim 64), TinyLlama-like proportions
    "hidden_size": 1024, "intermediate_size": 2816, "num_hidden_layers": 4,
    "num_attention_heads": 16, "num_key_value_heads": 16, "vocab_size": 32000,
    "max_position_embeddings": 2048, "tie_word_embeddings": False,
}
MISTRAL = {  # GQA 4:1 like Mistral-7B (32 q heads, 8 kv heads), narrower
    "hidden_size": 1024, "intermediate_size": 3584, "num_hidden_layers": 4,
    "num_attention_heads": 16, "num_key_value_heads": 4, "vocab_size": 32000,
    "max_position_embeddings": 4096, "sliding_window": None, "tie_word_embeddings": False,
}
QWEN2 = {  # Qwen2-0.5B widths (GQA 7:1, tied embeddings), 4 layers, smaller vocabulary
    "hidden_size": 896, "intermediate_size": 4864, "num_hidden_layers": 4,
    "num_attention_heads": 14, "num_key_value_heads": 2, "vocab_size": 32000,
    "max_position_embeddings": 4096, "tie_word_embeddings": True,
}
MIXTRAL = {  # 8 experts, top-2, like Mixtral-8x7B, narrow
    "hidden_size": 512, "intermediate_size": 1792, "num_hidden_layers": 4,
    "num_attention_heads": 8, "num_key_value_heads": 2, "vocab_size": 32000,
    "num_local_experts": 8, "num_experts_per_tok": 2, "max_position_embeddings": 4096,
    "sliding_window": None, "tie_word_embeddings": False,
}
QWEN2_MOE = {  # Qwen1.5-MoE-A2.7B structure (routed + shared expert), narrow
    "hidden_size": 512, "intermediate_size": 1408, "num_hidden_layers": 4,
    "num_attention_heads": 8, "num_key_value_heads": 8, "vocab_size": 32000,
    "num_experts": 16, "num_experts_per_tok": 4, "moe_intermediate_size": 352,
    "shared_expert_intermediate_size": 1408, "decoder_sparse_step": 1,
    "max_position_embeddings": 4096, "tie_word_embeddings": False,
}
GPT2 = {  # GPT-2 small widths and vocabulary, 4 layers
    "n_embd": 768, "n_layer": 4, "n_head": 12, "vocab_size": 50257, "n_positions": 1024,
}
BERT = {  # BERT-base widths and vocabulary, 4 layers
    "hidden_size": 768, "num_hidden_layers": 4, "num_attention_heads": 12,
    "intermediate_size": 3072, "vocab_size": 30522,
}
T5 = {  # t5-small widths and vocabulary, 4 + 4 layers
    "d_model": 512, "d_ff": 2048, "d_kv": 64, "num_heads": 8, "num_layers": 4,
    "num_decoder_layers": 4, "vocab_size": 32128, "feed_forward_proj": "relu",
    "decoder_start_token_id": 0, "pad_token_id": 0, "eos_token_id": 1,
}
VIT = {  # ViT-B/16 widths at 224 px, 4 layers
    "hidden_size": 768, "num_hidden_layers": 4, "num_attention_heads": 12,
    "intermediate_size": 3072, "image_size": 224, "patch_size": 16, "num_labels": 1000,
}
RESNET = {  # ResNet-50 exactly (HF ResNetConfig defaults), 1000 classes
    "embedding_size": 64, "hidden_sizes": [256, 512, 1024, 2048], "depths": [3, 4, 6, 3],
    "layer_type": "bottleneck", "num_labels": 1000,
}
CONVNEXT = {  # ConvNeXt-T widths, depths [2, 2, 2, 2] (T has [3, 3, 9, 3])
    "hidden_sizes": [96, 192, 384, 768], "depths": [2, 2, 2, 2], "num_labels": 1000,
}

_ATTN = ("q_proj", "k_proj", "v_proj", "o_proj")


def _lm(name: str, model_type: str, cfg: Dict[str, Any], **kw: Any) -> Case:
    kw.setdefault("batch", 4)
    kw.setdefault("seq_len", 512)
    return Case(name=name, model_type=model_type, task="causal-lm", hf_config=dict(cfg), **kw)


def _cases() -> List[Case]:
    llama = _lm("llama-amp_bf16-adamw-sdpa", "llama", LLAMA)
    cases = [
        # Llama-like decoder: one factor at a time around amp-bf16 / AdamW / SDPA.
        llama,
        replace(llama, name="llama-fp32-adamw-sdpa", precision="fp32"),
        replace(llama, name="llama-bf16-adamw-sdpa", precision="bf16"),
        replace(llama, name="llama-amp_bf16-adamw-eager", attention="eager"),
        replace(llama, name="llama-fp32-adamw-eager", precision="fp32", attention="eager"),
        replace(llama, name="llama-amp_bf16-adamw-sdpa-ckpt", grad_ckpt=True),
        replace(llama, name="llama-bf16-adamw-eager-ckpt", precision="bf16", attention="eager",
                grad_ckpt=True),
        replace(llama, name="llama-amp_bf16-sgdm-sdpa", optimizer="sgd-momentum"),
        replace(llama, name="llama-amp_bf16-adafactor-sdpa", optimizer="adafactor"),
        replace(llama, name="llama-amp_bf16-adamw_forloop-sdpa", optimizer_impl="for-loop"),
        replace(llama, name="llama-bf16-lora16-sdpa", precision="bf16", lora_r=16,
                lora_targets=_ATTN),
        replace(llama, name="llama-bf16-lora16-sdpa-ckpt", precision="bf16", lora_r=16,
                lora_targets=_ATTN, grad_ckpt=True),
        replace(llama, name="llama-fp32-lora64-eager", precision="fp32", attention="eager",
                lora_r=64, lora_targets=(*_ATTN, "gate_proj", "up_proj", "down_proj")),
        replace(llama, name="llama-8l-amp_bf16-adamw-sdpa",
                hf_config={**LLAMA, "num_hidden_layers": 8}),
        replace(llama, name="llama-2l-amp_bf16-adamw-sdpa-b8s1024", batch=8, seq_len=1024,
                hf_config={**LLAMA, "num_hidden_layers": 2}),
        # GQA decoders.
        _lm("mistral-amp_bf16-adamw-sdpa", "mistral", MISTRAL),
        _lm("mistral-bf16-adamw-sdpa-ckpt", "mistral", MISTRAL, precision="bf16",
            grad_ckpt=True),
        _lm("qwen2-bf16-adamw-eager", "qwen2", QWEN2, precision="bf16", attention="eager"),
        # Mixture of experts.
        # bf16 weights: transformers' default grouped_mm experts kernel takes bf16 only
        # (fp32 weights under autocast fail on it, on CUDA and in fake mode alike).
        _lm("mixtral-bf16-adamw-sdpa", "mixtral", MIXTRAL, precision="bf16"),
        _lm("qwen2_moe-bf16-adamw-sdpa", "qwen2_moe", QWEN2_MOE, precision="bf16"),
        # GPT-2.
        _lm("gpt2-fp32-adamw-eager", "gpt2", GPT2, precision="fp32", attention="eager"),
        _lm("gpt2-amp_bf16-adamw-sdpa-ckpt", "gpt2", GPT2, grad_ckpt=True),
        # Encoders, encoder-decoder.
        Case(name="bert-fp32-adamw-sdpa", model_type="bert", task="masked-lm",
             hf_config=dict(BERT), batch=8, seq_len=256, precision="fp32"),
        Case(name="bert-amp_bf16-adamw-eager", model_type="bert", task="masked-lm",
             hf_config=dict(BERT), batch=8, seq_len=256, attention="eager"),
        Case(name="t5-fp32-adafactor-eager", model_type="t5", task="seq2seq",
             hf_config=dict(T5), batch=8, seq_len=256, target_len=64, precision="fp32",
             optimizer="adafactor", attention="eager"),
        Case(name="t5-amp_bf16-adamw-eager-ckpt", model_type="t5", task="seq2seq",
             hf_config=dict(T5), batch=8, seq_len=256, target_len=64, attention="eager",
             grad_ckpt=True),
        # Vision.
        Case(name="vit-fp32-adamw-sdpa", model_type="vit", task="image-classification",
             hf_config=dict(VIT), batch=16, image_size=224, precision="fp32"),
        Case(name="vit-amp_bf16-sgdm-eager", model_type="vit", task="image-classification",
             hf_config=dict(VIT), batch=16, image_size=224, optimizer="sgd-momentum",
             attention="eager"),
        Case(name="resnet50-fp32-sgdm", model_type="resnet", task="image-classification",
             hf_config=dict(RESNET), batch=16, image_size=224, precision="fp32",
             optimizer="sgd-momentum", attention=None),
        Case(name="resnet50-amp_bf16-sgdm", model_type="resnet", task="image-classification",
             hf_config=dict(RESNET), batch=16, image_size=224, optimizer="sgd-momentum",
             attention=None),
        Case(name="convnext-amp_bf16-adamw", model_type="convnext",
             task="image-classification", hf_config=dict(CONVNEXT), batch=16, image_size=224,
             attention=None),
    ]
    return cases


MATRIX: List[Case] = _cases()


def by_name(name: str) -> Case:
    for case in MATRIX:
        if case.name == name:
            return case
    raise KeyError(name)


def select(patterns: Optional[List[str]]) -> List[Case]:
    """Cases whose name contains any of `patterns` (all when none are given)."""
    if not patterns:
        return list(MATRIX)
    return [c for c in MATRIX if any(p in c.name for p in patterns)]
