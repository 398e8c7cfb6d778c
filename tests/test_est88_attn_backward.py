"""est88: a materialised (eager / math) attention's backward grows by more than 4 bytes a score in
fp32 without dropout, under CUDA autocast and in bf16 with the explicit fp32 softmax (ATen's
``softmax(x, dim, dtype=float32)`` converts a bfloat16 input first; only a CUDA Half input takes
the fused ``half_to_float`` kernel: ``aten/src/ATen/native/SoftMax.cpp``), and by less with a
16-bit implicit softmax and dropout. Pinned to the CPU replay
``calibration/data/est88_attn_backward.json`` (``calibration/est88_attn_backward.py``: every
storage's birth and death in program order)."""

from __future__ import annotations

import json
from pathlib import Path

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.activations import math_attention_backward_bytes as growth
from preflight.estimate.arch import from_hf_config

DATA = Path(__file__).resolve().parents[1] / "calibration" / "data" / "est88_attn_backward.json"
LLAMA = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 1024,
         "intermediate_size": 2816, "num_hidden_layers": 4, "num_attention_heads": 16,
         "num_key_value_heads": 16, "vocab_size": 1000, "max_position_embeddings": 4096,
         "tie_word_embeddings": False, "hidden_act": "silu"}


def _replay() -> dict:
    return {(r["case"], r["dropout"]): r["per_score"] for r in json.loads(DATA.read_text())["rows"]}


def test_the_replay_gives_the_constants_where_cpu_and_cuda_kernels_agree():
    got = _replay()
    assert got[("fp32", 0.0)] == growth(4, autocast=False, implicit=False, dropout=False) == 8.0
    assert got[("fp32", 0.1)] == growth(4, autocast=False, implicit=False, dropout=True) == 4.0
    assert got[("autocast", 0.0)] == growth(2, autocast=True, implicit=False, dropout=False) == 6.0
    assert got[("autocast", 0.1)] == growth(2, autocast=True, implicit=True, dropout=True) == 6.0
    assert got[("bf16-implicit", 0.0)] == growth(2, autocast=False, implicit=True, dropout=False) == 4.0
    assert got[("bf16-implicit", 0.1)] == growth(2, autocast=False, implicit=True, dropout=True) == 2.0
    # bf16 takes the same toType path on CUDA as on the CPU
    assert got[("bf16-upcast", 0.0)] == growth(2, autocast=False, implicit=False, dropout=False) == 6.0


def test_cpu_noise_and_cuda_half_to_float_cases():
    # CPU dropout saves a 2-byte noise (dies before the peak); CUDA's 1-byte mask leaves one more
    assert _replay()[("bf16-upcast", 0.1)] == 4.0
    assert growth(2, autocast=False, implicit=False, dropout=True) == 5.0
    # fp16 on CUDA: the fused kernel writes the 16-bit input gradient: the earlier 4
    assert growth(2, autocast=False, implicit=False, dropout=False, half_to_float=True) == 4.0


def _bwd(precision: str, attention: str = "eager", dropout: float = 0.0) -> float:
    inp = EstimateInput(arch=from_hf_config(dict(LLAMA, attention_dropout=dropout), name="m"),
                        mode="train", precision=precision, micro_batch=2, seq_len=1024,
                        attention=attention, world_size=1, torch_version="2.5.1",
                        transformers_version="4.49.0", optimizer="adamw")
    est = estimate(inp)
    return sum(v for p in est.phases.values() for k, v in p.items() if k == "backward_transient")


def test_eager_fp32_and_bf16_charge_more_fp16_and_sdpa_unchanged():
    scores = 2 * 16 * 1024 * 1024
    # bf16 against fp16 (same element size, same saved tensors): the 2 bytes a score of the
    # fp32 input gradient that CUDA's half_to_float kernel does not make
    assert abs((_bwd("bf16") - _bwd("fp16")) - 2 * scores) < 0.01 * scores
    # SDPA materialises no scores: bf16 and fp16 alike
    assert _bwd("bf16", "sdpa") == _bwd("fp16", "sdpa")
