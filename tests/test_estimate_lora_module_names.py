"""LoRA adapters are charged their saved inputs under every model type's own module names
(issue 17, est16).

held-out-9's Phi-2 LoRA row (targets ``q_proj k_proj v_proj dense fc1 fc2``) was -24.9%:
``activations._NAMES`` had no ``phi`` entry, so adapters on ``dense``/``fc1``/``fc2`` were
counted in the parameters but their saved inputs were not. The names below were read from
transformers' modeling files (5.24, each model instantiated on the meta device; Phi:
``PhiAttention.dense``, ``PhiMLP.fc1``/``fc2``), written here by hand, not taken from the
table under test.

Per token, a PEFT adapter (transformers implementation, no autocast) keeps its fp32-cast input
(4 bytes per element), the dropout mask of that input (1 byte on CUDA) and its rank-r
projection (fp32): ``width * (4 + 1) + r * 4``, where ``width`` is what the adapted linear
reads: the hidden size for q/k/v and the MLP's up projections, the attention width for the
output projection, the intermediate width for the down projection.
"""

from __future__ import annotations

import pytest

from preflight.estimate import activations as A
from preflight.estimate import resolve_architecture
from preflight.estimate.arch import from_hf_config
from preflight.estimate.constants import LORA_DEFAULT_TARGETS
from preflight.estimate.inputs import EstimateInput
from preflight.estimate.shapes import lora_params, lora_targets

R = 8
TOKENS = 512
D = A.Dtypes(res=2, comp=2, weights=2.0, autocast=False, mask=1)


def _saved(arch, targets, *, cross=0):
    kw = dict(cross_seq=cross, cross_tokens=cross) if cross else {}
    return A.transformer_layer(arch, D, tokens=TOKENS, seq=TOKENS, batch=1, attention="sdpa",
                               train_weights=False, lora_targets=frozenset(targets), lora_r=R,
                               lora_dropout=0.05, dropout=0.0, device="cuda", **kw).saved


def _lora_term(arch, targets, **kw):
    return _saved(arch, targets, **kw) - _saved(arch, (), **kw)


def _by_hand(widths):
    return TOKENS * sum(w * (4 + 1) + R * 4 for w in widths)


def _dims(arch):
    return arch.hidden_size, arch.num_heads * arch.head_dim, arch.intermediate_size


# model type (a catalogued model) -> {module name: what it reads}, from the modeling files
FAMILIES = {
    "Phi-1.5": {"q_proj": "h", "k_proj": "h", "v_proj": "h", "dense": "q", "fc1": "h", "fc2": "i"},
    "Phi-3-medium": {"qkv_proj": "h", "o_proj": "q", "gate_up_proj": "h", "down_proj": "i"},
    "Gemma-2B": {"q_proj": "h", "k_proj": "h", "v_proj": "h", "o_proj": "q", "gate_proj": "h",
                 "up_proj": "h", "down_proj": "i"},
    "Gemma-2-27B": {"q_proj": "h", "v_proj": "h", "o_proj": "q", "down_proj": "i"},
    "Qwen3-0.6B": {"q_proj": "h", "k_proj": "h", "v_proj": "h", "o_proj": "q", "up_proj": "h"},
    "DeepSeek-R1-Distill-Qwen-1.5B": {"q_proj": "h", "v_proj": "h", "gate_proj": "h",
                                      "down_proj": "i"},
    "Mistral-7B-v0.1": {"q_proj": "h", "k_proj": "h", "v_proj": "h", "o_proj": "q"},
    "Falcon-40B": {"query_key_value": "h", "dense": "q", "dense_h_to_4h": "h", "dense_4h_to_h": "i"},
    "GPT-NeoX-20B": {"query_key_value": "h", "dense": "q", "dense_h_to_4h": "h",
                     "dense_4h_to_h": "i"},
    "BLOOM-176B": {"query_key_value": "h", "dense": "q", "dense_h_to_4h": "h", "dense_4h_to_h": "i"},
    "GPT-J-6B": {"q_proj": "h", "k_proj": "h", "v_proj": "h", "out_proj": "q", "fc_in": "h",
                 "fc_out": "i"},
    "OPT-1.3B": {"q_proj": "h", "k_proj": "h", "v_proj": "h", "out_proj": "q", "fc1": "h",
                 "fc2": "i"},
    "MPT-7B": {"Wqkv": "h", "out_proj": "q", "up_proj": "h", "down_proj": "i"},
    "StarCoder2-15B": {"q_proj": "h", "v_proj": "h", "o_proj": "q", "c_fc": "h", "c_proj": "i"},
    "DistilBERT-base-uncased": {"q_lin": "h", "k_lin": "h", "v_lin": "h", "out_lin": "q",
                                "lin1": "h", "lin2": "i"},
    "DeBERTa-v2-xlarge": {"query_proj": "h", "key_proj": "h", "value_proj": "h"},
    "wav2vec2-base": {"q_proj": "h", "v_proj": "h", "out_proj": "q", "intermediate_dense": "h",
                      "output_dense": "i"},
    "CLIP-ViT-B-16": {"q_proj": "h", "v_proj": "h", "out_proj": "q", "fc1": "h", "fc2": "i"},
}


@pytest.mark.parametrize("model", sorted(FAMILIES))
def test_each_family_is_charged_its_adapters_inputs_by_hand(model):
    arch = resolve_architecture(model)
    h, q, i = _dims(arch)
    reads = FAMILIES[model]
    widths = [{"h": h, "q": q, "i": i}[reads[name]] for name in reads]
    assert _lora_term(arch, tuple(reads)) == _by_hand(widths)


def test_phi2_dense_fc1_fc2_are_charged():
    # must fire: the held-out-9 row's targets; before est16 only q, k, v were charged
    arch = resolve_architecture("Phi-2")
    h, q, i = _dims(arch)
    assert (h, i) == (2560, 10240)
    term = _lora_term(arch, ("q_proj", "k_proj", "v_proj", "dense", "fc1", "fc2"))
    assert term == _by_hand([h, h, h, q, h, i])
    # fc2 alone reads the 10,240-wide GELU output
    assert _lora_term(arch, ("fc2",)) == _by_hand([i])


def test_names_of_another_family_charge_nothing():
    # tricky-correct: Llama's names on Phi, Phi's on Llama match no module (PEFT adapts none)
    assert _lora_term(resolve_architecture("Phi-2"), ("o_proj", "gate_proj", "up_proj",
                                                      "down_proj")) == 0
    assert _lora_term(resolve_architecture("CodeLlama-7B"), ("dense", "fc1", "fc2")) == 0
    assert _lora_term(resolve_architecture("GPT-NeoX-20B"), ("q_proj", "v_proj")) == 0


def test_shared_names_adapt_every_linear_they_name():
    # GPT-2's c_proj is the attention's and the MLP's output projection; BERT's dense the
    # attention output, the intermediate (reads h) and the output linear (reads i)
    gpt2 = resolve_architecture("GPT-2")
    h, q, i = _dims(gpt2)
    assert _lora_term(gpt2, ("c_attn", "c_proj", "c_fc")) == _by_hand([h, q, i, h])
    bert = resolve_architecture("BERT-base-cased")
    h, q, i = _dims(bert)
    assert _lora_term(bert, ("query", "value", "dense")) == _by_hand([h, h, q, h, i])
    assert lora_params(gpt2, R, ("c_proj",)) == R * ((q + h) + (i + h)) * gpt2.num_layers
    assert lora_params(bert, R, ("dense",)) == R * ((q + h) + (h + i) + (i + h)) * bert.num_layers


def test_vit_names_of_transformers_4_and_5_adapt_the_same_linears():
    vit = resolve_architecture("ViT-base-patch16-224")
    h, q, i = _dims(vit)
    v5 = _lora_term(vit, ("q_proj", "v_proj", "o_proj", "fc1", "fc2"))
    assert v5 == _by_hand([h, h, q, h, i])
    assert _lora_term(vit, ("query", "value")) == _by_hand([h, h])     # 4.x names
    assert _lora_term(vit, ("query", "q_proj")) == _by_hand([h])       # one linear, two names


def test_t5_gated_and_cross_attention():
    flan = resolve_architecture("Flan-T5-base")                       # gated: wi_0, wi_1
    assert flan.gated_mlp
    h, q, i = _dims(flan)
    assert _lora_term(flan, ("wi_0", "wi_1", "wo")) == _by_hand([h, h, i])
    assert _lora_term(flan, ("wi",)) == 0
    # decoder layer: PEFT's default q, v also adapt EncDecAttention's q (reads the decoder's
    # normed hidden state) and v (reads the encoder output: cross tokens, per layer)
    enc_tokens = TOKENS
    dec = _lora_term(flan, ("q", "v"), cross=enc_tokens)
    assert dec == _by_hand([h, h]) + _by_hand([h]) + enc_tokens * (h * 5 + R * 4)
    bart = resolve_architecture("BART-base")
    h, q, _ = _dims(bart)
    assert _lora_term(bart, ("q_proj", "out_proj"), cross=enc_tokens) == 2 * _by_hand([h, q])


def test_deepseek_mla_projections_of_the_hidden_state():
    v3 = resolve_architecture("DeepSeek-V3")                          # q_lora_rank 1536
    h = v3.hidden_size
    assert _lora_term(v3, ("q_a_proj", "kv_a_proj_with_mqa")) == _by_hand([h, h])
    lite = resolve_architecture("DeepSeek-V2-Lite")                   # no q LoRA rank
    assert _lora_term(lite, ("q_proj", "kv_a_proj_with_mqa")) == _by_hand([lite.hidden_size] * 2)


def test_llama_is_unchanged():
    # must stay unchanged: the same layer computed on main before est16 (pinned bytes)
    arch = resolve_architecture("CodeLlama-7B")
    assert _saved(arch, ()) == 67698688.0
    assert _saved(arch, ("q_proj", "v_proj")) == 88702976.0
    assert _saved(arch, ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj",
                         "down_proj")) == 158908416.0
    h, q, i = _dims(arch)
    assert _lora_term(arch, ("q_proj", "v_proj")) == _by_hand([h, h])
    assert _lora_term(arch, ("o_proj", "down_proj")) == _by_hand([q, i])


def test_all_linear_uses_the_model_types_names():
    phi = resolve_architecture("Phi-2")
    inp = EstimateInput(lora_r=8, lora_targets=("all-linear",))
    assert lora_targets(inp, phi) == ("q_proj", "k_proj", "v_proj", "dense", "fc1", "fc2")
    llama = resolve_architecture("CodeLlama-7B")
    assert lora_targets(inp, llama) == ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj",
                                        "up_proj", "down_proj")
    assert lora_targets(inp, resolve_architecture("GPT-2")) == ("c_attn", "c_proj", "c_fc")
    assert lora_targets(inp, resolve_architecture("BLOOM-176B")) == (
        "query_key_value", "dense", "dense_h_to_4h", "dense_4h_to_h")


def test_deberta_v2_default_targets_are_peft_s():
    # peft/utils/constants.py TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING
    assert LORA_DEFAULT_TARGETS["deberta-v2"] == ("query_proj", "value_proj")
    arch = from_hf_config({"model_type": "deberta-v2", "hidden_size": 64, "num_hidden_layers": 2,
                           "num_attention_heads": 4, "intermediate_size": 128,
                           "vocab_size": 1000}, name="tiny-deberta")
    assert lora_targets(EstimateInput(lora_r=8), arch) == ("query_proj", "value_proj")


def _amp_full(model):
    arch = resolve_architecture(model)
    d = A.Dtypes(res=4, comp=2, weights=4.0, autocast=True, mask=1)
    return arch, A.transformer_layer(arch, d, tokens=TOKENS, seq=TOKENS, batch=1, attention="sdpa",
                                     train_weights=True, lora_targets=frozenset(), lora_r=0,
                                     lora_dropout=0.0, dropout=0.0, device="cuda",
                                     moe=bool(arch.num_experts)).saved


@pytest.mark.parametrize("model,before,fewer_linears", [
    # (bytes on main before est16, linears that were counted but do not exist): OPT's fc1
    # (one linear, not Llama's gate_proj + up_proj); MPT's Wqkv (one, not three) and up_proj;
    # Phi-3's fused qkv_proj and gate_up_proj
    ("OPT-1.3B", 35717120.0, 1), ("MPT-7B", 105447424.0, 3), ("Phi-3-medium", 155271168.0, 3),
    # must stay unchanged
    ("CodeLlama-7B", 116981760.0, 0), ("GPT-2", 23617536.0, 0), ("Mixtral-8x22B", 256534528.0, 0),
])
def test_full_fine_tune_under_autocast_keeps_one_cast_copy_per_linear(model, before, fewer_linears):
    # under autocast each linear reading the fp32 normed hidden state keeps its own bf16 copy
    arch, saved = _amp_full(model)
    assert saved == before - fewer_linears * TOKENS * arch.hidden_size * 2


def _moe_layer(arch, targets):
    return A.transformer_layer(arch, D, tokens=TOKENS, seq=TOKENS, batch=1, attention="sdpa",
                               train_weights=False, lora_targets=frozenset(targets), lora_r=R,
                               lora_dropout=0.05, dropout=0.0, device="cuda", moe=True).saved


def test_moe_expert_adapters_are_charged_per_routed_row():
    # transformers 4.x Mixtral: block_sparse_moe.experts.N.w1 / w3 (read h) and w2 (reads the
    # expert width); each of the k routed rows of a token passes its expert's adapters
    mixtral = resolve_architecture("Mixtral-8x22B")
    h, w, k = mixtral.hidden_size, mixtral.intermediate_size, mixtral.experts_per_token
    term = _moe_layer(mixtral, ("w1", "w3", "w2")) - _moe_layer(mixtral, ())
    assert term == k * _by_hand([h, h, w])
    assert _moe_layer(mixtral, ("gate_proj",)) == _moe_layer(mixtral, ())   # no such module
    # Qwen1.5-MoE: routed experts and the shared expert (gate_proj/up_proj/down_proj each)
    qwen = resolve_architecture("Qwen1.5-MoE-A2.7B")
    h, w, k = qwen.hidden_size, qwen.moe_intermediate_size, qwen.experts_per_token
    shared = qwen.extra["shared_expert_intermediate"]
    term = _moe_layer(qwen, ("gate_proj", "up_proj", "down_proj")) - _moe_layer(qwen, ())
    assert term == k * _by_hand([h, h, w]) + _by_hand([h, h, shared])
    # adapter parameters: one per expert (and the shared expert) in every MoE layer
    e = mixtral.num_experts
    assert lora_params(mixtral, R, ("w1",)) == mixtral.moe_layers * e * R * (
        mixtral.hidden_size + mixtral.intermediate_size)
    assert lora_params(qwen, R, ("down_proj",)) == qwen.moe_layers * (
        qwen.num_experts * R * (w + h) + R * (shared + h))
    assert lora_params(mixtral, R, ("q_proj",)) == mixtral.num_layers * R * (
        mixtral.hidden_size + mixtral.num_heads * mixtral.head_dim)
