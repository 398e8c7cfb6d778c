"""The LM head's weight gradient at the start of backward (``terms.head_grad_at_backward_start``),
recomputed by hand: the head's own backward (the step's first matmul backward) makes a
``vocab x dim`` gradient while every activation, the logits and their gradient are alive.
Measured on CPU (``calibration/data/head_grad_peak.json``): DistilBERT's MLM step peaks inside
the head's ``AddmmBackward0``. This was held-out-4's DistilBERT "jump" between 512 and 1,024
tokens: from 1,024 tokens the peak moves from the end of backward to this moment."""

from __future__ import annotations

import json
from pathlib import Path

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.terms import head_grad_at_backward_start

DATA = Path(__file__).resolve().parents[1] / "calibration" / "data" / "head_grad_peak.json"
DISTILBERT = {"model_type": "distilbert", "architectures": ["DistilBertForMaskedLM"], "dim": 768,
              "n_layers": 6, "n_heads": 12, "hidden_dim": 3072, "vocab_size": 30522,
              "max_position_embeddings": 512, "dropout": 0.0, "attention_dropout": 0.0}
V, D = 30522, 768


def _inp(**kw):
    base = dict(arch=from_hf_config(DISTILBERT, name="distilbert"), mode="train",
                precision="fp16", optimizer="sgd", micro_batch=4, seq_len=256,
                attention="sdpa", torch_version="2.3.1", transformers_version="4.44",
                loss="logits", keeps_outputs=True, dropout=0.0)
    base.update(kw)
    return EstimateInput(**base)


def test_the_term_by_hand():
    arch = from_hf_config(DISTILBERT, name="distilbert")
    assert head_grad_at_backward_start(arch, True, 2) == V * D * 2          # 46.9 MB in fp16
    assert head_grad_at_backward_start(arch, True, 4) == V * D * 4          # fp32 gradients
    assert head_grad_at_backward_start(arch, False, 2) == 0.0               # frozen or sharded
    opt = from_hf_config({"model_type": "opt", "architectures": ["OPTForCausalLM"],
                          "hidden_size": 1024, "ffn_dim": 4096, "num_hidden_layers": 24,
                          "num_attention_heads": 16, "vocab_size": 50272,
                          "word_embed_proj_dim": 512,
                          "max_position_embeddings": 2048}, name="opt-350m")
    assert head_grad_at_backward_start(opt, True, 2) == 50272 * 512 * 2     # the 512-wide head


def test_backward_starts_with_logits_their_gradient_and_the_head_gradient():
    est = estimate(_inp())
    back = est.phases["backward"]
    tv = 1024 * V
    assert back["gradients"] == V * D * 2
    assert back["logits_loss"] == 2 * tv * 2          # logits + the dense gradient of sum()
    assert est.phase == "backward"


def test_not_for_lora_nor_when_the_gradients_are_kept():
    lora = estimate(_inp(lora_r=8)).phases["backward"]
    assert not lora.get("gradients")
    kept = estimate(_inp(zero_grad_keeps=True)).phases["backward"]
    # the gradients of the previous step hold the table already: accumulated in place
    assert kept["gradients"] == estimate(_inp(zero_grad_keeps=True)).phases["optimizer"]["gradients"]


def test_the_cpu_step_peaks_at_the_head_backward_as_estimated():
    rows = json.loads(DATA.read_text(encoding="utf-8"))["rows"]
    for row in rows:
        assert row["ops_at_peak"][1] == "AddmmBackward0"
        assert row["mm_input_dims_at_peak"][0] == [V, row["tokens"]]      # the head's weight grad
        est = estimate(_inp(micro_batch=row["batch"], seq_len=row["seq"], device="cpu"))
        back = est.phases["backward"]
        moment = back["activations"] + back["logits_loss"] + back["gradients"]
        # CPU's SDPA returns (batch, heads, seq, dim): the transpose before the output
        # projection is a copy there (2 bytes x dim per token and layer; CUDA: a view)
        moment += row["tokens"] * D * 2 * 6
        assert abs(moment - row["peak_bytes"]) / row["peak_bytes"] < 0.03
        without = moment - back["gradients"]
        assert abs(without - row["peak_bytes"]) / row["peak_bytes"] > 0.05
