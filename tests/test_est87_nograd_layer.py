"""est87: without autograd a hand-written attention's score tensors die when the attention returns,
before the MLP makes its tensors, so the layer's no-grad transient is the larger of the two sides
(``preflight/estimate/inference.py``), not their sum. Traced on held-out-42's CS336 xl no-grad forward at
4 x 2,048 (+4.1% blind; the same shape +4.1..+5.1% in held-out-34/35, +16.6% at 8 layers in held-out-36;
in-sample after est87). Pinned to the CPU replay ``calibration/data/est87_nograd_layer_peak.json``
(``calibration/est87_nograd_layer_peak.py``: every storage's birth and death in program order)."""

from __future__ import annotations

import json
from pathlib import Path

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config

DATA = Path(__file__).resolve().parents[1] / "calibration" / "data" / "est87_nograd_layer_peak.json"
XL = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 2560,
      "intermediate_size": 10240, "num_hidden_layers": 32, "num_attention_heads": 32,
      "num_key_value_heads": 32, "vocab_size": 10000, "max_position_embeddings": 2048,
      "tie_word_embeddings": False, "hidden_act": "silu"}


def _transient(width: int = 10240, seq: int = 2048, **kw) -> float:
    cfg = dict(XL, intermediate_size=width)
    base = dict(arch=from_hf_config(cfg, name="m"), mode="infer", precision="fp32", micro_batch=4,
                seq_len=seq, padding="max_length", attention="eager", world_size=1,
                torch_version="2.11.0", model_impl="transformers", python_ops=("softmax", "silu"))
    base.update(kw)
    return estimate(EstimateInput(**base)).phases["forward"]["prefill_transient"]


def test_the_replay_matches_the_larger_side_for_the_hand_written_attention():
    rows = {(r["impl"], r["seq"]): r for r in json.loads(DATA.read_text())["rows"]}
    for seq in (512, 128):   # scores-dominated, MLP-dominated
        r = rows[("course", seq)]
        assert abs(r["max_bytes"] - r["measured_transient_bytes"]) / r["measured_transient_bytes"] < 0.02
        assert r["sum_bytes"] > 1.1 * r["measured_transient_bytes"]


def test_transformers_eager_attention_keeps_the_sum():
    # its attention side beyond the scores (the 4D mask, q/k/v, the scaled copy) is not charged: the
    # replay reads above the larger side, so its rows keep the sum (twin: no python_ops)
    r = {(r["impl"], r["seq"]): r for r in json.loads(DATA.read_text())["rows"]}[("hf-llama-eager", 512)]
    assert r["measured_transient_bytes"] > r["max_bytes"] * 1.3
    a, b = _transient(python_ops=()), _transient(width=20480, python_ops=())
    assert b - a == 4 * 2048 * 3 * 10240 * 4   # the MLP's width counts at any length


def test_long_context_the_mlp_width_does_not_count():
    # 4 x 2,048: the scores (4 x 32 x 2048^2 x 16 bytes) dwarf 3 MLP-width tensors, so doubling the
    # MLP changes nothing; the attention side holds q, k and v beside them
    assert _transient() == _transient(width=20480)
    tokens = 4 * 2048
    assert _transient() == tokens * 2 * 2560 * 4 + 4 * 32 * 2048 ** 2 * 16 + tokens * 3 * 2560 * 4


def test_short_context_the_mlp_is_the_larger_side():
    tokens = 4 * 32
    assert _transient(seq=32) == tokens * 2 * 2560 * 4 + tokens * 3 * 10240 * 4


def test_gqa_keys_and_values_are_the_kv_heads():
    full = _transient(seq=1024)
    gqa = _transient(seq=1024, arch=from_hf_config(dict(XL, num_key_value_heads=8), name="m"))
    assert full - gqa == 4 * 1024 * 2 * (32 - 8) * 80 * 4
