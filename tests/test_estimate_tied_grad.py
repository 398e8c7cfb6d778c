"""The end-of-backward transient of a tied LM head (``terms.tied_embedding_grad``), recomputed
by hand: the autograd engine holds the head's gradient for the tied weight until the embedding's
dense gradient arrives and sums the two out of place, so two ``vocab x dim`` tables exist beyond
``.grad`` (measured on CPU: ``calibration/data/tied_embedding_grad.json``). Held-out-5's
gpt2-large and held-out-4's DistilBERT/OPT rows are tied; Pythia's are not."""

from __future__ import annotations

import json
from pathlib import Path

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.terms import TIED_GRAD_TABLES, tied_embedding_grad

DATA = Path(__file__).resolve().parents[1] / "calibration" / "data" / "tied_embedding_grad.json"

GPT2_LARGE = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_embd": 1280,
              "n_layer": 36, "n_head": 20, "n_positions": 1024, "vocab_size": 50257}
DISTILBERT = {"model_type": "distilbert", "architectures": ["DistilBertForMaskedLM"], "dim": 768,
              "n_layers": 6, "n_heads": 12, "hidden_dim": 3072, "vocab_size": 30522,
              "max_position_embeddings": 512}


def _inp(cfg, **kw):
    base = dict(arch=from_hf_config(cfg, name="m"), mode="train", precision="fp16",
                optimizer="sgd", micro_batch=1, seq_len=128, attention="sdpa",
                torch_version="2.3.1", transformers_version="4.44", loss="logits")
    base.update(kw)
    return EstimateInput(**base)


def test_two_tables_beyond_the_gradients_by_hand():
    gpt2 = from_hf_config(GPT2_LARGE, name="gpt2-large")
    assert TIED_GRAD_TABLES == 2
    assert tied_embedding_grad(gpt2, True, 2) == 2 * 50257 * 1280 * 2       # 257.3 MB in fp16
    distil = from_hf_config(DISTILBERT, name="distilbert")
    assert tied_embedding_grad(distil, True, 2) == 2 * 30522 * 768 * 2      # 93.8 MB
    untied = from_hf_config(dict(GPT2_LARGE, tie_word_embeddings=False), name="untied")
    assert tied_embedding_grad(untied, True, 2) == 0.0
    assert tied_embedding_grad(gpt2, False, 2) == 0.0                       # frozen or sharded


def test_the_end_of_backward_carries_it_for_a_distilbert_mlm_step():
    est = estimate(_inp(DISTILBERT))
    back = est.phases["backward"]
    assert est.phase == "backward"
    assert back["backward_transient"] == 2 * 30522 * 768 * 2


def test_the_factor_is_what_the_engine_was_measured_to_hold():
    rows = {r["tied"]: r for r in json.loads(DATA.read_text(encoding="utf-8"))["rows"]}
    assert abs(rows[True]["transient_tables"] - TIED_GRAD_TABLES) < 0.1
    assert abs(rows[False]["transient_tables"]) < 0.1
