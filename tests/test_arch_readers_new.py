"""Config readers for DeBERTa-v2/v3, Swin, wav2vec 2.0, Llama 3.2 Vision (mllama) and DINOv2 as
its Hub configs are written (mlp_ratio, SwiGLU), each checked three ways:

* against the published total of a released model, with the tolerance the published figure
  allows (a rounded "184M" is good to half its last digit);
* against the module ``transformers`` builds for the same config (``sum(p.numel())`` on the
  meta device, transformers 5.24; the figures are pinned here, and re-measured when
  transformers is installed);
* the shapes the activations depend on (tokens per stage, frames per second, score maps).
"""

from __future__ import annotations

import pytest

from preflight.estimate.arch import ArchitectureError, from_hf_config, supported_model_types
from preflight.estimate.params import count_params

# config.json numbers of the released checkpoints (Hub), as read by the readers
DEBERTA_V3_BASE = {"model_type": "deberta-v2", "hidden_size": 768, "num_hidden_layers": 12,
                   "num_attention_heads": 12, "intermediate_size": 3072, "vocab_size": 128100,
                   "max_position_embeddings": 512, "type_vocab_size": 0, "relative_attention": True,
                   "position_buckets": 256, "norm_rel_ebd": "layer_norm", "share_att_key": True,
                   "pos_att_type": ["p2c", "c2p"], "position_biased_input": False,
                   "max_relative_positions": -1, "layer_norm_eps": 1e-7}
DEBERTA_V2_XXLARGE = dict(DEBERTA_V3_BASE, hidden_size=1536, num_hidden_layers=48,
                          num_attention_heads=24, intermediate_size=6144, pos_att_type="p2c|c2p",
                          conv_kernel_size=3, conv_act="gelu")
# DeBERTa (v1 style, read by the v2 class): separate position projections, no buckets
DEBERTA_V1_STYLE = {"model_type": "deberta-v2", "hidden_size": 768, "num_hidden_layers": 12,
                    "num_attention_heads": 12, "intermediate_size": 3072, "vocab_size": 50265,
                    "max_position_embeddings": 512, "type_vocab_size": 0,
                    "relative_attention": True, "position_biased_input": False,
                    "max_relative_positions": -1, "pos_att_type": ["c2p", "p2c"]}
SWIN_BASE = {"model_type": "swin", "embed_dim": 128, "depths": [2, 2, 18, 2],
             "num_heads": [4, 8, 16, 32], "window_size": 7, "image_size": 224, "patch_size": 4,
             "num_labels": 1000, "architectures": ["SwinForImageClassification"]}
SWIN_TINY = dict(SWIN_BASE, embed_dim=96, depths=[2, 2, 6, 2], num_heads=[3, 6, 12, 24])
SWIN_LARGE_384 = dict(SWIN_BASE, embed_dim=192, num_heads=[6, 12, 24, 48], window_size=12,
                      image_size=384)
WAV2VEC2_BASE = {"model_type": "wav2vec2", "hidden_size": 768, "num_hidden_layers": 12,
                 "num_attention_heads": 12, "intermediate_size": 3072, "conv_dim": [512] * 7,
                 "conv_stride": [5, 2, 2, 2, 2, 2, 2], "conv_kernel": [10, 3, 3, 3, 3, 2, 2],
                 "conv_bias": False, "feat_extract_norm": "group", "num_conv_pos_embeddings": 128,
                 "num_conv_pos_embedding_groups": 16, "mask_time_prob": 0.05}
WAV2VEC2_BASE_960H = dict(WAV2VEC2_BASE, vocab_size=32, architectures=["Wav2Vec2ForCTC"])
WAV2VEC2_LARGE_LV60 = dict(WAV2VEC2_BASE, hidden_size=1024, num_hidden_layers=24,
                           num_attention_heads=16, intermediate_size=4096,
                           feat_extract_norm="layer", do_stable_layer_norm=True, conv_bias=True)
LLAMA_32_11B_VISION = {
    "model_type": "mllama",
    "text_config": {"model_type": "mllama_text_model", "hidden_size": 4096,
                    "intermediate_size": 14336, "num_hidden_layers": 40,
                    "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256,
                    "cross_attention_layers": [3, 8, 13, 18, 23, 28, 33, 38],
                    "rope_theta": 500000.0, "max_position_embeddings": 131072,
                    "tie_word_embeddings": False},
    "vision_config": {"model_type": "mllama_vision_model", "hidden_size": 1280,
                      "intermediate_size": 5120, "num_hidden_layers": 32, "num_global_layers": 8,
                      "attention_heads": 16, "image_size": 560, "patch_size": 14,
                      "num_channels": 3, "max_num_tiles": 4,
                      "intermediate_layers_indices": [3, 7, 15, 23, 30], "vision_output_dim": 7680,
                      "supported_aspect_ratios": [[1, 1], [1, 2], [1, 3], [1, 4], [2, 1], [2, 2],
                                                  [3, 1], [4, 1]]},
}
DINOV2_GIANT = {"model_type": "dinov2", "hidden_size": 1536, "num_hidden_layers": 40,
                "num_attention_heads": 24, "mlp_ratio": 4, "use_swiglu_ffn": True,
                "image_size": 518, "patch_size": 14, "layerscale_value": 1.0}
DINOV2_BASE = {"model_type": "dinov2", "hidden_size": 768, "num_hidden_layers": 12,
               "num_attention_heads": 12, "mlp_ratio": 4, "image_size": 518, "patch_size": 14}

# (config, published total, relative tolerance, where the figure is published)
PUBLISHED = {
    "microsoft/deberta-v3-base": (DEBERTA_V3_BASE, 184_000_000, 0.003,
                                  "model card: 86M backbone + 98M embedding parameters = 184M"),
    "microsoft/deberta-v2-xxlarge": (DEBERTA_V2_XXLARGE, 1_500_000_000, 0.05,
                                     "model card / DeBERTa paper: 1.5B (48 layers, 1536 hidden)"),
    "microsoft/swin-base-patch4-window7-224": (SWIN_BASE, 88_000_000, 0.006,
                                               "Swin paper, Table 1: Swin-B 88M"),
    "microsoft/swin-tiny-patch4-window7-224": (SWIN_TINY, 28_000_000, 0.018,
                                               "Swin paper, Table 1: Swin-T 28M"),
    "microsoft/swin-large-patch4-window12-384": (SWIN_LARGE_384, 197_000_000, 0.003,
                                                 "Swin paper, Table 1: Swin-L 197M"),
    # Wav2Vec2Model (no pre-training quantizer and projections: 95.04M with them)
    "facebook/wav2vec2-base": (WAV2VEC2_BASE, 95_000_000, 0.01,
                               "wav2vec 2.0 paper, section 4.2: BASE 95M parameters"),
    "facebook/wav2vec2-large-960h-lv60-self": (dict(WAV2VEC2_LARGE_LV60, vocab_size=32,
                                                    architectures=["Wav2Vec2ForCTC"]),
                                               317_000_000, 0.005,
                                               "wav2vec 2.0 paper, section 4.2: LARGE 317M"),
    "meta-llama/Llama-3.2-11B-Vision": (LLAMA_32_11B_VISION, 10_670_220_835, 0.0,
                                        "Hugging Face Hub safetensors total (model page: 10.7B); "
                                        "equal to transformers' MllamaForConditionalGeneration"),
    "facebook/dinov2-giant": (DINOV2_GIANT, 1_100_000_000, 0.04,
                              "DINOv2 paper / model card: ViT-g/14, 1.1B"),
}


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_reader_reproduces_the_published_total(name):
    config, published, tolerance, _source = PUBLISHED[name]
    counted = count_params(from_hf_config(config, name=name)).total
    assert abs(counted - published) <= tolerance * published, (counted, published)


# what transformers 5.24 builds for the config (AutoModel / the named head), meta device
MODULE_COUNTS = {
    "deberta-v3-base": (DEBERTA_V3_BASE, "AutoModel", 183_831_552),
    "deberta-v2-xxlarge": (DEBERTA_V2_XXLARGE, "AutoModel", 1_564_549_632),
    "deberta-v1-style": (DEBERTA_V1_STYLE, "AutoModel", 138_620_160),
    "swin-base": (SWIN_BASE, "AutoModelForImageClassification", 87_768_224),
    "swin-tiny": (SWIN_TINY, "AutoModelForImageClassification", 28_288_354),
    "swin-large-384": (SWIN_LARGE_384, "AutoModelForImageClassification", 196_735_516),
    "wav2vec2-base": (WAV2VEC2_BASE, "AutoModel", 94_371_712),
    "wav2vec2-base-960h": (WAV2VEC2_BASE_960H, "AutoModelForCTC", 94_396_320),
    "wav2vec2-large-lv60": (WAV2VEC2_LARGE_LV60, "AutoModel", 315_438_720),
    "llama-3.2-11b-vision": (LLAMA_32_11B_VISION, "MllamaForConditionalGeneration", 10_670_220_835),
    "dinov2-giant": (DINOV2_GIANT, "AutoModel", 1_136_480_768),
    "dinov2-base": (DINOV2_BASE, "AutoModel", 86_580_480),
}


@pytest.mark.parametrize("name", sorted(MODULE_COUNTS))
def test_reader_counts_what_transformers_builds(name):
    config, _auto, module_count = MODULE_COUNTS[name]
    assert count_params(from_hf_config(config, name=name)).total == module_count


@pytest.mark.parametrize("name", ["deberta-v1-style", "swin-tiny", "wav2vec2-base-960h",
                                  "dinov2-base"])
def test_pinned_module_counts_match_transformers_when_installed(name):
    """The pinned figures above, re-measured (small models only: the rest take minutes)."""
    transformers = pytest.importorskip("transformers")
    torch = pytest.importorskip("torch")
    config, auto, module_count = MODULE_COUNTS[name]
    kw = {k: v for k, v in config.items() if k not in ("model_type", "architectures")}
    cfg = transformers.AutoConfig.for_model(config["model_type"], **kw)
    with torch.device("meta"):
        model = getattr(transformers, auto).from_config(cfg)
    assert sum(p.numel() for p in model.parameters()) == module_count


def test_deberta_records_its_disentangled_attention():
    arch = from_hf_config(DEBERTA_V3_BASE, name="deberta-v3-base")
    assert (arch.family, arch.hidden_size, arch.num_layers, arch.num_heads) == ("encoder", 768, 12, 12)
    x = arch.extra
    # content scores + c2p + p2c maps per layer; no SDPA path in transformers
    assert x["score_maps"] == 3 and x["eager_only"] is True
    # 2 x 256 bucketed relative positions, shared key projections, no absolute positions
    assert (x["rel_positions"], x["pos_key_proj"], x["positions"]) == (512, False, 0)
    v1 = from_hf_config(DEBERTA_V1_STYLE, name="v1").extra
    assert (v1["rel_positions"], v1["pos_key_proj"], v1["pos_query_proj"]) == (1024, True, True)


def test_deberta_classification_head_is_not_a_vocabulary_head():
    config = dict(DEBERTA_V3_BASE, architectures=["DebertaV2ForSequenceClassification"])
    assert from_hf_config(config, name="cls").extra["task_head"] == "sequence"
    assert from_hf_config(DEBERTA_V3_BASE, name="mlm").extra["task_head"] == "lm"


def test_swin_records_its_stages():
    arch = from_hf_config(SWIN_BASE, name="swin-base")
    stages = arch.extra["stages"]
    # 224 / 4 = 56 x 56 tokens, halved per side at each patch merging; width doubles
    assert [s["tokens"] for s in stages] == [3136, 784, 196, 49]
    assert [s["hidden"] for s in stages] == [128, 256, 512, 1024]
    assert [s["heads"] for s in stages] == [4, 8, 16, 32]
    assert [s["depth"] for s in stages] == [2, 2, 18, 2]
    assert {s["window_tokens"] for s in stages} == {49}
    assert [s["mlp"] for s in stages] == [512, 1024, 2048, 4096]
    assert (arch.family, arch.num_layers, arch.hidden_size, arch.patch_size) == ("vision", 24, 128, 4)


def test_wav2vec2_records_frames_and_its_conv_stack():
    arch = from_hf_config(WAV2VEC2_BASE_960H, name="w2v")
    x = arch.extra
    assert x["frames_per_second"] == 50              # 16 kHz / (5 x 2^6) = 20 ms per frame
    assert [c["kernel"] for c in x["conv_stack"]] == [10, 3, 3, 3, 3, 2, 2]
    assert (arch.family, arch.vocab_size, x["task_head"]) == ("encoder", 32, "ctc")
    assert from_hf_config(WAV2VEC2_BASE, name="w2v").vocab_size == 0


def test_mllama_counts_the_text_model_vision_tower_and_projector():
    arch = from_hf_config(LLAMA_32_11B_VISION, name="11b")
    parts = count_params(arch).by_part
    x = arch.extra
    assert (arch.family, arch.num_layers, arch.num_kv_heads, x["cross_layers"]) == ("multimodal", 40, 8, 8)
    assert x["vision_counted"] is True
    assert x["vision"]["tokens_per_tile"] == 1601 and x["vision"]["max_num_tiles"] == 4
    assert parts["projector"] == 7680 * 4096 + 4096
    # the text decoder: 40 Llama-3 layers, 128256 + 8 embedding rows, an untied head
    assert parts["lm_head"] == 128256 * 4096
    assert parts["embeddings"] + parts["embeddings_extra"] == (128256 + 8) * 4096


def test_dinov2_reads_mlp_ratio_and_swiglu_from_hub_configs():
    giant = from_hf_config(DINOV2_GIANT, name="g")
    # Dinov2SwiGLUFFN: int(1536 * 4 * 2 / 3) rounded up to a multiple of 8
    assert (giant.intermediate_size, giant.gated_mlp) == (4096, True)
    base = from_hf_config(DINOV2_BASE, name="b")
    assert (base.intermediate_size, base.gated_mlp) == (3072, False)


@pytest.mark.parametrize("config, message", [
    (dict(SWIN_BASE, depths=[2, 2], num_heads=[4, 8, 16]), "'depths' and 'num_heads' differ"),
    (dict(SWIN_BASE, mlp_ratio="four"), "'mlp_ratio' must be a positive number"),
    (dict(WAV2VEC2_BASE, conv_kernel=[10, 3]), "differ in length"),
    (dict(DEBERTA_V3_BASE, pos_att_type=3), "'pos_att_type' must be"),
    ({"model_type": "mllama", "text_config": {"cross_attention_layers": "3,8"}},
     "'cross_attention_layers' must be a list"),
    (dict(DINOV2_BASE, mlp_ratio=-1), "'mlp_ratio' must be a positive number"),
])
def test_bad_configs_fail_with_one_sentence(config, message):
    with pytest.raises(ArchitectureError, match=message):
        from_hf_config(config, name="bad")


def test_every_model_type_the_issue_names_has_a_reader():
    wanted = {"gpt_bigcode", "bloom", "mt5", "umt5", "opt", "gptj", "codegen", "phi", "mpt",
              "stablelm", "deberta-v2", "electra", "albert", "mbart", "marian", "pegasus", "swin",
              "deit", "dinov2", "wav2vec2", "mllama"}
    assert wanted <= set(supported_model_types())


def _cached_hub_model(home, repo_id: str, config: dict) -> None:
    """``repo_id``'s config.json in a Hugging Face cache laid out as huggingface_hub writes it."""
    import json

    commit = "0123456789abcdef0123456789abcdef01234567"
    folder = home / "hub" / ("models--" + repo_id.replace("/", "--"))
    (folder / "refs").mkdir(parents=True)
    (folder / "refs" / "main").write_text(commit)
    (folder / "snapshots" / commit).mkdir(parents=True)
    (folder / "snapshots" / commit / "config.json").write_text(json.dumps(config))


def _estimate_cli(home, model: str):
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HUGGINGFACE_"))}
    env.update(HF_HOME=str(home), HF_HUB_OFFLINE="1", NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "preflight", "estimate", "--model", model,
                           "--seq-len", "512", "--batch-size", "8"], env=env,
                          cwd=str(Path(__file__).resolve().parent.parent),
                          capture_output=True, text=True, timeout=120)


def test_an_uncatalogued_model_whose_type_has_no_reader_says_exactly_that(tmp_path):
    _cached_hub_model(tmp_path, "facebook/xglm-564M",
                      {"model_type": "xglm", "d_model": 1024, "num_layers": 24, "vocab_size": 256008})
    proc = _estimate_cli(tmp_path, "facebook/xglm-564M")
    assert proc.returncode == 3, proc.stderr
    assert "model_type 'xglm' is not supported" in proc.stderr
    assert "--params N" in proc.stderr and "--online" not in proc.stderr
    assert "Traceback" not in proc.stderr


def test_an_uncatalogued_deberta_v3_is_read_from_the_cache(tmp_path):
    _cached_hub_model(tmp_path, "acme/encoder-x", DEBERTA_V3_BASE)
    proc = _estimate_cli(tmp_path, "acme/encoder-x")
    assert proc.returncode == 0, proc.stderr
    assert "acme/encoder-x (184M parameters" in proc.stdout


@pytest.mark.parametrize("hub_id, name", [
    ("bigscience/T0_3B", "T0-3B"), ("bigscience/T0pp", "T0pp"), ("bigscience/mt0-small", "mT0-small"),
    ("bigscience/mt0-xxl", "mT0-xxl"), ("bigscience/bloomz-7b1", "BLOOM-7B1"),
    ("bigscience/bloom-3b", "BLOOM-3B"), ("bigcode/starcoder", "StarCoder"),
    ("bigcode/starcoderbase-1b", "StarCoderBase-1B"), ("bigcode/starcoder2-15b", "StarCoder2-15B"),
    ("facebook/opt-125m", "OPT-125M"), ("facebook/opt-66b", "OPT-66B"),
    ("EleutherAI/gpt-j-6b", "GPT-J-6B"), ("microsoft/phi-2", "Phi-2"),
    ("allenai/OLMo-7B", "OLMo-7B"), ("allenai/OLMo-1B-hf", "OLMo-1B"),
    ("microsoft/deberta-v3-base", "DeBERTa-v3-base"),
    ("microsoft/swin-base-patch4-window7-224", "Swin-base-patch4-window7-224"),
    ("facebook/wav2vec2-base-960h", "wav2vec2-base-960h"),
    ("meta-llama/Llama-3.2-11B-Vision-Instruct", "Llama-3.2-11B-Vision"),
])
def test_the_issue_catalog_names_are_found_by_hub_id(hub_id, name):
    from preflight import architectures

    found = architectures.lookup(hub_id)
    assert found is not None and found.name == name


@pytest.mark.parametrize("written", [
    "TITAN RTX", "TITAN V", "RTX 2080 Ti", "RTX 2080", "GTX 1080 Ti", "Quadro RTX 6000",
    "Quadro RTX 8000", "RTX A4000", "RTX A4500", "RTX 4070", "RTX 4060", "RTX 4000 Ada",
    "RTX 5000 Ada", "A30", "A2", "L20", "H20", "H800", "A800", "P40", "MI210", "MI100",
])
def test_the_issue_gpus_are_found_as_people_write_them(written):
    from preflight import hardware

    gpu = hardware.find(written)
    assert gpu is not None and written.replace(" ", "-").lower() in gpu.name.lower()
