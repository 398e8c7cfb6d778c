"""preflight.hub through the real huggingface_hub client, against the local Hub stand-in.

Every Hub call runs in a subprocess (``tests/hubserver.py``) so that ``HF_ENDPOINT``/``HF_HOME``
are read by huggingface_hub at import, as in real use, and so that a socket guard refuses any
connection that is not to 127.0.0.1 (each refusal is logged and the log must stay empty).
"""

from __future__ import annotations

import json
import math
import os
import socket
import struct
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Tuple

import pytest
from hubserver import HubServer

from preflight.safetensors_summary import WeightsSummary, quantization_of, summarize_tensors

REPO = Path(__file__).resolve().parent.parent
HUBSERVER = str(Path(__file__).resolve().parent / "hubserver.py")


# --------------------------------------------------------------------------- public models
# config.json contents as published on the Hub (keys that change no count may be left out),
# with the parameter total the model page shows (the Hub's safetensors count), cross-checked
# against independent copies (keras-hub presets, torchvision metadata, published scripts).


@dataclass(frozen=True)
class Public:
    repo_id: str
    kind: str
    config: Mapping
    published: int
    active: Optional[int] = None


PUBLIC_MODELS: Tuple[Public, ...] = (
    Public("meta-llama/Llama-2-7b-hf", "dense MHA", {
        "architectures": ["LlamaForCausalLM"], "hidden_act": "silu", "hidden_size": 4096,
        "intermediate_size": 11008, "max_position_embeddings": 4096, "model_type": "llama",
        "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 32,
        "rms_norm_eps": 1e-05, "tie_word_embeddings": False, "torch_dtype": "float16",
        "vocab_size": 32000}, 6_738_415_616),
    Public("meta-llama/Meta-Llama-3-8B", "dense GQA", {
        "architectures": ["LlamaForCausalLM"], "attention_bias": False, "hidden_act": "silu",
        "hidden_size": 4096, "intermediate_size": 14336, "max_position_embeddings": 8192,
        "model_type": "llama", "num_attention_heads": 32, "num_hidden_layers": 32,
        "num_key_value_heads": 8, "rms_norm_eps": 1e-05, "rope_theta": 500000.0,
        "tie_word_embeddings": False, "torch_dtype": "bfloat16", "vocab_size": 128256}, 8_030_261_248),
    Public("mistralai/Mistral-7B-v0.1", "GQA + sliding window", {
        "architectures": ["MistralForCausalLM"], "hidden_act": "silu", "hidden_size": 4096,
        "intermediate_size": 14336, "max_position_embeddings": 32768, "model_type": "mistral",
        "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8,
        "rms_norm_eps": 1e-05, "rope_theta": 10000.0, "sliding_window": 4096,
        "tie_word_embeddings": False, "torch_dtype": "bfloat16", "vocab_size": 32000}, 7_241_732_096),
    Public("mistralai/Mixtral-8x7B-v0.1", "MoE", {
        "architectures": ["MixtralForCausalLM"], "hidden_act": "silu", "hidden_size": 4096,
        "intermediate_size": 14336, "max_position_embeddings": 32768, "model_type": "mixtral",
        "num_attention_heads": 32, "num_experts_per_tok": 2, "num_hidden_layers": 32,
        "num_key_value_heads": 8, "num_local_experts": 8, "rms_norm_eps": 1e-05,
        "rope_theta": 1000000.0, "sliding_window": None, "tie_word_embeddings": False,
        "torch_dtype": "bfloat16", "vocab_size": 32000}, 46_702_792_704, active=12_879_925_248),
    Public("Qwen/Qwen1.5-MoE-A2.7B", "MoE + shared expert", {
        "architectures": ["Qwen2MoeForCausalLM"], "decoder_sparse_step": 1, "hidden_act": "silu",
        "hidden_size": 2048, "intermediate_size": 5632, "max_position_embeddings": 8192,
        "model_type": "qwen2_moe", "moe_intermediate_size": 1408, "norm_topk_prob": False,
        "num_attention_heads": 16, "num_experts": 60, "num_experts_per_tok": 4,
        "num_hidden_layers": 24, "num_key_value_heads": 16, "rms_norm_eps": 1e-06,
        "shared_expert_intermediate_size": 5632, "tie_word_embeddings": False,
        "torch_dtype": "bfloat16", "vocab_size": 151936}, 14_315_784_192, active=2_689_173_504),
    Public("Qwen/Qwen2.5-7B", "GQA + qkv bias", {
        "architectures": ["Qwen2ForCausalLM"], "hidden_act": "silu", "hidden_size": 3584,
        "intermediate_size": 18944, "max_position_embeddings": 131072, "max_window_layers": 28,
        "model_type": "qwen2", "num_attention_heads": 28, "num_hidden_layers": 28,
        "num_key_value_heads": 4, "rms_norm_eps": 1e-06, "rope_theta": 1000000.0,
        "sliding_window": 131072, "tie_word_embeddings": False, "torch_dtype": "bfloat16",
        "use_sliding_window": False, "vocab_size": 152064}, 7_615_616_512),
    Public("Qwen/Qwen2.5-0.5B", "tied embeddings", {
        "architectures": ["Qwen2ForCausalLM"], "hidden_act": "silu", "hidden_size": 896,
        "intermediate_size": 4864, "max_position_embeddings": 32768, "max_window_layers": 24,
        "model_type": "qwen2", "num_attention_heads": 14, "num_hidden_layers": 24,
        "num_key_value_heads": 2, "rms_norm_eps": 1e-06, "rope_theta": 1000000.0,
        "sliding_window": 32768, "tie_word_embeddings": True, "torch_dtype": "bfloat16",
        "use_sliding_window": False, "vocab_size": 151936}, 494_032_768),
    Public("google/gemma-2b", "MQA, head_dim 256, tied", {
        "architectures": ["GemmaForCausalLM"], "head_dim": 256, "hidden_act": "gelu",
        "hidden_size": 2048, "intermediate_size": 16384, "max_position_embeddings": 8192,
        "model_type": "gemma", "num_attention_heads": 8, "num_hidden_layers": 18,
        "num_key_value_heads": 1, "rms_norm_eps": 1e-06, "rope_theta": 10000.0,
        "torch_dtype": "bfloat16", "vocab_size": 256000}, 2_506_172_416),
    Public("TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T", "small GQA", {
        "architectures": ["LlamaForCausalLM"], "hidden_act": "silu", "hidden_size": 2048,
        "intermediate_size": 5632, "max_position_embeddings": 2048, "model_type": "llama",
        "num_attention_heads": 32, "num_hidden_layers": 22, "num_key_value_heads": 4,
        "rms_norm_eps": 1e-05, "tie_word_embeddings": False, "torch_dtype": "float32",
        "vocab_size": 32000}, 1_100_048_384),
    Public("openai-community/gpt2", "learned positions, tied", {
        "activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"], "model_type": "gpt2",
        "n_ctx": 1024, "n_embd": 768, "n_head": 12, "n_layer": 12, "n_positions": 1024,
        "vocab_size": 50257}, 124_439_808),
    Public("google-t5/t5-small", "encoder-decoder", {
        "architectures": ["T5ForConditionalGeneration"], "d_ff": 2048, "d_kv": 64, "d_model": 512,
        "model_type": "t5", "n_positions": 512, "num_heads": 8, "num_layers": 6,
        "relative_attention_num_buckets": 32, "vocab_size": 32128}, 60_506_624),
    Public("google/vit-base-patch16-224", "vision", {
        "architectures": ["ViTForImageClassification"], "hidden_size": 768, "image_size": 224,
        "intermediate_size": 3072, "model_type": "vit", "num_attention_heads": 12,
        "num_channels": 3, "num_hidden_layers": 12, "patch_size": 16, "qkv_bias": True,
        "id2label": {str(i): f"class_{i}" for i in range(1000)}}, 86_567_656),
    Public("llava-hf/llava-1.5-7b-hf", "multimodal (text_config relies on llama defaults)", {
        "architectures": ["LlavaForConditionalGeneration"], "ignore_index": -100,
        "image_token_index": 32000, "model_type": "llava", "pad_token_id": 32001,
        "projector_hidden_act": "gelu",
        "text_config": {"_name_or_path": "lmsys/vicuna-7b-v1.5", "architectures": ["LlamaForCausalLM"],
                        "max_position_embeddings": 4096, "model_type": "llama", "rms_norm_eps": 1e-05,
                        "torch_dtype": "float16", "vocab_size": 32064},
        "tie_word_embeddings": False, "torch_dtype": "float16",
        "vision_config": {"hidden_size": 1024, "image_size": 336, "intermediate_size": 4096,
                          "model_type": "clip_vision_model", "num_attention_heads": 16,
                          "num_hidden_layers": 24, "patch_size": 14, "projection_dim": 768,
                          "vocab_size": 32000},
        "vision_feature_layer": -2, "vision_feature_select_strategy": "default",
        "vocab_size": 32064}, 7_063_427_072),
)


# --------------------------------------------------------------------------- checkpoint layouts
# Tensor names and shapes as transformers saves them, generated from a config.

def llama_tensors(cfg: Mapping, dtype: str = "BF16") -> Dict[str, Tuple[str, List[int]]]:
    """Llama/Mistral/Mixtral/Qwen2 checkpoints (``model.layers.N...``), as saved by transformers."""
    h, inter, vocab = cfg["hidden_size"], cfg["intermediate_size"], cfg["vocab_size"]
    heads, kv = cfg["num_attention_heads"], cfg.get("num_key_value_heads", cfg["num_attention_heads"])
    hd = cfg.get("head_dim", h // heads)
    bias = cfg["model_type"] in ("qwen2", "qwen2_moe")
    t: Dict[str, Tuple[str, List[int]]] = {"model.embed_tokens.weight": (dtype, [vocab, h])}
    for i in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{i}."
        t[p + "input_layernorm.weight"] = (dtype, [h])
        t[p + "post_attention_layernorm.weight"] = (dtype, [h])
        for name, out in (("q_proj", heads * hd), ("k_proj", kv * hd), ("v_proj", kv * hd)):
            t[p + f"self_attn.{name}.weight"] = (dtype, [out, h])
            if bias:
                t[p + f"self_attn.{name}.bias"] = (dtype, [out])
        t[p + "self_attn.o_proj.weight"] = (dtype, [h, heads * hd])
        if cfg["model_type"] == "mixtral":
            t[p + "block_sparse_moe.gate.weight"] = (dtype, [cfg["num_local_experts"], h])
            for e in range(cfg["num_local_experts"]):
                for w, shape in (("w1", [inter, h]), ("w2", [h, inter]), ("w3", [inter, h])):
                    t[p + f"block_sparse_moe.experts.{e}.{w}.weight"] = (dtype, shape)
        elif cfg["model_type"] == "qwen2_moe":
            moe, shared = cfg["moe_intermediate_size"], cfg["shared_expert_intermediate_size"]
            t[p + "mlp.gate.weight"] = (dtype, [cfg["num_experts"], h])
            t[p + "mlp.shared_expert_gate.weight"] = (dtype, [1, h])
            for name, width in [(f"experts.{e}", moe) for e in range(cfg["num_experts"])] + [("shared_expert", shared)]:
                t[p + f"mlp.{name}.gate_proj.weight"] = (dtype, [width, h])
                t[p + f"mlp.{name}.up_proj.weight"] = (dtype, [width, h])
                t[p + f"mlp.{name}.down_proj.weight"] = (dtype, [h, width])
        else:
            t[p + "mlp.gate_proj.weight"] = (dtype, [inter, h])
            t[p + "mlp.up_proj.weight"] = (dtype, [inter, h])
            t[p + "mlp.down_proj.weight"] = (dtype, [h, inter])
    t["model.norm.weight"] = (dtype, [h])
    if not cfg.get("tie_word_embeddings", False):
        t["lm_head.weight"] = (dtype, [vocab, h])
    return t


def gpt2_tensors(cfg: Mapping) -> Dict[str, Tuple[str, List[int]]]:
    """openai-community/gpt2's model.safetensors: includes the ``attn.bias`` causal-mask buffers."""
    d, n = cfg["n_embd"], cfg["n_positions"]
    t: Dict[str, Tuple[str, List[int]]] = {"wte.weight": ("F32", [cfg["vocab_size"], d]),
                                           "wpe.weight": ("F32", [n, d])}
    for i in range(cfg["n_layer"]):
        p = f"h.{i}."
        t[p + "attn.bias"] = ("F32", [1, 1, n, n])
        for name, shape in (("ln_1.weight", [d]), ("ln_1.bias", [d]), ("attn.c_attn.weight", [d, 3 * d]),
                            ("attn.c_attn.bias", [3 * d]), ("attn.c_proj.weight", [d, d]),
                            ("attn.c_proj.bias", [d]), ("ln_2.weight", [d]), ("ln_2.bias", [d]),
                            ("mlp.c_fc.weight", [d, 4 * d]), ("mlp.c_fc.bias", [4 * d]),
                            ("mlp.c_proj.weight", [4 * d, d]), ("mlp.c_proj.bias", [d])):
            t[p + name] = ("F32", shape)
    t["ln_f.weight"] = ("F32", [d])
    t["ln_f.bias"] = ("F32", [d])
    return t


def quantize(tensors: Mapping[str, Tuple[str, List[int]]], scheme: str,
             group: int = 128) -> Dict[str, Tuple[str, List[int]]]:
    """The same checkpoint as a GPTQ / AWQ / bitsandbytes-4bit one saves it (linear layers only)."""
    out: Dict[str, Tuple[str, List[int]]] = {}
    for name, (dtype, shape) in tensors.items():
        linear = name.endswith("proj.weight") and len(shape) == 2
        if not linear:
            out[name] = (dtype, shape)
            continue
        stem = name[: -len(".weight")]
        rows, cols = shape  # torch Linear: [out, in]
        if scheme == "gptq":
            out[stem + ".qweight"] = ("I32", [cols // 8, rows])
            out[stem + ".qzeros"] = ("I32", [cols // group, rows // 8])
            out[stem + ".scales"] = ("F16", [cols // group, rows])
            out[stem + ".g_idx"] = ("I32", [cols])
        elif scheme == "awq":
            out[stem + ".qweight"] = ("I32", [cols, rows // 8])
            out[stem + ".qzeros"] = ("I32", [cols // group, rows // 8])
            out[stem + ".scales"] = ("F16", [cols // group, rows])
        elif scheme == "bnb-nf4":
            n = rows * cols
            out[name] = ("U8", [n // 2, 1])
            out[name + ".absmax"] = ("U8", [n // 64])
            out[name + ".quant_map"] = ("F32", [16])
            out[name + ".nested_absmax"] = ("F32", [n // 64 // 256])
            out[name + ".nested_quant_map"] = ("F32", [256])
            out[name + ".quant_state.bitsandbytes__nf4"] = ("U8", [120])
        else:
            raise ValueError(scheme)
    return out


def shard(tensors: Mapping[str, Tuple[str, List[int]]], n: int) -> List[Dict[str, Tuple[str, List[int]]]]:
    items = list(tensors.items())
    size = math.ceil(len(items) / n)
    return [dict(items[i:i + size]) for i in range(0, len(items), size)]


QUANT_CONFIGS = {
    "gptq": {"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": False, "sym": True},
    "awq": {"quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": True, "version": "gemm"},
    "bnb-nf4": {"quant_method": "bitsandbytes", "load_in_4bit": True, "bnb_4bit_quant_type": "nf4",
                "bnb_4bit_use_double_quant": True, "bnb_4bit_compute_dtype": "bfloat16"},
}


def public(repo_id: str) -> Public:
    return next(m for m in PUBLIC_MODELS if m.repo_id == repo_id)


# --------------------------------------------------------------------------- running the client


@pytest.fixture
def hub():
    with HubServer() as server:
        yield server


@pytest.fixture
def hf_env(tmp_path, hub) -> Dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("HF_", "HUGGINGFACE_")) and k not in ("TRANSFORMERS_OFFLINE",)}
    env.update(HF_ENDPOINT=hub.url, HF_HOME=str(tmp_path / "hf-home"), HF_HUB_DISABLE_TELEMETRY="1",
               HUBSERVER_BLOCKED_LOG=str(tmp_path / "blocked.log"), NO_COLOR="1",
               PYTHONPATH=str(REPO))
    return env


def run_hub(env: Mapping[str, str], *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, HUBSERVER, *args], env=dict(env), cwd=str(REPO),
                          capture_output=True, text=True, timeout=timeout)
    blocked = Path(env["HUBSERVER_BLOCKED_LOG"])
    assert not blocked.exists(), f"a connection outside 127.0.0.1 was attempted: {blocked.read_text()}"
    return proc


def resolve(env: Mapping[str, str], *models: str, revision: Optional[str] = None) -> List[dict]:
    args = ["--resolve"] + (["--revision", revision] if revision else []) + list(models)
    proc = run_hub(env, *args)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --------------------------------------------------------------------------- counting (pure)


def test_quantization_config_is_read_from_every_scheme():
    assert quantization_of({"quantization_config": QUANT_CONFIGS["gptq"]}) == {"method": "gptq", "bits": 4}
    assert quantization_of({"quantization_config": QUANT_CONFIGS["bnb-nf4"]}) == {
        "method": "bitsandbytes", "bits": 4, "quant_type": "nf4"}
    assert quantization_of({"quantization_config": {"load_in_8bit": True}}) == {"method": "bitsandbytes", "bits": 8}
    assert quantization_of({"text_config": {"quantization_config": {"quant_method": "fp8"}}}) == {
        "method": "fp8", "bits": 8}
    assert quantization_of({"model_type": "llama"}) is None


@pytest.mark.parametrize("scheme", ["gptq", "awq", "bnb-nf4"])
def test_packed_int4_weights_count_as_the_weights_they_hold(scheme):
    cfg = dict(public("meta-llama/Llama-2-7b-hf").config)
    dense = llama_tensors(cfg, "F16")
    packed = quantize(dense, scheme)
    summary = summarize_tensors(((n, d, s) for n, (d, s) in packed.items()),
                                quantization_of({"quantization_config": QUANT_CONFIGS[scheme]}))
    assert summary.params_total == 6_738_415_616
    # Packed int32 holds 8 weights, uint8 holds 2: without unpacking the count is far lower.
    naive = sum(math.prod(s) for n, (_, s) in packed.items())
    assert naive < 0.6 * summary.params_total
    assert summary.packed_params > 6_000_000_000
    assert "quantization metadata" in summary.skipped
    # Memory of the stored checkpoint: about half a byte per quantized weight.
    assert 3.3e9 < summary.weight_bytes < 4.2e9


def test_mxfp4_blocks_hold_two_weights_per_byte():
    tensors = [("model.layers.0.mlp.experts.gate_up_proj_blocks", "U8", [32, 5760, 90, 16]),
               ("model.layers.0.mlp.experts.gate_up_proj_scales", "U8", [32, 5760, 90]),
               ("model.layers.0.mlp.experts.gate_up_proj_bias", "BF16", [32, 5760])]
    summary = summarize_tensors(tensors, {"method": "mxfp4", "bits": 4})
    assert summary.params_total == 32 * 5760 * 2880 + 32 * 5760
    assert summary.routed_expert_params == summary.params_total


def test_buffers_are_not_parameters_but_biases_are():
    cfg = public("openai-community/gpt2").config
    tensors = gpt2_tensors(cfg)
    summary = summarize_tensors((n, d, s) for n, (d, s) in tensors.items())
    assert summary.params_total == 124_439_808
    assert summary.skipped == ("buffers",)
    # A real 1-D attention bias (c_attn.bias) is a parameter: it stays counted.
    only_bias = summarize_tensors([("h.0.attn.c_attn.bias", "F32", [2304]), ("h.0.attn.bias", "F32", [2304])])
    assert only_bias.params_total == 2 * 2304


def test_weights_summary_round_trips_through_json():
    summary = summarize_tensors([("a.experts.0.w", "BF16", [4, 4]), ("b", "F32", [3])])
    assert WeightsSummary.from_json(json.loads(json.dumps(summary.to_json()))) == summary
    assert summary.routed_expert_params == 16
    assert summary.weight_bytes == 16 * 2 + 3 * 4


# --------------------------------------------------------------------------- the Hub path


def test_public_configs_match_published_totals(hub, hf_env):
    """config.json only (the repos hold pytorch_model.bin): the formula path, within 0.5%."""
    for m in PUBLIC_MODELS:
        hub.add_model(m.repo_id, m.config, files={"pytorch_model.bin": b"\0" * 16})
    results = {r["model"]: r for r in resolve(hf_env, *[m.repo_id for m in PUBLIC_MODELS])}
    kinds = set()
    for m in PUBLIC_MODELS:
        r = results[m.repo_id]
        assert "error" not in r, r
        assert r["params_source"] == "formula"
        assert "no safetensors" in r["weights_note"]
        assert abs(r["params_total"] - m.published) <= 0.005 * m.published, (m.repo_id, r["params_total"])
        if m.active is not None:
            assert abs(r["params_active"] - m.active) <= 0.005 * m.active, (m.repo_id, r["params_active"])
        kinds.add(r["family"])
    assert len(PUBLIC_MODELS) >= 10
    assert {"decoder", "encoder-decoder", "vision", "multimodal"} <= kinds
    assert results["mistralai/Mistral-7B-v0.1"]["sliding_window"] == 4096
    assert results["Qwen/Qwen2.5-0.5B"]["tie_embeddings"] is True


def test_safetensors_counts_are_exact_sharded_moe_and_buffers(hub, hf_env):
    llama3, mixtral, gpt2 = (public("meta-llama/Meta-Llama-3-8B"), public("mistralai/Mixtral-8x7B-v0.1"),
                             public("openai-community/gpt2"))
    qwen_moe = public("Qwen/Qwen1.5-MoE-A2.7B")
    hub.add_model(llama3.repo_id, llama3.config, shards=shard(llama_tensors(llama3.config), 4))
    hub.add_model(mixtral.repo_id, mixtral.config, shards=shard(llama_tensors(mixtral.config), 19))
    hub.add_model(qwen_moe.repo_id, qwen_moe.config, shards=shard(llama_tensors(qwen_moe.config), 8))
    hub.add_model(gpt2.repo_id, gpt2.config, tensors=gpt2_tensors(gpt2.config))
    results = {r["model"]: r for r in resolve(hf_env, llama3.repo_id, mixtral.repo_id,
                                                qwen_moe.repo_id, gpt2.repo_id)}
    for m in (llama3, mixtral, qwen_moe, gpt2):
        r = results[m.repo_id]
        assert r["params_source"] == "safetensors", r
        assert r["params_total"] == m.published
    assert results[llama3.repo_id]["weights"]["files"] == 4
    assert results[mixtral.repo_id]["params_active"] == mixtral.active
    assert results[qwen_moe.repo_id]["params_active"] == qwen_moe.active
    assert results[gpt2.repo_id]["weights"]["skipped"] == ["buffers"]


@pytest.mark.parametrize("scheme", ["gptq", "awq", "bnb-nf4"])
def test_prequantized_checkpoint_counts_logical_weights(hub, hf_env, scheme):
    base = public("meta-llama/Llama-2-7b-hf")
    config = dict(base.config, quantization_config=QUANT_CONFIGS[scheme])
    hub.add_model(f"someone/Llama-2-7B-{scheme}", config,
                  shards=shard(quantize(llama_tensors(base.config, "F16"), scheme), 2))
    (r,) = resolve(hf_env, f"someone/Llama-2-7B-{scheme}")
    assert r["params_source"] == "safetensors"
    assert r["params_total"] == base.published
    assert r["quantization"]["bits"] == 4
    assert r["weights"]["weight_bytes"] < 0.3 * 2 * base.published  # well under the fp16 size


def test_warm_cache_answers_offline_and_with_the_hub_down(hub, hf_env):
    m = public("mistralai/Mixtral-8x7B-v0.1")
    hub.add_model(m.repo_id, m.config, shards=shard(llama_tensors(m.config), 3))
    online = resolve(hf_env, m.repo_id)
    asked = len(hub.requests)
    again = resolve(hf_env, m.repo_id)
    assert len(hub.requests) == asked, "a warm cache must not touch the network"
    offline = resolve(dict(hf_env, HF_HUB_OFFLINE="1"), m.repo_id)
    down = resolve(dict(hf_env, HF_ENDPOINT=f"http://127.0.0.1:{closed_port()}"), m.repo_id)
    for r in (online, again, offline, down):
        assert r[0]["params_total"] == m.published
    assert online[0]["from_cache"] is False
    strip = [{k: v for k, v in r[0].items() if k != "from_cache"} for r in (online, again, offline, down)]
    assert strip[0] == strip[1] == strip[2] == strip[3]


def test_revision_pinning_reads_the_commit_asked_for(hub, hf_env):
    small = dict(public("Qwen/Qwen2.5-0.5B").config)
    first = hub.add_model("org/moving", small, tensors=llama_tensors(small))
    bigger = dict(small, num_hidden_layers=28)
    second = hub.add_model("org/moving", bigger, tensors=llama_tensors(bigger))
    (old,) = resolve(hf_env, "org/moving", revision=first)
    (new,) = resolve(hf_env, "org/moving")
    assert (old["commit"], new["commit"]) == (first, second)
    assert old["num_layers"] == 24 and new["num_layers"] == 28
    assert new["params_total"] > old["params_total"]
    # A pinned commit answers from the cache once seen, even offline.
    (pinned,) = resolve(dict(hf_env, HF_HUB_OFFLINE="1"), "org/moving", revision=first)
    assert pinned["num_layers"] == 24
    (missing,) = resolve(hf_env, "org/moving", revision="no-such-branch")
    assert (missing["error"], missing["exit_code"]) == ("RevisionNotFoundError", 3)


def test_cache_first_does_not_recheck_a_cached_branch(hub, hf_env):
    cfg = public("Qwen/Qwen2.5-0.5B").config
    hub.add_model("org/cached", cfg, tensors=llama_tensors(cfg))
    resolve(hf_env, "org/cached")
    hub.add_model("org/cached", dict(cfg, num_hidden_layers=2), tensors=llama_tensors(dict(cfg, num_hidden_layers=2)))
    before = len(hub.requests)
    (r,) = resolve(hf_env, "org/cached")
    assert len(hub.requests) == before
    assert r["num_layers"] == 24 and r["from_cache"] is True


def test_errors_give_one_message_and_an_exit_code(hub, hf_env):
    cfg = public("Qwen/Qwen2.5-0.5B").config
    hub.add_model("org/gated", cfg, tensors=llama_tensors(cfg), gated=True)
    hub.add_model("org/no-config", None, files={"README.md": b"# hi\n"})
    hub.add_model("org/not-json", None, files={"config.json": b"{'model_type': 'llama',"})
    hub.add_model("org/zero-patch", {"model_type": "llava", "text_config": {"model_type": "llama"},
                                     "vision_config": {"model_type": "clip_vision_model", "patch_size": 0}})
    results = {r["model"]: r for r in resolve(hf_env, "org/gated", "org/missing", "not a/valid id",
                                               "a/b/c", "org/no-config", "org/not-json", "org/zero-patch")}
    assert results["org/gated"]["error"] == "GatedRepoError"
    assert "gated" in results["org/gated"]["message"] and "HF_TOKEN" in results["org/gated"]["message"]
    assert results["org/missing"]["error"] == "RepoNotFoundError"
    assert "private" in results["org/missing"]["message"]
    assert (results["not a/valid id"]["error"], results["not a/valid id"]["exit_code"]) == ("InvalidModelIdError", 2)
    assert results["a/b/c"]["exit_code"] == 2
    assert results["org/no-config"]["error"] == "ConfigError"
    assert results["org/not-json"]["error"] == "ConfigError" and "JSON" in results["org/not-json"]["message"]
    assert results["org/zero-patch"]["error"] == "ConfigError"
    assert {r["exit_code"] for k, r in results.items() if k not in ("not a/valid id", "a/b/c")} == {3}


def test_unreachable_host_and_offline_without_cache(hf_env):
    env = dict(hf_env, HF_ENDPOINT=f"http://127.0.0.1:{closed_port()}")
    (down,) = resolve(env, "org/anything")
    assert (down["error"], down["exit_code"]) == ("HubUnreachableError", 3)
    assert "cannot reach" in down["message"] and "not in the cache" in down["message"]
    (offline,) = resolve(dict(hf_env, HF_HUB_OFFLINE="1"), "org/anything")
    assert (offline["error"], offline["exit_code"]) == ("NotInCacheError", 3)
    assert "HF_HUB_OFFLINE" in offline["message"]


def test_token_goes_through_the_library_and_is_never_printed(hub, hf_env):
    canary = "hf_CANARY_do_not_print_7f3a9c"
    cfg = public("Qwen/Qwen2.5-0.5B").config
    hub.add_model("org/private", cfg, tensors=llama_tensors(cfg), private=True)
    hub.add_model("org/gated", cfg, tensors=llama_tensors(cfg), gated=True)
    proc = run_hub(dict(hf_env, HF_TOKEN=canary), "--resolve", "org/private", "org/gated")
    assert canary not in proc.stdout + proc.stderr
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [x["error"] for x in lines] == ["RepoNotFoundError", "GatedRepoError"]
    # huggingface_hub sent the token (the stand-in saw an Authorization header on every file request).
    assert all(had_auth for _method, path, had_auth in hub.requests if "/resolve/" in path)
    # The right token (the server's) reads both; still nothing of it in the output.
    proc = run_hub(dict(hf_env, HF_TOKEN=hub.token), "--resolve", "org/private", "org/gated")
    assert hub.token not in proc.stdout + proc.stderr
    assert all(json.loads(x)["params_total"] == 494_032_768 for x in proc.stdout.splitlines())
    assert all(json.loads(x)["params_source"] == "safetensors" for x in proc.stdout.splitlines())
    # The safetensors headers came from the storage host, which never saw the token.
    storage = [had_auth for _method, path, had_auth in hub.requests if path.startswith("/cdn/")]
    assert storage and not any(storage)


def test_remote_code_config_is_read_as_data_only(hub, hf_env):
    cfg = dict(public("Qwen/Qwen2.5-0.5B").config,
               auto_map={"AutoModelForCausalLM": "modeling_custom.CustomForCausalLM"})
    hub.add_model("org/remote-code", cfg, tensors=llama_tensors(cfg),
                  files={"modeling_custom.py": b"raise SystemExit('executed!')\n"})
    hub.add_model("org/exotic", {"model_type": "my_new_arch", "auto_map": {"AutoConfig": "x.Y"}})
    (ok, exotic) = resolve(hf_env, "org/remote-code", "org/exotic")
    assert ok["params_total"] == 494_032_768 and "not run" in ok["remote_code"]
    assert exotic["error"] == "ConfigError" and "my_new_arch" in exotic["message"]
    assert not any(path.endswith(".py") for _, path, _ in hub.requests)


def test_public_models_cover_the_kinds_the_issue_names():
    kinds = " ".join(m.kind for m in PUBLIC_MODELS)
    for word in ("dense", "GQA", "MoE", "multimodal", "encoder-decoder"):
        assert word in kinds
    assert len({m.repo_id for m in PUBLIC_MODELS}) == len(PUBLIC_MODELS) >= 10


TINY = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 64,
        "intermediate_size": 128, "num_attention_heads": 4, "num_key_value_heads": 2,
        "num_hidden_layers": 2, "vocab_size": 1000, "tie_word_embeddings": False}


def download(env: Mapping[str, str], repo_id: str, *filenames: str) -> None:
    """Fill the cache as another tool would (transformers, ``hf download``): real downloads."""
    code = ("import sys\nfrom huggingface_hub import hf_hub_download\n"
            "for f in sys.argv[2:]:\n    hf_hub_download(sys.argv[1], f)\n")
    proc = subprocess.run([sys.executable, "-c", code, repo_id, *filenames], env=dict(env),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_weights_downloaded_by_another_tool_give_exact_counts_offline(hub, hf_env):
    tensors = llama_tensors(TINY, "F32")
    hub.add_model("org/tiny", TINY, shards=shard(tensors, 2))
    index = "model.safetensors.index.json"
    download(hf_env, "org/tiny", "config.json", index, "model-00001-of-00002.safetensors",
             "model-00002-of-00002.safetensors")
    (r,) = resolve(dict(hf_env, HF_HUB_OFFLINE="1"), "org/tiny")
    expected = sum(math.prod(shape) for _, shape in tensors.values())
    assert (r["params_source"], r["params_total"], r["from_cache"]) == ("safetensors", expected, True)
    assert r["params_total"] == summarize_tensors((n, d, s) for n, (d, s) in tensors.items()).params_total


def test_cached_config_without_weights_answers_from_the_formula_when_the_hub_is_down(hub, hf_env):
    cfg = public("Qwen/Qwen2.5-0.5B").config
    hub.add_model("org/config-only", cfg, tensors=llama_tensors(cfg))
    download(hf_env, "org/config-only", "config.json")
    (down,) = resolve(dict(hf_env, HF_ENDPOINT=f"http://127.0.0.1:{closed_port()}"), "org/config-only")
    assert down["params_source"] == "formula" and down["params_total"] == 494_032_768
    assert "unreachable" in down["weights_note"]
    (offline,) = resolve(dict(hf_env, HF_HUB_OFFLINE="1"), "org/config-only")
    assert offline["params_source"] == "formula" and "not in the cache" in offline["weights_note"]
    # With the Hub back, the next run completes the cache with the exact count.
    (online,) = resolve(hf_env, "org/config-only")
    assert online["params_source"] == "safetensors" and online["from_cache"] is False


def test_moe_with_unrecognised_expert_names_keeps_the_formula_active_ratio(hub, hf_env):
    m = public("mistralai/Mixtral-8x7B-v0.1")
    renamed = {name.replace(".experts.", ".fused_moe_"): spec for name, spec in llama_tensors(m.config).items()}
    assert not any(".experts." in name for name in renamed)
    hub.add_model("org/fused-moe", m.config, shards=shard(renamed, 3))
    (r,) = resolve(hf_env, "org/fused-moe")
    assert r["params_source"] == "safetensors" and r["weights"]["routed_expert_params"] == 0
    assert (r["params_total"], r["params_active"]) == (m.published, m.active)


def _lying_header(header: dict, declared_len: Optional[int] = None, size: int = 4096):
    from hubserver import VirtualFile

    raw = json.dumps(header).encode()
    raw += b" " * (-len(raw) % 8)
    prefix = struct.pack("<Q", declared_len if declared_len is not None else len(raw)) + raw
    return VirtualFile(prefix, max(size, len(prefix)))


def test_hub_responses_that_lie_about_sizes_never_crash(hub, hf_env):
    """Safetensors headers whose shapes, offsets or length do not add up: each repo gives
    an answer or one clear error, never a traceback, and no absurd count is trusted."""
    cfg = public("Qwen/Qwen2.5-0.5B").config
    huge = {"__metadata__": {"format": "pt"},
            "model.embed_tokens.weight": {"dtype": "BF16", "shape": [2 ** 40, 2 ** 40],
                                          "data_offsets": [0, 2 ** 81]}}
    negative = {"model.embed_tokens.weight": {"dtype": "BF16", "shape": [-5, 896],
                                              "data_offsets": [0, 10]}}
    junk = {"model.embed_tokens.weight": {"dtype": "NOPE", "shape": "many", "data_offsets": "x"}}
    hub.add_model("liar/huge", cfg, files={"model.safetensors": _lying_header(huge)})
    hub.add_model("liar/negative", cfg, files={"model.safetensors": _lying_header(negative)})
    hub.add_model("liar/junk", cfg, files={"model.safetensors": _lying_header(junk)})
    hub.add_model("liar/length", cfg, files={"model.safetensors": _lying_header(
        {"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}, declared_len=2 ** 62)})
    results = {r["model"]: r for r in resolve(hf_env, "liar/huge", "liar/negative", "liar/junk",
                                               "liar/length")}
    assert sorted(results) == ["liar/huge", "liar/junk", "liar/length", "liar/negative"]
    for r in results.values():
        assert "Traceback" not in json.dumps(r), r
        if "error" in r:
            assert r["message"] and r["exit_code"] in (2, 3), r
        else:  # a header that does not add up is not used: the config formula answers
            assert 0 < r["params_total"] < 10 ** 12, r
