"""lit-gpt's StableLM LoRA block, recomputed by hand against a CPU count of lit-gpt 8641822
(``calibration/data/litgpt_stablelm_lora_saved.json``, 123,304 B per token and block).

lit-gpt adapts parts of its fused ``attn`` by ``to_query``/``to_value`` whatever the model, so
the LoRA targets q_proj/v_proj apply to StableLM and Falcon, whose transformers configs name
one fused ``query_key_value`` (``activations.qkv_names``): the shared adapter input, its
dropout and ``zero_pad``'s source are saved. The parallel residual's two LayerNorms read x
once."""

from __future__ import annotations

import json
from pathlib import Path

from preflight.estimate import activations as A
from preflight.estimate.arch import from_hf_config

DATA = Path(__file__).resolve().parents[1] / "calibration" / "data" / "litgpt_stablelm_lora_saved.json"
STABLELM = {"model_type": "gpt_neox", "architectures": ["GPTNeoXForCausalLM"], "hidden_size": 4096,
            "intermediate_size": 16384, "num_hidden_layers": 16, "num_attention_heads": 32,
            "vocab_size": 50688, "max_position_embeddings": 4096, "rotary_pct": 0.25,
            "use_parallel_residual": True, "tie_word_embeddings": False}


def _layer(device, mask, impl="litgpt"):
    d = A.Dtypes(res=2, comp=2, weights=2.0, autocast=False, mask=mask)
    return A.transformer_layer(from_hf_config(STABLELM, name="stablelm"), d, tokens=256, seq=256,
                               batch=1, attention="sdpa", train_weights=False,
                               lora_targets=frozenset(("q_proj", "v_proj")), lora_r=8,
                               lora_dropout=0.05, dropout=0.0, device=device, impl=impl,
                               fused_gelu=True)


def test_litgpt_names_its_adapters_by_query_key_value_parts():
    arch = from_hf_config(STABLELM, name="stablelm")
    assert A.qkv_names(arch, "litgpt") == ("q_proj", "k_proj", "v_proj")
    assert A.qkv_names(arch) == ("query_key_value",)          # transformers/PEFT: the fused module


def test_the_cpu_count_by_hand():
    measured = json.loads(DATA.read_text(encoding="utf-8"))["per_token_per_block"]
    per_token = _layer("cpu", 2).saved / 256
    # the estimator keeps CPU dropout noise at 4 bytes (PEFT's fp32 input); lit-gpt's is bf16:
    # 2 bytes x 4096 channels less in the count
    assert abs((per_token - 2 * 4096) - measured) / measured < 0.01


def test_on_cuda_the_adapters_and_zero_pad_are_charged():
    h, r = 4096, 8
    # adapter input + bool mask, two rank-r projections, zero_pad's source (q and v widths)
    adapters = h * (2 + 1) + 2 * r * 2 + 2 * (h + h)
    mlp = 16384 * 2                      # fc output (gelu's input): fc and proj frozen
    attn = 2 * 3 * h + 2 * (h + h) + 32 * 4 + 2 * h   # q, k, v; v's view keeps attn; lse; out
    norm = 2 * h                         # x, once for both LayerNorms
    rope = 2 * 256 * 128 * 2 / 256       # cos/sin per layer, per token of this sequence
    assert _layer("cuda", 1).saved / 256 == adapters + mlp + attn + norm + rope
