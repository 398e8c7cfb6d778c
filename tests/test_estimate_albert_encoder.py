"""ALBERT and ELECTRA layers, recomputed by hand (held-out-7's ALBERT rows, first scoring +3..+25%
eager and -2..-19% SDPA; in-sample after these fixes).

Three causes, each read in transformers' modeling code (``modeling_albert.py``,
``modeling_electra.py``; 4.43 for the rows, the same in 5.24):

1. The encoder tables named BERT, RoBERTa, XLM-R and DistilBERT but not ALBERT and ELECTRA, which
   the same reader reads: their layers were charged an RMSNorm (fp32 input plus normalised
   value: 4,608 B a token where ``nn.LayerNorm`` keeps its 16-bit input, 1,536 B), an explicit
   fp32 softmax copy (their eager attention calls ``softmax(scores, dim=-1)`` in the scores'
   dtype) and RoPE tables (absolute positions: none).
2. ``hidden_act: gelu_new`` (ALBERT's default) is transformers' ``NewGELUActivation``, the tanh
   formula in Python ops: autograd keeps x, tanh, 0.5*x and 1+tanh besides the output. It was
   chosen by model type (GPT-2, Phi, GPT-J, CodeGen) only; now by the config's name too.
3. ALBERT's and ELECTRA's MLM heads project to ``embedding_size`` before the ``vocab x
   embedding_size`` decoder: the head's weight gradient is that table, not ``vocab x hidden``.
"""

from __future__ import annotations

import json
from pathlib import Path

from preflight.estimate import EstimateInput, estimate
from preflight.estimate import activations as A
from preflight.estimate.arch import from_hf_config
from preflight.estimate.terms import head_dim, head_grad_at_backward_start, tied_embedding_grad

ROOT = Path(__file__).resolve().parents[1]
ALBERT = {  # albert/albert-base-v2 config.json
    "model_type": "albert", "architectures": ["AlbertForMaskedLM"], "vocab_size": 30000,
    "embedding_size": 128, "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,
    "intermediate_size": 3072, "hidden_act": "gelu_new", "hidden_dropout_prob": 0,
    "attention_probs_dropout_prob": 0, "max_position_embeddings": 512, "type_vocab_size": 2,
    "num_hidden_groups": 1, "inner_group_num": 1}
ELECTRA = {  # google/electra-base-generator config.json
    "model_type": "electra", "architectures": ["ElectraForMaskedLM"], "vocab_size": 30522,
    "embedding_size": 768, "hidden_size": 256, "num_hidden_layers": 12, "num_attention_heads": 4,
    "intermediate_size": 1024, "hidden_act": "gelu", "max_position_embeddings": 512,
    "type_vocab_size": 2}
FP16 = A.Dtypes(res=2, comp=2, weights=2.0)
H, INTER, HEADS = 768, 3072, 12


def _layer(cfg, attention="sdpa", tokens=2048, seq=512):
    arch = from_hf_config(cfg, name=cfg["model_type"])
    return A.transformer_layer(arch, FP16, tokens=tokens, seq=seq, batch=tokens // seq,
                               attention=attention, train_weights=True, lora_targets=frozenset(),
                               lora_r=0, lora_dropout=0.0, dropout=A._dropout(arch, None))


def test_albert_sdpa_layer_by_hand():
    per_token = (2 * H * 2          # two nn.LayerNorm inputs, 16-bit
                 + H * 2            # query/key/value read one saved input
                 + 3 * H * 2        # SDPA keeps q, k, v
                 + HEADS * 4        # and its fp32 logsumexp
                 + H * 2            # its output is the dense projection's input
                 + H * 2            # the first LayerNorm's output: the ffn's input
                 + 5 * INTER * 2)       # NewGELU: x, tanh, 0.5*x, 1+tanh, output (ffn_output's input)
    assert per_token == 43_056
    layer = _layer(ALBERT)
    assert layer.saved == per_token * 2048           # no RoPE tables: nothing per sequence


def test_albert_eager_keeps_one_16_bit_probability_tensor():
    # softmax(scores, dim=-1) in fp16; dropout(p=0) returns its input (ATen dropout: p == 0);
    # matmul(probs, v) keeps probs; the output's transpose(1,2).contiguous() is the dense input
    eager, sdpa = _layer(ALBERT, "eager"), _layer(ALBERT, "sdpa")
    assert (eager.saved - sdpa.saved) / 2048 == HEADS * 512 * 2 - HEADS * 4


def test_the_published_eager_minus_sdpa_gap_is_one_probability_tensor_per_layer():
    rows = json.loads((ROOT / "calibration" / "public" / "heldout7.json").read_text())["rows"]
    peak = {r["id"].split("/")[1]: r["peak_bytes"] for r in rows}
    gap = peak["albert-base-v2-mlm-eager-b4-s512"] - peak["albert-base-v2-mlm-sdpa-b4-s512"]
    per_layer_token = gap / 12 / 2048
    assert abs(per_layer_token - HEADS * 512 * 2) / (HEADS * 512 * 2) < 0.01   # 12,238 vs 12,288


def test_gelu_new_by_config_name_and_plain_gelu_twin():
    plain = dict(ALBERT, hidden_act="gelu")
    assert (_layer(ALBERT).saved - _layer(plain).saved) / 2048 == 3 * INTER * 2
    # ELECTRA's gelu: fc output and activation output only; LayerNorm, no RoPE, 16-bit softmax
    # (dropout off here, as this config states it; ElectraConfig's default of 0.1 adds the masks:
    # tests/test_est52_config_dropout.py)
    no_drop = dict(ELECTRA, attention_probs_dropout_prob=0.0, hidden_dropout_prob=0.0)
    arch = from_hf_config(no_drop, name="electra")
    h, i, heads = 256, 1024, 4
    per_token = 2 * h * 2 + h * 2 + 3 * h * 2 + heads * 4 + h * 2 + h * 2 + 2 * i * 2
    assert _layer(no_drop).saved == per_token * 2048
    eager = _layer(no_drop, "eager")
    assert (eager.saved - _layer(no_drop).saved) / 2048 == heads * 512 * 2 - heads * 4
    assert arch.extra["mlp_act"] == "gelu"


def test_mlm_head_is_vocab_by_embedding_size():
    albert = from_hf_config(ALBERT, name="albert")
    assert head_dim(albert) == 128
    assert head_grad_at_backward_start(albert, True, 2) == 30000 * 128 * 2       # 7.7 MB, not 46
    assert tied_embedding_grad(albert, True, 2) == 2 * 30000 * 128 * 2
    electra = from_hf_config(ELECTRA, name="electra")
    assert head_grad_at_backward_start(electra, True, 2) == 30522 * 768 * 2
    bert = from_hf_config({"model_type": "bert", "architectures": ["BertForMaskedLM"],
                           "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,
                           "intermediate_size": 3072, "vocab_size": 30522,
                           "max_position_embeddings": 512}, name="bert")
    assert head_dim(bert) == 768                                                 # unchanged


def test_held_out_7_albert_rows_in_sample():
    """In-sample (these rows were read to find the causes): within 3% of the PR's figures."""
    rows = json.loads((ROOT / "calibration" / "public" / "heldout7.json").read_text())["rows"]
    albert = [r for r in rows if r["source"] == "transformers-sdpa-albert"]
    assert len(albert) == 12
    for r in albert:
        s = r["setup"]
        inp = EstimateInput(arch=from_hf_config(s["hf_config"], name="albert"), mode="train",
                            precision="fp16", optimizer="sgd", micro_batch=s["micro_batch"],
                            seq_len=s["seq_len"], attention=s["attention"], loss="logits",
                            keeps_outputs=True, torch_version="2.3.1", transformers_version="4.43")
        got = estimate(inp).allocated_peak()[0]
        assert abs(got - r["peak_bytes"]) / r["peak_bytes"] < 0.03, r["id"]
