"""transformers' GPT-NeoX layer, recomputed by hand against est7's CPU count of 4.42.0
(``calibration/data/saved_per_layer.json``: 37,064 B per layer and token, SDPA, fp16):

- ``value`` is a permuted view of the fused ``query_key_value`` output while q and k are new
  tensors after the partial-rotary ``cat``, so the saved v keeps all three widths
  (``terms.value_view_keeps_qkv``; SDPA before 4.48, eager always);
- with ``use_parallel_residual`` both LayerNorms read the same input: one saved tensor;
- the output copy before ``dense`` (CPU's kernel; CUDA's flash kernel for this query layout,
  ``terms.sdpa_output_copied``)."""

from __future__ import annotations

import json
from pathlib import Path

from preflight.estimate import EstimateInput
from preflight.estimate import activations as A
from preflight.estimate.arch import from_hf_config
from preflight.estimate.terms import value_view_keeps_qkv

DATA = Path(__file__).resolve().parents[1] / "calibration" / "data" / "saved_per_layer.json"
PYTHIA = {"model_type": "gpt_neox", "architectures": ["GPTNeoXForCausalLM"], "hidden_size": 1024,
          "intermediate_size": 4096, "num_hidden_layers": 24, "num_attention_heads": 16,
          "vocab_size": 50304, "max_position_embeddings": 2048, "rotary_pct": 0.25,
          "use_parallel_residual": True, "attention_dropout": 0.0, "hidden_dropout": 0.0}
FP16 = A.Dtypes(res=2, comp=2, weights=2, autocast=False, mask=2)


def _layer(cfg=PYTHIA, **kw):
    args = dict(tokens=256, seq=256, batch=1, attention="sdpa", train_weights=True,
                lora_targets=frozenset(), lora_r=0, lora_dropout=0.0, dropout=0.0, device="cpu")
    args.update(kw)
    return A.transformer_layer(from_hf_config(cfg, name="pythia"), FP16, **args)


def test_the_cpu_count_of_4_42_by_hand():
    rows = json.loads(DATA.read_text(encoding="utf-8"))["rows"]
    measured = next(r for r in rows if r["model_type"] == "gpt_neox" and r["attention"] == "sdpa")
    per_token = _layer(sdpa_out_copy=True, value_view_of_qkv=True).saved / 256
    # by hand: MLP 2 x 4096 x 2; fused qkv 3 x 1024 x 2 (kept by v); q, k, output 3 x 2048;
    # the output copy, the qkv and the MLP inputs 3 x 2048; one LayerNorm input 2048; logsumexp 64;
    # rotary cos/sin per layer
    assert abs(per_token - measured["saved_per_layer_token"]) / measured["saved_per_layer_token"] < 0.01
    assert _layer(value_view_of_qkv=True).saved - _layer().saved == 256 * (1024 + 1024) * 2


def test_parallel_residual_saves_the_shared_norm_input_once():
    sequential = dict(PYTHIA, use_parallel_residual=False)
    assert _layer(sequential).saved - _layer().saved == 256 * 1024 * 2


def test_when_v_keeps_the_fused_output():
    arch = from_hf_config(PYTHIA, name="pythia")

    def inp(**kw):
        base = dict(arch=arch, precision="fp16", seq_len=256, transformers_version="4.42")
        base.update(kw)
        return EstimateInput(**base)

    assert value_view_keeps_qkv(inp(), arch)                                   # SDPA, 4.42
    assert not value_view_keeps_qkv(inp(transformers_version="4.48"), arch)    # value.contiguous()
    assert not value_view_keeps_qkv(inp(transformers_version=None), arch)      # the latest
    assert value_view_keeps_qkv(inp(attention="eager", transformers_version="4.52"), arch)
    assert not value_view_keeps_qkv(inp(model_impl="litgpt"), arch)
    llama = from_hf_config({"model_type": "llama", "hidden_size": 512, "intermediate_size": 1376,
                            "num_hidden_layers": 2, "num_attention_heads": 8, "vocab_size": 32000,
                            "max_position_embeddings": 2048}, name="llama")
    assert not value_view_keeps_qkv(inp(arch=llama), llama)
