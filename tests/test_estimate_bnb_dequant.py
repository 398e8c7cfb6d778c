"""A 4-bit (bitsandbytes) base, recomputed by hand (``preflight/estimate/dequant.py``):

- every 4-bit matmul dequantizes its weight, forward and backward (``MatMul4Bit`` in
  bitsandbytes 0.41.1: ``F.dequantize_4bit(B, state).to(A.dtype)``);
- lit-gpt's Fabric plugin makes every Linear 4-bit, the LM head included, and quantizes from
  fp16, so a bf16 job holds the dequantized head twice (fp16 + bf16);
- transformers leaves the head in 16 bits: the largest dequantized matrix is a block's.

Measured on CPU with lit-gpt 8641822's model: ``calibration/data/bnb4bit_litgpt_peak.json``.
"""

from __future__ import annotations

import json
from pathlib import Path

from preflight.estimate import EstimateInput, estimate
from preflight.estimate import constants as C
from preflight.estimate.arch import from_hf_config

DATA = Path(__file__).resolve().parents[1] / "calibration" / "data" / "bnb4bit_litgpt_peak.json"

LLAMA7B = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
           "intermediate_size": 11008, "num_hidden_layers": 32, "num_attention_heads": 32,
           "vocab_size": 32000, "max_position_embeddings": 4096, "tie_word_embeddings": False}


def _inp(cfg=LLAMA7B, **kw):
    base = dict(arch=from_hf_config(cfg, name="m"), mode="train", precision="bf16",
                optimizer="adamw", micro_batch=1, seq_len=1304, attention="sdpa",
                lora_r=8, lora_targets=("q_proj", "v_proj"), lora_dropout=0.05,
                loss="chunked", model_impl="litgpt", quant="4bit", kbit_prepared=False)
    base.update(kw)
    inp = EstimateInput(**base)
    inp.sources = {"kbit_prepared": "test"}
    return inp


def test_litgpt_holds_the_head_dequantized_twice_at_the_start_of_backward():
    est = estimate(_inp())
    back = est.phases["backward"]
    head = 32000 * 4096
    assert back["dequant_transient"] == head * (2 + 2)       # fp16 state + its bf16 copy
    assert "logits_loss" in back                              # next to the loss gradients


def test_litgpt_stores_the_head_in_four_bits_transformers_in_sixteen():
    lit = estimate(_inp()).phases["backward"]["weights"]
    hf = estimate(_inp(model_impl="transformers")).phases["backward"]["weights"]
    head = 32000 * 4096
    # by hand: the head moves from 2 bytes to NF4's 0.5 + 4/64 bytes per weight
    assert abs((hf - lit) - head * (2 - C.NF4_BYTES_PER_PARAM)) <= 2


def test_transformers_dequantizes_one_block_matrix_in_the_compute_dtype():
    est = estimate(_inp(model_impl="transformers", grad_ckpt=True))
    back = est.phases["backward"]
    # grad_ckpt: backward's peak is one recomputed layer; its widest matrix is the MLP's
    assert back.get("dequant_transient") == 4096 * 11008 * 2


def test_litgpt_fp16_computes_in_the_state_dtype_one_copy():
    est = estimate(_inp(precision="fp16"))
    assert est.phases["backward"]["dequant_transient"] == 32000 * 4096 * 2


def test_no_4bit_base_no_dequantized_weight():
    # (an 8-bit base dequantizes in backward only: tests/test_est45_int8_matmul.py)
    est = estimate(_inp(quant=None, kbit_prepared=None))
    assert not any(t.get("dequant_transient") for t in est.phases.values())
    est = estimate(_inp(quant="8bit"))
    assert not est.phases["forward"].get("dequant_transient")


def test_the_measured_litgpt_step_matches_the_estimate():
    """The CPU measurement of lit-gpt's model with Lightning's fp16 state (the configuration
    lit-gpt runs): the estimator's step peak less weights and state is within 1%. In-sample in
    the sense that this model shaped the term; the term itself is read from the code."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    peaks = {r["variant"]: r["peak_bytes"] for r in data["peaks"]}
    # the fp16 state costs one more head-sized 2-byte copy than a bf16 state would
    assert abs(data["fp16_minus_bf16_state_in_head_elements"] - 2) < 0.1
    c = data["config"]
    cfg = dict(LLAMA7B, hidden_size=c["n_embd"], intermediate_size=c["intermediate_size"],
               num_hidden_layers=c["n_layer"], num_attention_heads=c["n_head"],
               vocab_size=c["padded_vocab_size"])
    est = estimate(_inp(cfg, seq_len=data["tokens"], device="cpu"))
    skip = {"weights", "lora_adapters", "optimizer_states", "cuda_context", "cublas_workspace",
            "fragmentation"}
    step = max(sum(v for k, v in t.items() if k not in skip)
               for p, t in est.phases.items() if p in ("forward", "backward"))
    assert abs(step - peaks["nf4_fp16_state"]) / peaks["nf4_fp16_state"] < 0.01


def test_litgpt_generation_dequantizes_the_head_for_the_prompt_not_for_one_row_steps():
    est = estimate(_inp(mode="generate", seq_len=16, max_new_tokens=50, lora_r=None,
                        lora_targets=None, lora_dropout=0.0))
    head = 32000 * 4096
    assert est.phases["prefill"]["dequant_transient"] == head * 4
    # batch 1 decoding runs gemv_4bit on the packed weight: nothing dequantized
    assert not est.phases["decode"].get("dequant_transient")
    two = estimate(_inp(mode="generate", seq_len=16, max_new_tokens=50, lora_r=None,
                        lora_targets=None, lora_dropout=0.0, micro_batch=2))
    assert two.phases["decode"]["dequant_transient"] == head * 4
