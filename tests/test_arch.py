"""Architectures: reading HF configs, exact parameter counts, and the built-in catalog."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from preflight import architectures
from preflight.estimate.arch import (
    Architecture,
    ArchitectureError,
    count_params,
    from_hf_config,
    supported_model_types,
)

ENTRIES = architectures.entries()
PUBLISHED = [e for e in ENTRIES if e.get("published_params")]


# ----------------------------------------------------------------------------- catalog vs published

@pytest.mark.parametrize("entry", PUBLISHED, ids=[e["name"] for e in PUBLISHED])
def test_formula_matches_published_total(entry):
    arch = from_hf_config(entry["config"], name=entry["name"])
    published = entry["published_params"]
    assert abs(arch.params_total - published) / published < 0.005, (
        f"{entry['name']}: formula {arch.params_total:,} vs published {published:,}")


def test_catalog_size_and_coverage():
    assert len(ENTRIES) >= 60
    assert len(PUBLISHED) >= 60
    types = {e["config"]["model_type"] for e in ENTRIES}
    required = {"llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "gemma",
                "gemma2", "gemma3", "gemma3_text", "phi3", "deepseek_v2", "deepseek_v3", "gpt2",
                "gpt_neox", "falcon", "bert", "roberta", "distilbert", "t5", "bart", "whisper", "vit",
                "clip", "resnet", "convnext", "llava", "qwen2_vl", "qwen2_5_vl"}
    assert required <= types, required - types


def test_every_entry_is_documented_and_readable():
    for entry in ENTRIES:
        assert entry["source"].startswith("https://"), entry["name"]
        assert entry["published_source"], entry["name"]
        assert entry["aliases"] == sorted(entry["aliases"], key=str.lower)
        arch = architectures.lookup(entry["name"])
        assert arch is not None and arch.name == entry["name"]
        assert arch.params_total > 0 and 0 < arch.params_active <= arch.params_total


def test_catalog_files_are_sorted_by_name():
    from pathlib import Path

    for path in Path(architectures.__file__).parent.glob("*.json"):
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert doc["about"], path.name
        names = [e["name"].lower() for e in doc["entries"]]
        assert names == sorted(names), path.name


# ----------------------------------------------------------------------------- lookup

@pytest.mark.parametrize("query, expected", [
    ("meta-llama/Meta-Llama-3-8B", "Llama-3-8B"),
    ("META-LLAMA/META-LLAMA-3-8B", "Llama-3-8B"),
    ("Meta-Llama-3-8B", "Llama-3-8B"),             # repository part of a Hub id
    ("  llama-3-8b ", "Llama-3-8B"),
    ("mistralai/Mixtral-8x7B-Instruct-v0.1", "Mixtral-8x7B"),
    ("Qwen/Qwen2.5-7B-Instruct", "Qwen2.5-7B"),
    ("qwen2.5-7b-instruct", "Qwen2.5-7B"),         # fine-tune suffix keeps the base shapes
    ("google/gemma-2-9b-it", "Gemma-2-9B"),
    ("gpt2", "GPT-2"),
    ("openai/whisper-large-v3", "Whisper-large-v3"),
])
def test_lookup_names_aliases_and_hub_ids(query, expected):
    arch = architectures.lookup(query)
    assert arch is not None and arch.name == expected


@pytest.mark.parametrize("query", ["", "   ", "no-such-model", "meta-llama/Llama-9-1T", "instruct"])
def test_lookup_unknown_is_none(query):
    assert architectures.lookup(query) is None


@pytest.mark.parametrize("query, expected, total", [
    ("Qwen/Qwen2-Math-7B-Instruct", "Qwen2-Math-7B", 7615616512),
    ("Qwen/Qwen2-Math-1.5B", "Qwen2-Math-1.5B", 1543714304),
    ("Qwen/Qwen2.5-Math-7B", "Qwen2.5-Math-7B", 7615616512),
    ("Qwen/Qwen2.5-Math-1.5B-Instruct", "Qwen2.5-Math-1.5B", 1543714304),
])
def test_qwen_math_models_have_their_own_entries_with_the_math_context(query, expected, total):
    # the math series keeps the base model's shapes (so the same total) but has a 4096-position
    # context with rope_theta 10000, not the base model's 32k/128k: its own entry, not an alias
    arch = architectures.lookup(query)
    assert arch is not None and arch.name == expected
    assert arch.params_total == total
    entry = next(e for e in ENTRIES if e["name"] == expected)
    assert entry["config"]["max_position_embeddings"] == 4096
    assert count_params(arch).total == total


@pytest.mark.parametrize("query", ["Qwen/Qwen2.5-Math-72B", "open-r1/Qwen2.5-Math-7B-RoPE-300k",
                                   "Qwen/Qwen2.5-Math-RM-72B", "Qwen/Qwen2.5-Math-PRM-7B"])
def test_qwen_math_relatives_not_catalogued_stay_unknown(query):
    # not in the catalog (72B, reward models with a value head, re-roped derivatives): no guess
    assert architectures.lookup(query) is None


def test_lookup_uses_the_published_total_for_dense_and_formula_active_for_moe():
    dense = architectures.lookup("Llama-2-7B")
    assert dense.params_source == "catalog"
    assert dense.params_total == dense.published_params == dense.params_active
    moe = architectures.lookup("Mixtral-8x7B")
    assert moe.params_total == moe.published_params
    assert moe.params_active == count_params(moe).active < moe.params_total
    unpublished = architectures.lookup("TinyLlama-1.1B")
    assert unpublished.params_source == "formula" and unpublished.published_params is None


def test_names_are_sorted_and_unique():
    names = architectures.names()
    assert names == sorted(names, key=str.lower)
    assert len(set(n.lower() for n in names)) == len(names)


def test_catalog_loads_lazily():
    code = ("import sys, preflight.architectures as a, preflight.hardware as h; "
            "print(a._ENTRIES is None, h._DATA is None, 'preflight.estimate.arch' in sys.modules); "
            "a.lookup('gpt2'); h.find('h100'); print(a._ENTRIES is not None, h._DATA is not None)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True", "False", "True", "True"]


# ----------------------------------------------------------------------------- MoE

@pytest.mark.parametrize("name, active_published", [
    ("Mixtral-8x7B", 12.9e9),        # Mistral AI announcement: "12.9B active parameters"
    ("Mixtral-8x22B", 39e9),         # "39B active parameters out of 141B"
    ("Qwen3-30B-A3B", 3.3e9),        # Qwen3 model card: 3.3B activated
    ("Qwen3-235B-A22B", 22e9),       # 22B activated
    ("DeepSeek-V3", 37e9),           # 37B activated per token
    ("DeepSeek-V2-Lite", 2.4e9),     # 2.4B active
])
def test_moe_active_parameters_match_rounded_published(name, active_published):
    arch = architectures.lookup(name)
    # Published active counts are rounded to two or three figures; DeepSeek's exclude the
    # embeddings, hence the 12% allowance (the per-token experts dominate either way).
    assert abs(arch.params_active - active_published) / active_published < 0.12
    assert arch.params_active < arch.params_total / 3


def test_moe_total_counts_every_expert():
    arch = architectures.lookup("Mixtral-8x7B")
    parts = count_params(arch).by_part
    expert = 3 * arch.hidden_size * arch.moe_intermediate_size
    assert parts["experts"] == arch.num_layers * arch.num_experts * expert
    assert parts["router"] == arch.num_layers * arch.hidden_size * arch.num_experts
    fewer = replace(arch, num_experts=4)
    assert count_params(arch).total - count_params(fewer).total == (
        arch.num_layers * 4 * (expert + arch.hidden_size))


def test_deepseek_dense_prefix_and_shared_experts():
    arch = architectures.lookup("DeepSeek-V3")
    assert arch.moe_layers == 61 - 3 and arch.shared_experts == 1
    parts = count_params(arch).by_part
    h = arch.hidden_size
    assert parts["mlp"] == 3 * 3 * h * arch.intermediate_size
    assert parts["shared_experts"] == 58 * 3 * h * arch.moe_intermediate_size


def test_mla_attention_is_counted_from_the_lora_ranks():
    config = {"model_type": "deepseek_v2", "hidden_size": 64, "intermediate_size": 128,
              "moe_intermediate_size": 32, "num_hidden_layers": 1, "num_attention_heads": 4,
              "q_lora_rank": 24, "kv_lora_rank": 16, "qk_rope_head_dim": 8, "qk_nope_head_dim": 12,
              "v_head_dim": 10, "n_routed_experts": 4, "n_shared_experts": 1,
              "num_experts_per_tok": 2, "first_k_dense_replace": 1, "vocab_size": 100}
    attention = count_params(from_hf_config(config, name="tiny")).by_part["attention"]
    q = 64 * 24 + 24 + 24 * 4 * (12 + 8)
    kv = 64 * (16 + 8) + 16 + 16 * 4 * (12 + 10)
    o = 4 * 10 * 64
    assert attention == q + kv + o
    without_q_lora = dict(config, q_lora_rank=None)
    assert count_params(from_hf_config(without_q_lora, name="t")).by_part["attention"] == (
        64 * 4 * 20 + kv + o)
    arch = from_hf_config(config, name="tiny")
    assert arch.head_dim == 12 + 8 and arch.extra["mla"]["v_head_dim"] == 10


# ----------------------------------------------------------------------------- layout details

LLAMA_TINY = {"model_type": "llama", "hidden_size": 64, "intermediate_size": 96,
              "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
              "vocab_size": 1000, "tie_word_embeddings": False}


def test_tied_embeddings_are_counted_once():
    untied = from_hf_config(LLAMA_TINY, name="u")
    tied = from_hf_config(dict(LLAMA_TINY, tie_word_embeddings=True), name="t")
    assert untied.params_total - tied.params_total == 1000 * 64


def test_qwen2_has_qkv_biases_llama_does_not():
    llama = from_hf_config(LLAMA_TINY, name="l")
    qwen = from_hf_config(dict(LLAMA_TINY, model_type="qwen2"), name="q")
    head_dim = 64 // 4
    assert qwen.params_total - llama.params_total == 2 * (4 + 2 + 2) * head_dim


def test_llama_attention_and_mlp_bias_flags():
    base = from_hf_config(LLAMA_TINY, name="l").params_total
    with_bias = from_hf_config(dict(LLAMA_TINY, attention_bias=True, mlp_bias=True), name="b")
    assert with_bias.params_total - base == 2 * ((64 + 32 + 32 + 64) + (96 + 96 + 64))


def test_qk_norm_and_sandwich_norms():
    qwen3 = from_hf_config(dict(LLAMA_TINY, model_type="qwen3", head_dim=16), name="q3")
    llama = from_hf_config(dict(LLAMA_TINY, head_dim=16), name="l")
    assert qwen3.params_total - llama.params_total == 2 * 2 * 16
    gemma2 = from_hf_config(dict(LLAMA_TINY, model_type="gemma2", head_dim=16), name="g2")
    gemma = from_hf_config(dict(LLAMA_TINY, model_type="gemma", head_dim=16), name="g")
    assert gemma2.params_total - gemma.params_total == 2 * 2 * 64


def test_gemma_head_dim_differs_from_hidden_over_heads():
    arch = architectures.lookup("Gemma-7B")
    assert arch.head_dim == 256 and arch.num_heads * arch.head_dim != arch.hidden_size


def test_t5_v1_1_is_gated_and_untied():
    t5 = architectures.lookup("T5-base")
    flan = architectures.lookup("Flan-T5-base")
    assert not t5.gated_mlp and t5.tie_embeddings
    assert flan.gated_mlp and not flan.tie_embeddings
    assert count_params(flan).by_part["lm_head"] == flan.vocab_size * flan.hidden_size


def test_whisper_front_end_and_positions():
    arch = architectures.lookup("Whisper-tiny")
    parts = count_params(arch).by_part
    d = arch.hidden_size
    assert parts["conv"] == (80 * d * 3 + d) + (d * d * 3 + d)
    assert parts["positions"] == (1500 + 448) * d
    v3 = architectures.lookup("Whisper-large-v3")
    v2 = architectures.lookup("Whisper-large-v2")
    assert count_params(v3).by_part["conv"] - count_params(v2).by_part["conv"] == 48 * 1280 * 3


def test_encoder_decoder_depths():
    bart = architectures.lookup("BART-large")
    assert bart.family == "encoder-decoder" and bart.num_encoder_layers == bart.num_layers == 12
    t5 = architectures.lookup("T5-3B")
    assert t5.num_encoder_layers == 24 and t5.head_dim == 128


def test_vision_and_cnn_entries():
    vit = architectures.lookup("ViT-base-patch16-224")
    assert (vit.family, vit.image_size, vit.patch_size, vit.num_channels) == ("vision", 224, 16, 3)
    resnet = architectures.lookup("ResNet-50")
    assert resnet.family == "cnn" and resnet.extra["depths"] == [3, 4, 6, 3]
    convnext = architectures.lookup("ConvNeXt-tiny")
    assert convnext.extra["hidden_sizes"] == [96, 192, 384, 768]


def test_multimodal_counts_text_vision_and_projector():
    llava = architectures.lookup("LLaVA-1.5-7B")
    clip = architectures.lookup("CLIP-ViT-L-14-336")
    llama = architectures.lookup("Llama-2-7B")
    assert llava.family == "multimodal" and llava.hidden_size == 4096   # LlamaConfig defaults
    parts = count_params(llava).by_part
    assert parts["vision"] == count_params(clip).by_part["vision"]
    assert parts["projector"] == (1024 * 4096 + 4096) + (4096 * 4096 + 4096)
    text = count_params(llava).total - parts["vision"] - parts["projector"]
    assert text - count_params(llama).total == 2 * 64 * 4096   # vocab 32064 vs 32000
    gemma3 = architectures.lookup("Gemma-3-4B")
    assert gemma3.image_size == 896 and count_params(gemma3).by_part["vision"] > 400_000_000


def test_multimodal_without_a_readable_vision_config_counts_the_text_model():
    config = {"model_type": "llava", "text_config": dict(LLAMA_TINY),
              "vision_config": {"model_type": "pixtral", "hidden_size": 48, "num_hidden_layers": 2}}
    arch = from_hf_config(config, name="llava-pixtral")
    assert arch.family == "multimodal" and arch.extra["vision_counted"] is False
    assert arch.params_total == from_hf_config(LLAMA_TINY, name="text").params_total


def test_qwen_vl_counts_its_vision_tower_from_top_level_text_numbers():
    qwen = architectures.lookup("Qwen2-VL-7B")
    text = architectures.lookup("Qwen2-7B")
    parts = count_params(qwen).by_part
    assert qwen.extra["vision_counted"] is True and qwen.hidden_size == text.hidden_size
    assert count_params(qwen).total - parts["vision"] - parts["projector"] == text.params_total
    e, wide = 1280, 1280 * 4
    assert parts["projector"] == 2 * e + (wide * wide + wide) + (wide * 3584 + 3584)


def test_hand_built_architecture_is_counted_with_the_family_layout():
    arch = Architecture(name="custom", model_type="custom", family="decoder", hidden_size=64,
                        num_layers=2, num_heads=4, num_kv_heads=4, head_dim=16,
                        intermediate_size=128, vocab_size=100, tie_embeddings=True, gated_mlp=True)
    expected = 100 * 64 + 2 * (4 * 64 * 64 + 3 * 64 * 128 + 2 * 64) + 64
    assert count_params(arch).total == expected


# ----------------------------------------------------------------------------- errors

@pytest.mark.parametrize("config, fragment", [
    ({}, "no 'model_type'"),
    ({"model_type": "mamba2", "hidden_size": 8}, "'mamba2' is not supported"),
    ({"model_type": "xglm", "d_model": 8}, "'xglm' is not supported"),
    ({"model_type": "llama", "hidden_size": "big"}, "'hidden_size' must be a whole number"),
    ({"model_type": "llama", "hidden_size": -4}, "must not be negative"),
    ({"model_type": "deepseek_v3", "hidden_size": 64, "num_attention_heads": 4,
      "num_hidden_layers": 2, "vocab_size": 10}, "missing 'qk_nope_head_dim'"),
    ({"model_type": "llava", "text_config": [1, 2]}, "'text_config'"),
    ({"model_type": "resnet", "hidden_sizes": [64, 128], "depths": [2]}, "differ in length"),
    ({"model_type": "qwen2_moe", "hidden_size": 64, "num_attention_heads": 4,
      "num_hidden_layers": 2, "vocab_size": 10}, "'num_experts'"),
])
def test_bad_configs_raise_one_clear_error(config, fragment):
    with pytest.raises(ArchitectureError) as info:
        from_hf_config(config, name="cfg.json")
    assert fragment in str(info.value) and "cfg.json" in str(info.value)


_KEYS = ["hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads",
         "num_key_value_heads", "head_dim", "vocab_size", "tie_word_embeddings", "num_experts",
         "num_local_experts", "num_experts_per_tok", "moe_intermediate_size", "mlp_only_layers",
         "kv_lora_rank", "q_lora_rank", "hidden_sizes", "depths", "layer_scale_init_value",
         "text_config", "vision_config", "d_model", "num_layers", "feed_forward_proj", "mlp_ratio",
         "image_size", "patch_size", "id2label", "n_embd", "n_layer", "n_head"]


@settings(max_examples=max(300, settings.default.max_examples), deadline=None)
@given(st.sampled_from(supported_model_types()),
       st.dictionaries(st.sampled_from(_KEYS), st.one_of(
           st.integers(-2, 5000), st.floats(allow_nan=True), st.text(max_size=3), st.none(),
           st.booleans(), st.lists(st.integers(-1, 64), max_size=4),
           st.dictionaries(st.sampled_from(_KEYS), st.integers(-1, 64), max_size=4))))
def test_any_config_reads_or_raises_one_architecture_error(model_type, values):
    """Junk configs never escape as TypeError/KeyError/...: a user sees one sentence."""
    try:
        arch = from_hf_config({"model_type": model_type, **values}, name="junk.json")
    except ArchitectureError as exc:
        assert str(exc).startswith("junk.json")
    else:
        assert arch.params_total >= arch.params_active >= 0


def test_non_mapping_config_is_an_error():
    with pytest.raises(ArchitectureError, match="must be a JSON object"):
        from_hf_config([1, 2], name="x")  # type: ignore[arg-type]


def test_supported_model_types_lists_what_the_catalog_uses():
    supported = set(supported_model_types())
    assert {e["config"]["model_type"] for e in ENTRIES} <= supported


# ----------------------------------------------------------------------------- against transformers

TINY = {
    "gpt2": {"model_type": "gpt2", "n_embd": 32, "n_layer": 2, "n_head": 4, "n_positions": 64, "vocab_size": 100},
    "llama": dict(LLAMA_TINY, attention_bias=True),
    "qwen2_moe": {"model_type": "qwen2_moe", "hidden_size": 32, "intermediate_size": 64,
                  "moe_intermediate_size": 16, "shared_expert_intermediate_size": 48, "num_experts": 4,
                  "num_experts_per_tok": 2, "num_hidden_layers": 3, "decoder_sparse_step": 2,
                  "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 100},
    "qwen3_moe": {"model_type": "qwen3_moe", "hidden_size": 32, "intermediate_size": 64, "head_dim": 8,
                  "moe_intermediate_size": 16, "num_experts": 4, "num_experts_per_tok": 2,
                  "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
                  "vocab_size": 100},
    "deepseek_v3": {"model_type": "deepseek_v3", "hidden_size": 64, "intermediate_size": 128,
                    "moe_intermediate_size": 32, "num_hidden_layers": 3, "num_attention_heads": 4,
                    "num_key_value_heads": 4, "q_lora_rank": 24, "kv_lora_rank": 16,
                    "qk_rope_head_dim": 8, "qk_nope_head_dim": 12, "v_head_dim": 10,
                    "n_routed_experts": 8, "n_shared_experts": 1, "num_experts_per_tok": 2,
                    "first_k_dense_replace": 1, "n_group": 2, "topk_group": 1, "vocab_size": 100},
    "gemma3_text": {"model_type": "gemma3_text", "hidden_size": 32, "intermediate_size": 64,
                    "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
                    "head_dim": 8, "vocab_size": 100},
    "phi3": {"model_type": "phi3", "hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2,
             "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 100, "pad_token_id": 0},
    "gpt_neox": {"model_type": "gpt_neox", "hidden_size": 32, "intermediate_size": 128,
                 "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100},
    "falcon": {"model_type": "falcon", "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
               "num_kv_heads": 2, "new_decoder_architecture": True, "vocab_size": 100},
    "bert": {"model_type": "bert", "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
             "intermediate_size": 64, "vocab_size": 100, "max_position_embeddings": 64},
    "distilbert": {"model_type": "distilbert", "dim": 32, "n_layers": 2, "n_heads": 4, "hidden_dim": 64,
                   "vocab_size": 100, "max_position_embeddings": 64},
    "t5": {"model_type": "t5", "d_model": 32, "d_kv": 8, "num_heads": 4, "d_ff": 64, "num_layers": 2,
           "num_decoder_layers": 3, "vocab_size": 100},
    "bart": {"model_type": "bart", "d_model": 32, "encoder_layers": 2, "decoder_layers": 1,
             "encoder_attention_heads": 4, "decoder_attention_heads": 4, "encoder_ffn_dim": 64,
             "decoder_ffn_dim": 48, "vocab_size": 100, "max_position_embeddings": 64},
    "whisper": {"model_type": "whisper", "d_model": 32, "encoder_layers": 2, "decoder_layers": 2,
                "encoder_attention_heads": 4, "decoder_attention_heads": 4, "encoder_ffn_dim": 64,
                "decoder_ffn_dim": 64, "vocab_size": 100, "num_mel_bins": 16,
                "max_source_positions": 30, "max_target_positions": 20, "pad_token_id": 0,
                "bos_token_id": 1, "eos_token_id": 2, "decoder_start_token_id": 3},
    "vit": {"model_type": "vit", "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
            "intermediate_size": 64, "image_size": 32, "patch_size": 8,
            "architectures": ["ViTForImageClassification"], "num_labels": 10},
    "clip": {"model_type": "clip", "projection_dim": 16,
             "text_config": {"hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
                             "intermediate_size": 64, "vocab_size": 100, "max_position_embeddings": 16},
             "vision_config": {"hidden_size": 48, "num_hidden_layers": 2, "num_attention_heads": 4,
                               "intermediate_size": 64, "image_size": 32, "patch_size": 8}},
    "resnet": {"model_type": "resnet", "embedding_size": 16, "hidden_sizes": [32, 64], "depths": [2, 1],
               "layer_type": "bottleneck", "architectures": ["ResNetForImageClassification"], "num_labels": 10},
    "convnext": {"model_type": "convnext", "hidden_sizes": [16, 32], "depths": [1, 2], "num_stages": 2,
                 "architectures": ["ConvNextForImageClassification"], "num_labels": 10},
    "gemma3": {"model_type": "gemma3", "architectures": ["Gemma3ForConditionalGeneration"],
               "text_config": {"model_type": "gemma3_text", "hidden_size": 32, "intermediate_size": 64,
                               "num_hidden_layers": 2, "num_attention_heads": 4,
                               "num_key_value_heads": 2, "head_dim": 8, "vocab_size": 300},
               "vision_config": {"model_type": "siglip_vision_model", "hidden_size": 48,
                                 "intermediate_size": 64, "num_hidden_layers": 2,
                                 "num_attention_heads": 4, "image_size": 64, "patch_size": 16,
                                 "vision_use_head": False}},
    "llava": {"model_type": "llava", "architectures": ["LlavaForConditionalGeneration"],
              "text_config": dict(LLAMA_TINY), "vision_config": {
                  "model_type": "clip_vision_model", "hidden_size": 48, "intermediate_size": 64,
                  "num_hidden_layers": 2, "num_attention_heads": 4, "image_size": 32, "patch_size": 8}},
    "llava_next": {"model_type": "llava_next", "architectures": ["LlavaNextForConditionalGeneration"],
                   "image_grid_pinpoints": [[32, 32]], "text_config": dict(LLAMA_TINY, pad_token_id=0),
                   "vision_config": {"model_type": "clip_vision_model", "hidden_size": 48,
                                     "intermediate_size": 64, "num_hidden_layers": 2,
                                     "num_attention_heads": 4, "image_size": 32, "patch_size": 8}},
    "paligemma": {"model_type": "paligemma", "architectures": ["PaliGemmaForConditionalGeneration"],
                  "projection_dim": 64,
                  "text_config": {"model_type": "gemma", "hidden_size": 64, "intermediate_size": 96,
                                  "num_hidden_layers": 2, "num_attention_heads": 4,
                                  "num_key_value_heads": 1, "head_dim": 16, "vocab_size": 1000,
                                  "pad_token_id": 0},
                  "vision_config": {"model_type": "siglip_vision_model", "hidden_size": 48,
                                    "intermediate_size": 64, "num_hidden_layers": 2,
                                    "num_attention_heads": 4, "image_size": 32, "patch_size": 8,
                                    "projection_dim": 64}},
    "olmo": dict(LLAMA_TINY, model_type="olmo", pad_token_id=0),
    "olmo2": dict(LLAMA_TINY, model_type="olmo2", pad_token_id=0),
    "granite": dict(LLAMA_TINY, model_type="granite"),
    "mistral": dict(LLAMA_TINY, model_type="mistral"),
    "qwen3": dict(LLAMA_TINY, model_type="qwen3", head_dim=8),
    "qwen2_vl": dict(LLAMA_TINY, model_type="qwen2_vl", architectures=["Qwen2VLForConditionalGeneration"],
                     vision_config={"depth": 2, "embed_dim": 48, "hidden_size": 64, "num_heads": 4,
                                    "mlp_ratio": 2, "in_chans": 3, "patch_size": 14,
                                    "spatial_merge_size": 2, "temporal_patch_size": 2}),
    "qwen2_5_vl": {"model_type": "qwen2_5_vl", "architectures": ["Qwen2_5_VLForConditionalGeneration"],
                   "text_config": dict(LLAMA_TINY, model_type="qwen2_5_vl_text"),
                   "vision_config": {"depth": 2, "hidden_size": 48, "intermediate_size": 40,
                                     "num_heads": 4, "out_hidden_size": 64, "patch_size": 14,
                                     "spatial_merge_size": 2, "temporal_patch_size": 2,
                                     "fullatt_block_indexes": [1]}},
    "starcoder2": dict(LLAMA_TINY, model_type="starcoder2", pad_token_id=0),
}


@pytest.mark.parametrize("kind", sorted(TINY))
def test_formula_equals_transformers_module(kind):
    """The formula counts what transformers builds (meta device: no memory, no weights)."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    config = TINY[kind]
    arch = from_hf_config(config, name=kind)
    kwargs = {k: v for k, v in config.items() if k not in ("model_type",)}
    hf_config = transformers.AutoConfig.for_model(config["model_type"], **kwargs)
    classes = {"bert": "AutoModel", "distilbert": "AutoModel", "t5": "T5ForConditionalGeneration",
               "bart": "BartForConditionalGeneration", "whisper": "WhisperForConditionalGeneration",
               "clip": "CLIPModel"}
    name = classes.get(kind) or (config.get("architectures") or ["AutoModelForCausalLM"])[0]
    cls = getattr(transformers, name)
    with torch.device("meta"):
        model = cls.from_config(hf_config) if name.startswith("Auto") else cls(hf_config)
    counted = sum(p.numel() for p in model.parameters())
    # DeepSeek-V3's router correction bias is a buffer in transformers, a tensor in the checkpoint.
    counted += sum(b.numel() for n, b in model.named_buffers() if n.endswith("e_score_correction_bias"))
    assert arch.params_total == counted


def test_explicit_null_sliding_window_means_no_window() -> None:
    # Mistral-7B-v0.2/v0.3 and Mixtral configs say "sliding_window": null; the class default
    # (4096) must not fill it in, or the KV cache at long context is capped wrongly.
    from preflight.estimate.arch import from_hf_config

    cfg = {"model_type": "mistral", "hidden_size": 4096, "intermediate_size": 14336,
           "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
           "vocab_size": 32768, "sliding_window": None}
    assert from_hf_config(cfg, name="m").sliding_window is None
    cfg["sliding_window"] = 4096
    assert from_hf_config(cfg, name="m").sliding_window == 4096


def test_more_experts_per_token_than_experts_is_refused() -> None:
    # found by the property test above on Python 3.13: the active count exceeded the total
    import pytest

    from preflight.estimate.arch import ArchitectureError, from_hf_config

    with pytest.raises(ArchitectureError, match="9 experts per token but only 8 experts"):
        from_hf_config({"model_type": "mixtral", "hidden_size": 64, "num_experts_per_tok": 9,
                        "num_local_experts": 8}, name="junk.json")


def test_internlm2_reads_its_bias_switch():
    """jobs124: InternLM2 (remote code) counts wqkv/wo biases only when its config's ``bias`` says so; the
    class default is True, the published configs set false (InternLM2-7B: 7,737,708,544)."""
    entry = next(e for e in ENTRIES if e["name"] == "InternLM2-7B")
    plain = from_hf_config(entry["config"], name="x")
    assert plain.params_total == 7737708544
    biased = from_hf_config({k: v for k, v in entry["config"].items() if k != "bias"}, name="y")
    # (4096 + 2 x 1024) wqkv bias + 4096 wo bias per layer, 32 layers
    assert biased.params_total - plain.params_total == 32 * (6144 + 4096)


def test_chatglm_reads_both_layouts():
    """jobs124: model_type chatglm names two layouts. ChatGLM-6B (inner_hidden_size, every Linear biased,
    LayerNorm, tied head) counts 6,173,286,400; ChatGLM2-6B (multi-query groups, qkv bias only, SwiGLU,
    RMSNorm, untied output_layer) 6,243,584,000; a config naming neither size key is refused, not guessed."""
    v1 = from_hf_config(next(e for e in ENTRIES if e["name"] == "ChatGLM-6B")["config"], name="a")
    assert (v1.params_total, v1.num_kv_heads, v1.tie_embeddings, v1.gated_mlp) == (6173286400, 32, True, False)
    v2 = from_hf_config(next(e for e in ENTRIES if e["name"] == "ChatGLM2-6B")["config"], name="b")
    assert (v2.params_total, v2.num_kv_heads, v2.head_dim, v2.gated_mlp) == (6243584000, 2, 128, True)
    # the multi-query switch off: every head keeps its own k/v (2 x 4096 x (4096 - 256) more weights + biases)
    mha = from_hf_config({**next(e for e in ENTRIES if e["name"] == "ChatGLM2-6B")["config"],
                          "multi_query_attention": False}, name="c")
    assert mha.num_kv_heads == 32
    assert mha.params_total - v2.params_total == 28 * (2 * 4096 * (4096 - 256) + 2 * (4096 - 256))
    with pytest.raises(ArchitectureError):
        from_hf_config({"model_type": "chatglm", "hidden_size": 4096, "num_layers": 28, "num_attention_heads": 32,
                        "vocab_size": 65024}, name="d")


def test_moss_is_read_with_codegens_layout():
    """jobs124: MOSS (remote code) has CodeGen's modules, MOSS-moon-003 counts 16,717,980,160 (README: 16B); the
    same numbers with CodeGen's vocabulary count what the codegen reader counts."""
    entry = next(e for e in ENTRIES if e["name"] == "MOSS-moon-003")
    moss = from_hf_config(entry["config"], name="m")
    assert moss.params_total == 16717980160 and not moss.tie_embeddings
    codegen = from_hf_config({**entry["config"], "model_type": "codegen"}, name="c")
    assert codegen.params_total == moss.params_total
