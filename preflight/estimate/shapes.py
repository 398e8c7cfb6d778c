"""Shapes the cost model derives without a config: a Llama shape guessed from a parameter
count, and the LoRA adapters' sizes per target module. (Split from
:mod:`preflight.estimate.model`, which re-exports them.)"""

from __future__ import annotations

import math
from typing import Any

from preflight.estimate import constants as C
from preflight.estimate.inputs import EstimateInput

_LLAMA_SHAPES = (  # (hidden, intermediate, heads, kv_heads) of published Llama sizes
    (2048, 5632, 32, 4), (3072, 8192, 24, 8), (4096, 11008, 32, 32), (5120, 13824, 40, 40),
    (6656, 17920, 52, 52), (8192, 28672, 64, 8), (16384, 53248, 128, 8),
)


def guessed_architecture(params: int) -> Any:
    """A Llama-shaped architecture of about ``params`` parameters (for ``--params`` alone):
    the published Llama width closest in size, with the depth that matches the count."""
    from preflight.estimate.arch import from_hf_config

    vocab = 32000
    best = None
    for h, inter, heads, kv in _LLAMA_SHAPES:
        per_layer = 2 * h * h + 2 * h * (h // heads) * kv + 3 * h * inter
        layers = max(1, round((params - 2 * vocab * h) / per_layer))
        err = abs(math.log(max(layers, 1) / (h / 128)))  # depth/width ratio of Llama models
        if best is None or err < best[0]:
            best = (err, h, inter, heads, kv, layers)
    assert best is not None
    _, h, inter, heads, kv, layers = best
    config = {"model_type": "llama", "hidden_size": h, "intermediate_size": inter,
              "num_hidden_layers": layers, "num_attention_heads": heads,
              "num_key_value_heads": kv, "vocab_size": vocab, "tie_word_embeddings": False,
              "max_position_embeddings": 4096}
    return from_hf_config(config, name=f"~{params / 1e9:.3g}B (guessed shape)",
                          source="guessed: Llama shape from the parameter count")


# --------------------------------------------------------------------------- LoRA

_TARGET_DIMS = {
    "q_proj": ("h", "q"), "k_proj": ("h", "kv"), "v_proj": ("h", "kv"), "o_proj": ("q", "h"),
    "gate_proj": ("h", "i"), "up_proj": ("h", "i"), "down_proj": ("i", "h"),
    "query": ("h", "q"), "key": ("h", "kv"), "value": ("h", "kv"),
    "q": ("h", "q"), "k": ("h", "kv"), "v": ("h", "kv"), "o": ("q", "h"),
    "wi": ("h", "i"), "wo": ("i", "h"), "c_attn": ("h", "3h"), "c_proj": ("h", "h"),
    "c_fc": ("h", "i"), "fc1": ("h", "i"), "fc2": ("i", "h"), "dense": ("h", "h"),
    "query_key_value": ("h", "qkv"), "dense_h_to_4h": ("h", "i"), "dense_4h_to_h": ("i", "h"),
    "Wqkv": ("h", "qkv"), "qkv_proj": ("h", "qkv"), "fc_in": ("h", "i"), "fc_out": ("i", "h"),
    # the other model types' names (activations._NAMES, transformers 5.24 modeling files)
    "out_proj": ("q", "h"), "q_lin": ("h", "q"), "k_lin": ("h", "kv"), "v_lin": ("h", "kv"),
    "out_lin": ("q", "h"), "lin1": ("h", "i"), "lin2": ("i", "h"), "query_proj": ("h", "q"),
    "key_proj": ("h", "kv"), "value_proj": ("h", "kv"), "ffn": ("h", "i"), "ffn_output": ("i", "h"),
    "intermediate_dense": ("h", "i"), "output_dense": ("i", "h"), "gate_up_proj": ("h", "2i"),
    "wi_0": ("h", "i"), "wi_1": ("h", "i"), "w1": ("h", "i"), "w3": ("h", "i"), "w2": ("i", "h"),
}
#: (in, out) of the linears a name shared by several groups adapts (GPT-2's ``c_proj`` is the
#: attention's and the MLP's output projection; BERT's ``dense`` the attention output, the
#: intermediate and the output linear)
_GROUP_DIMS = {"o": ("q", "h"), "up": ("h", "i"), "down": ("i", "h")}
#: Llama's "all-linear" (every model type's: activations.all_linear_names)
_ALL_LINEAR = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")


def lora_targets(inp: EstimateInput, arch: Any) -> tuple[str, ...]:
    targets = inp.lora_targets
    if not targets:
        targets = C.LORA_DEFAULT_TARGETS.get(arch.model_type, C.LORA_DEFAULT_TARGETS["default"])
    if "all-linear" in targets or "all_linear" in targets:
        # PEFT: every linear but the output layer, by the model type's own module names
        from preflight.estimate.activations import all_linear_names, qkv_names

        names = all_linear_names(arch)
        if inp.model_impl == "litgpt":
            names = qkv_names(arch, "litgpt") + tuple(n for n in names if n not in qkv_names(arch))
        targets = names
    return tuple(targets)


def lora_dims(arch: Any, name: str) -> tuple[int, ...]:
    """(in, out) features of the linear layer a LoRA target names; () when unknown. Its
    adapter is A (r x in) and B (out x r)."""
    pair = _TARGET_DIMS.get(name)
    if pair is None:
        return ()
    q = arch.num_heads * arch.head_dim
    kv = arch.num_kv_heads * arch.head_dim
    width = arch.moe_intermediate_size if (arch.num_experts and arch.moe_intermediate_size) \
        else arch.intermediate_size
    dims = {"h": arch.hidden_size, "q": q, "kv": kv, "i": width, "3h": 3 * arch.hidden_size,
            "qkv": q + 2 * kv, "2i": 2 * width}
    return (dims[pair[0]], dims[pair[1]])


def _adapter_dims(arch: Any, name: str) -> list[tuple[int, ...]]:
    """(in, out) of every linear of one block that the target ``name`` adapts."""
    from preflight.estimate.activations import _names

    groups = [g for g in ("o", "up", "down") if name in _names(arch, g)]
    if len(groups) < 2:
        return [lora_dims(arch, name)]
    q = arch.num_heads * arch.head_dim
    width = arch.moe_intermediate_size if (arch.num_experts and arch.moe_intermediate_size) \
        else arch.intermediate_size
    dims = {"h": arch.hidden_size, "q": q, "i": width}
    return [(dims[_GROUP_DIMS[g][0]], dims[_GROUP_DIMS[g][1]]) for g in groups]


def _expert_adapters(arch: Any, r: int, name: str) -> int:
    """Extra adapter parameters of a name that targets the MLP of a MoE model (4.x expert
    modules): one adapter per routed expert and per shared expert in each MoE layer, at the
    expert widths, and at the dense MLP's width in its dense layers; beyond the one adapter
    per layer at the expert width that ``_adapter_dims`` counts."""
    from preflight.estimate.activations import _names

    moe_layers = arch.moe_layers if arch.num_experts else 0
    up, down = _names(arch, "up"), _names(arch, "down")
    if not moe_layers or name not in up + down:
        return 0
    h = arch.hidden_size
    expert = arch.moe_intermediate_size or arch.intermediate_size
    x = getattr(arch, "extra", {}) or {}
    shared = int(x.get("shared_expert_intermediate", 0)) or arch.shared_experts * expert
    per_expert = r * (h + expert)
    counted = per_expert * arch.num_layers
    total = moe_layers * arch.num_experts * per_expert
    if shared:
        total += moe_layers * r * (h + shared)
    total += (arch.num_layers - moe_layers) * r * (h + arch.intermediate_size)
    return total - counted


def lora_params(arch: Any, r: int, targets: tuple[str, ...]) -> int:
    experts = sum(_expert_adapters(arch, r, name) for name in targets)
    per_layer = sum(r * sum(pair) for name in targets for pair in _adapter_dims(arch, name))
    return per_layer * (arch.num_layers + arch.num_encoder_layers) + experts
