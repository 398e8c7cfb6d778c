"""What one litgpt block saves in a LoRA fine-tune (the devset's litgpt Phi-1.5 rows), recomputed
by hand and checked against the CPU count of lit-gpt's own module
(``calibration/litgpt_saved.py`` -> ``calibration/data/litgpt_phi_lora_saved.json``):

- the saved ``v`` is a view of the fused ``attn`` output, so q+k+v stay alive (not v alone);
- ``LoRAQKVLinear.zero_pad``'s ``index_copy`` saves its source, the q and v adapters' output;
- Phi's parallel block has one LayerNorm, whose input is saved once (not once per branch)."""

from __future__ import annotations

import json
from pathlib import Path

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config

DATA = Path(__file__).resolve().parents[1] / "calibration" / "data" / "litgpt_phi_lora_saved.json"
PHI_15 = {"model_type": "phi", "architectures": ["PhiForCausalLM"], "hidden_size": 2048,
          "intermediate_size": 8192, "num_hidden_layers": 24, "num_attention_heads": 32,
          "vocab_size": 51200, "partial_rotary_factor": 0.5, "max_position_embeddings": 2048,
          "tie_word_embeddings": False}
T = 256


def _activations(layers: int, impl: str = "litgpt") -> float:
    arch = from_hf_config(dict(PHI_15, num_hidden_layers=layers), name="phi-1_5")
    inp = EstimateInput(arch=arch, mode="train", precision="bf16", optimizer="adamw", micro_batch=1,
                        seq_len=T, lora_r=8, lora_targets=("q_proj", "v_proj"), lora_dropout=0.05,
                        attention="sdpa", loss="chunked", model_impl=impl)
    return estimate(inp).phases["forward"]["activations"]


def _per_block(impl: str = "litgpt") -> float:
    return (_activations(2, impl) - _activations(1, impl)) / T


def test_one_block_by_hand():
    h = q = kv = 2048
    by_hand = (
        h * 2                     # the one shared LayerNorm's input (bf16)
        + h * (2 + 1) + 2 * 8 * 2  # LoRA dropout output and bool mask, two rank-8 projections
        + 2 * (q + kv + kv)       # q and k after RoPE, v ... (bf16)
        + 2 * (q + kv)            # ... whose storage is the whole fused qkv output
        + 32 * 4 + 2 * q          # SDPA logsumexp (fp32 per head) and output
        + 2 * (q + kv)            # index_copy's source: the q and v adapters' output
        + 8192 * 2                # the tanh-GELU's input (fc_2 is frozen: its input is not saved)
        + 2 * 64 * 2              # RoPE cos/sin rows (seq x head_dim, per layer, per token)
    )
    assert by_hand == 59_808
    assert _per_block() == by_hand


def test_the_count_of_litgpts_own_block_agrees():
    row = json.loads(DATA.read_text(encoding="utf-8"))["rows"][0]
    cuda_equivalent = row["per_token_bytes"] - row["cpu_only_per_token_bytes"]
    assert abs(_per_block() - cuda_equivalent) / cuda_equivalent < 0.01


def test_a_parallel_block_with_one_norm_saves_its_input_once():
    # transformers' PhiDecoderLayer too: one input_layernorm read by attention and MLP
    from preflight.estimate import activations as A

    arch = from_hf_config(PHI_15, name="phi-1_5")
    two = from_hf_config(PHI_15, name="phi-1_5")
    two.extra["norms_per_layer"] = 2
    d = A.Dtypes(res=2, comp=2, weights=2)
    kw = dict(tokens=T, seq=T, batch=1, attention="sdpa", train_weights=True,
              lora_targets=frozenset(), lora_r=0, lora_dropout=0.0, dropout=0.0)
    one_norm = A.transformer_layer(arch, d, **kw).saved
    two_norms = A.transformer_layer(two, d, **kw).saved
    assert two_norms - one_norm == T * 2048 * 2          # one LayerNorm input, bf16
