"""Config readers for model types users meet beyond Llama-likes: each config (the public
config.json numbers of a released model) is read and its parameter count equals the
published total (Hugging Face model card / safetensors total; see each case)."""

from __future__ import annotations

import pytest

from preflight.estimate.arch import ArchitectureError, from_hf_config, supported_model_types
from preflight.estimate.params import count_params

# (config.json numbers, published total, where the total is published)
CASES = {
    "bigscience/bloom-560m": ({"model_type": "bloom", "hidden_size": 1024, "n_layer": 24,
                               "n_head": 16, "vocab_size": 250880}, 559_214_592,
                              "huggingface.co/bigscience/bloom-560m (safetensors params)"),
    "bigscience/bloomz-7b1": ({"model_type": "bloom", "hidden_size": 4096, "n_layer": 30,
                               "n_head": 32, "vocab_size": 250880}, 7_069_016_064,
                              "huggingface.co/bigscience/bloomz-7b1 (safetensors params)"),
    "microsoft/phi-1_5": ({"model_type": "phi", "hidden_size": 2048, "intermediate_size": 8192,
                           "num_hidden_layers": 24, "num_attention_heads": 32,
                           "vocab_size": 51200}, 1_418_270_720,
                          "huggingface.co/microsoft/phi-1_5 (safetensors params)"),
    "microsoft/phi-2": ({"model_type": "phi", "hidden_size": 2560, "intermediate_size": 10240,
                         "num_hidden_layers": 32, "num_attention_heads": 32,
                         "vocab_size": 51200}, 2_779_683_840,
                        "huggingface.co/microsoft/phi-2 (safetensors params)"),
    "EleutherAI/gpt-j-6b": ({"model_type": "gptj", "n_embd": 4096, "n_layer": 28, "n_head": 16,
                             "vocab_size": 50400, "n_positions": 2048}, 6_050_882_784,
                            "huggingface.co/EleutherAI/gpt-j-6b (safetensors params)"),
    "facebook/opt-1.3b": ({"model_type": "opt", "hidden_size": 2048, "ffn_dim": 8192,
                           "num_hidden_layers": 24, "num_attention_heads": 32,
                           "vocab_size": 50272, "max_position_embeddings": 2048},
                          1_315_758_080, "huggingface.co/facebook/opt-1.3b (safetensors params)"),
    "facebook/opt-6.7b": ({"model_type": "opt", "hidden_size": 4096, "ffn_dim": 16384,
                           "num_hidden_layers": 32, "num_attention_heads": 32,
                           "vocab_size": 50272, "max_position_embeddings": 2048},
                          6_658_473_984, "huggingface.co/facebook/opt-6.7b (safetensors params)"),
    "mosaicml/mpt-7b": ({"model_type": "mpt", "d_model": 4096, "n_layers": 32, "n_heads": 32,
                         "vocab_size": 50432, "expansion_ratio": 4, "max_seq_len": 2048},
                        6_649_286_656, "huggingface.co/mosaicml/mpt-7b (safetensors params)"),
    "bigcode/starcoder": ({"model_type": "gpt_bigcode", "n_embd": 6144, "n_layer": 40,
                           "n_head": 48, "vocab_size": 49152, "n_positions": 8192,
                           "multi_query": True}, 15_517_462_528,
                          "huggingface.co/bigcode/starcoder (safetensors params)"),
    "bigscience/T0_3B": ({"model_type": "t5", "d_model": 2048, "d_ff": 5120, "d_kv": 64,
                          "num_heads": 32, "num_layers": 24, "num_decoder_layers": 24,
                          "vocab_size": 32128, "feed_forward_proj": "gated-gelu",
                          "tie_word_embeddings": False}, 2_849_757_184,
                         "huggingface.co/bigscience/T0_3B (safetensors params)"),
    "bigscience/mt0-xxl": ({"model_type": "mt5", "d_model": 4096, "d_ff": 10240, "d_kv": 64,
                            "num_heads": 64, "num_layers": 24, "num_decoder_layers": 24,
                            "vocab_size": 250112}, 12_921_057_280,
                           "huggingface.co/bigscience/mt0-xxl (safetensors params)"),
    "stabilityai/stablelm-3b-4e1t": ({"model_type": "stablelm", "hidden_size": 2560,
                                      "intermediate_size": 6912, "num_hidden_layers": 32,
                                      "num_attention_heads": 32, "num_key_value_heads": 32,
                                      "vocab_size": 50304}, 2_795_443_200,
                                     "huggingface.co/stabilityai/stablelm-3b-4e1t (safetensors params)"),
    "Salesforce/codegen-350M-mono": ({"model_type": "codegen", "n_embd": 1024, "n_layer": 20,
                                      "n_head": 16, "vocab_size": 51200, "n_positions": 2048},
                                     356_712_448,
                                     "huggingface.co/Salesforce/codegen-350M-mono (safetensors params)"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_reader_counts_the_published_total(name):
    config, published, _ = CASES[name]
    total = count_params(from_hf_config(config, name=name)).total
    assert abs(total - published) / published < 0.001, (name, total, published)


@pytest.mark.parametrize("mt", ["phi", "bloom", "opt", "gptj", "codegen", "gpt_bigcode", "mpt",
                                "stablelm", "mt5", "umt5"])
def test_new_types_are_listed_as_supported(mt):
    assert mt in supported_model_types()


def test_gpt_bigcode_multi_query_has_one_kv_head_and_phi_no_gate():
    sc = from_hf_config(CASES["bigcode/starcoder"][0], name="sc")
    phi = from_hf_config(CASES["microsoft/phi-2"][0], name="phi")
    assert sc.num_kv_heads == 1 and not sc.gated_mlp and sc.tie_embeddings
    assert not phi.gated_mlp and not phi.tie_embeddings


def test_a_type_without_reader_says_so():
    with pytest.raises(ArchitectureError, match="model_type 'xglm' is not supported"):
        from_hf_config({"model_type": "xglm", "d_model": 1024}, name="x")


# (config, transformers 5.24 module count on the meta device: the class named in the case)
MODULE_COUNTS = {
    "facebook/mbart-large-50": ({"model_type": "mbart", "d_model": 1024, "encoder_layers": 12,
                                 "decoder_layers": 12, "encoder_attention_heads": 16,
                                 "decoder_attention_heads": 16, "encoder_ffn_dim": 4096,
                                 "decoder_ffn_dim": 4096, "vocab_size": 250054,
                                 "max_position_embeddings": 1024}, 610_879_488),
    "Helsinki-NLP/opus-mt-en-de": ({"model_type": "marian", "d_model": 512, "encoder_layers": 6,
                                    "decoder_layers": 6, "encoder_attention_heads": 8,
                                    "decoder_attention_heads": 8, "encoder_ffn_dim": 2048,
                                    "decoder_ffn_dim": 2048, "vocab_size": 58101,
                                    "max_position_embeddings": 512}, 74_410_496),
    "google/pegasus-large": ({"model_type": "pegasus", "d_model": 1024, "encoder_layers": 16,
                              "decoder_layers": 16, "encoder_attention_heads": 16,
                              "decoder_attention_heads": 16, "encoder_ffn_dim": 4096,
                              "decoder_ffn_dim": 4096, "vocab_size": 96103,
                              "max_position_embeddings": 1024}, 570_797_056),
    "facebook/deit-base-distilled-patch16-224": (
        {"model_type": "deit", "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,
         "intermediate_size": 3072, "image_size": 224, "patch_size": 16, "num_labels": 1000,
         "architectures": ["DeiTForImageClassificationWithTeacher"]}, 87_338_192),
    "facebook/deit-base-patch16-224": (
        {"model_type": "deit", "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,
         "intermediate_size": 3072, "image_size": 224, "patch_size": 16, "num_labels": 1000,
         "architectures": ["DeiTForImageClassification"]}, 86_569_192),
    "facebook/dinov2-base": ({"model_type": "dinov2", "hidden_size": 768, "num_hidden_layers": 12,
                              "num_attention_heads": 12, "intermediate_size": 3072,
                              "image_size": 518, "patch_size": 14}, 86_580_480),
}


@pytest.mark.parametrize("name", sorted(MODULE_COUNTS))
def test_reader_counts_what_transformers_builds(name):
    config, module_count = MODULE_COUNTS[name]
    assert count_params(from_hf_config(config, name=name)).total == module_count


ENCODER_MODULE_COUNTS = {   # ElectraModel / AlbertModel built by transformers 5.24 on meta
    "google/electra-small-discriminator": ({"model_type": "electra", "embedding_size": 128,
                                            "hidden_size": 256, "intermediate_size": 1024,
                                            "num_hidden_layers": 12, "num_attention_heads": 4,
                                            "vocab_size": 30522, "max_position_embeddings": 512},
                                           13_483_008),
    "google/electra-base-discriminator": ({"model_type": "electra", "embedding_size": 768,
                                           "hidden_size": 768, "intermediate_size": 3072,
                                           "num_hidden_layers": 12, "num_attention_heads": 12,
                                           "vocab_size": 30522, "max_position_embeddings": 512},
                                          108_891_648),
    "albert/albert-base-v2": ({"model_type": "albert", "embedding_size": 128, "hidden_size": 768,
                               "intermediate_size": 3072, "num_hidden_layers": 12,
                               "num_attention_heads": 12, "vocab_size": 30000,
                               "max_position_embeddings": 512}, 11_683_584),
    "albert/albert-xxlarge-v2": ({"model_type": "albert", "embedding_size": 128, "hidden_size": 4096,
                                  "intermediate_size": 16384, "num_hidden_layers": 12,
                                  "num_attention_heads": 64, "vocab_size": 30000,
                                  "max_position_embeddings": 512}, 222_595_584),
}


@pytest.mark.parametrize("name", sorted(ENCODER_MODULE_COUNTS))
def test_electra_and_albert_count_what_transformers_builds(name):
    config, module_count = ENCODER_MODULE_COUNTS[name]
    assert count_params(from_hf_config(config, name=name)).total == module_count


def test_albert_shares_weights_but_not_activations():
    from preflight.estimate import EstimateInput, estimate

    config = ENCODER_MODULE_COUNTS["albert/albert-base-v2"][0]
    one = estimate(EstimateInput(arch=from_hf_config(dict(config, num_hidden_layers=1), name="a1"),
                                 precision="fp32", seq_len=128, attention="eager"))
    twelve = estimate(EstimateInput(arch=from_hf_config(config, name="a12"), precision="fp32",
                                    seq_len=128, attention="eager"))
    assert one.params_total == twelve.params_total                      # one shared layer
    assert twelve.phases["forward"]["activations"] > 8 * one.phases["forward"]["activations"]
