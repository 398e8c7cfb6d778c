"""Per-layer rotary ``cos_cached`` / ``sin_cached`` tables (``preflight/estimate/rotary_tables.py``):
which transformers releases keep them for Llama, Mistral, Mixtral, Qwen2 and Qwen2-MoE (read in
the wheels, docs/calibration.md est50), recomputed here by hand as
``num_layers x 2 x max_position_embeddings x head_dim x element bytes``."""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.buffers import model_buffer_bytes
from preflight.estimate.rotary_tables import rotary_table_bytes

# meta-llama/Llama-2-7b-hf config.json (sizes only)
LLAMA2_7B = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
             "intermediate_size": 11008, "num_hidden_layers": 32, "num_attention_heads": 32,
             "num_key_value_heads": 32, "vocab_size": 32000, "max_position_embeddings": 4096}
# Qwen/Qwen2-7B config.json (sizes only)
QWEN2_7B = {"model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"], "hidden_size": 3584,
            "intermediate_size": 18944, "num_hidden_layers": 28, "num_attention_heads": 28,
            "num_key_value_heads": 4, "vocab_size": 152064, "max_position_embeddings": 131072}


def _arch(config, **changes):
    return from_hf_config(dict(config, **changes), name="test")


def _inp(arch, tv, **kw):
    base = dict(arch=arch, mode="train", precision="bf16", optimizer="sgd", micro_batch=1,
                seq_len=128, attention="sdpa", torch_version="2.2.1", transformers_version=tv,
                loss="logits")
    base.update(kw)
    return EstimateInput(**base)


def _bytes(config, tv, **kw):
    arch = _arch(config)
    return rotary_table_bytes(_inp(arch, tv, **kw), arch)


LLAMA2_7B_16BIT = 32 * 2 * 4096 * 128 * 2          # 67,108,864: 64 MiB


def test_llama_4_31_to_4_37_keeps_tables_in_the_load_dtype():
    assert LLAMA2_7B_16BIT == 67_108_864
    for version in ("4.31.0", "4.34.1", "4.35.2", "4.36.2", "4.37"):
        assert _bytes(LLAMA2_7B, version) == LLAMA2_7B_16BIT, version
    # an fp32 or AMP job builds the model in fp32: the tables are fp32 too
    assert _bytes(LLAMA2_7B, "4.34.0", precision="fp32") == 2 * LLAMA2_7B_16BIT
    assert _bytes(LLAMA2_7B, "4.34.0", precision="amp-bf16") == 2 * LLAMA2_7B_16BIT
    # ... unless the weights are loaded in 16 bits, or quantized (bitsandbytes loads in fp16)
    assert _bytes(LLAMA2_7B, "4.34.0", precision="amp-bf16", weights_bits=16) == LLAMA2_7B_16BIT
    assert _bytes(LLAMA2_7B, "4.34.0", precision="amp-bf16", quant="4bit") == LLAMA2_7B_16BIT


def test_fsdp1_mixed_precision_casts_the_tables_to_its_16_bit_buffer_dtype():
    fsdp = dict(precision="amp-bf16", fsdp="full", world_size=4)
    assert _bytes(LLAMA2_7B, "4.34.0", **fsdp) == LLAMA2_7B_16BIT
    assert _bytes(LLAMA2_7B, "4.28.0", **fsdp) == LLAMA2_7B_16BIT      # fp32-built, cast down
    assert _bytes(QWEN2_7B, "4.43.3", **fsdp) == 28 * 2 * 131072 * 128 * 2
    # FSDP2's MixedPrecisionPolicy has no buffer dtype: the tables keep the dtype they were built in
    assert _bytes(LLAMA2_7B, "4.34.0", fsdp_version=2, **fsdp) == 2 * LLAMA2_7B_16BIT


def test_llama_4_28_to_4_30_tables_are_fp32_whatever_the_load_dtype():
    for version in ("4.28.0", "4.29.2", "4.30.2"):
        assert _bytes(LLAMA2_7B, version, precision="bf16") == 32 * 2 * 4096 * 128 * 4, version
    assert _bytes(LLAMA2_7B, "4.27.1") == 0      # no Llama in transformers before 4.28


def test_llama_4_38_0_and_4_38_1_have_none_4_38_2_to_4_40_have_them_4_41_none():
    assert _bytes(LLAMA2_7B, "4.38.0") == 0
    assert _bytes(LLAMA2_7B, "4.38.1") == 0
    assert _bytes(LLAMA2_7B, "4.38") == 0        # the patch release is not stated: not placed
    for version in ("4.38.2", "4.39.3", "4.40", "4.40.2"):
        assert _bytes(LLAMA2_7B, version) == LLAMA2_7B_16BIT, version
    for version in ("4.41.0", "4.42.4", "4.44.2", "4.47.0", None):
        assert _bytes(LLAMA2_7B, version) == 0, version


def test_qwen2_keeps_tables_until_4_45_and_they_scale_with_the_declared_context():
    qwen2_7b = 28 * 2 * 131072 * 128 * 2         # 1,879,048,192: 1.75 GiB in bf16
    assert _bytes(QWEN2_7B, "4.43.3") == qwen2_7b == 1_879_048_192
    assert _bytes(QWEN2_7B, "4.37.2") == qwen2_7b
    assert _bytes(QWEN2_7B, "4.45.0") == 0
    assert _bytes(QWEN2_7B, "4.46.0") == 0
    short = dict(QWEN2_7B, max_position_embeddings=32768)
    assert _bytes(short, "4.40.0") == 28 * 2 * 32768 * 128 * 2


def test_mistral_mixtral_and_qwen2_moe_release_ranges():
    mistral = dict(LLAMA2_7B, model_type="mistral", architectures=["MistralForCausalLM"],
                   num_key_value_heads=8, max_position_embeddings=32768)
    per_layer_pair = 2 * 32768 * 128 * 2
    assert _bytes(mistral, "4.34.0") == 32 * per_layer_pair == 536_870_912
    assert _bytes(mistral, "4.41.2") == 32 * per_layer_pair
    assert _bytes(mistral, "4.42.0") == 0
    mixtral = dict(mistral, model_type="mixtral", architectures=["MixtralForCausalLM"],
                   num_local_experts=8, num_experts_per_tok=2)
    assert _bytes(mixtral, "4.47.1") == 32 * per_layer_pair
    assert _bytes(mixtral, "4.48.0") == 0
    moe = dict(QWEN2_7B, model_type="qwen2_moe", architectures=["Qwen2MoeForCausalLM"],
               num_experts=8, num_experts_per_tok=2, moe_intermediate_size=1408,
               max_position_embeddings=8192)
    assert _bytes(moe, "4.40.0") == 28 * 2 * 8192 * 128 * 2
    assert _bytes(moe, "4.45.0") == 0


def test_remote_code_and_other_implementations_have_none():
    # a config that names an auto_map runs the repository's own modeling file
    glm_shaped = dict(LLAMA2_7B, auto_map={"AutoModelForCausalLM": "modeling_chatglm.X"})
    assert _arch(glm_shaped).extra.get("remote_code") is True
    assert "remote_code" not in _arch(LLAMA2_7B).extra
    assert _bytes(glm_shaped, "4.40.0") == 0
    assert _bytes(LLAMA2_7B, "4.34.0", model_impl="litgpt") == 0
    gemma = dict(LLAMA2_7B, model_type="gemma", architectures=["GemmaForCausalLM"], head_dim=128)
    assert _bytes(gemma, "4.38.2") == 0


def test_the_estimate_charges_the_tables_in_every_phase():
    arch = _arch(LLAMA2_7B)
    old, new = estimate(_inp(arch, "4.34.0")), estimate(_inp(arch, "4.41.0"))
    assert model_buffer_bytes(_inp(arch, "4.34.0"), arch) == LLAMA2_7B_16BIT
    assert old.tensor_peak()[0] - new.tensor_peak()[0] == LLAMA2_7B_16BIT
    assert all(terms.get("buffers") == LLAMA2_7B_16BIT for terms in old.phases.values())
    assert all("buffers" not in terms for terms in new.phases.values())
