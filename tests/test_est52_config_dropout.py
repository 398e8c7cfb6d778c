"""The dropout probabilities a config states (est52, issue 17; held-out-24 is in-sample for this).

ELECTRA's eager attention, transformers 4.51.0 ``models/electra/modeling_electra.py``: ``attention_probs =
nn.functional.softmax(attention_scores, dim=-1)`` (line 318, in the scores' dtype), ``attention_probs =
self.dropout(attention_probs)`` (line 322, ``nn.Dropout(config.attention_probs_dropout_prob)``, line 224),
``context_layer = torch.matmul(attention_probs, value_layer)`` (line 328). In training on CUDA, autograd keeps, per
score: softmax's output (fp16, 2 B), native_dropout's bool mask (1 B) and the dropped probabilities the matmul reads
(fp16, 2 B): 5 bytes, where dropout off keeps the softmax output alone (2 B). The estimator read p from a table by
model type that had no ELECTRA entry (p = 0); it now reads the config (``estimate/dropout_probs.py``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preflight.estimate import activations as A
from preflight.estimate.arch import ArchitectureError, from_hf_config
from preflight.estimate.dropout_probs import config_dropouts

ROOT = Path(__file__).resolve().parents[1]
#: google/electra-base-generator's shapes (google-research/electra ``get_generator_config``: hidden 768 / 3,
#: FFN 4 x hidden, hidden // 64 heads; embedding_size 768 for base), ElectraConfig's dropout defaults stated
GENERATOR = {
    "model_type": "electra", "architectures": ["ElectraForMaskedLM"], "vocab_size": 30522, "embedding_size": 768,
    "hidden_size": 256, "num_hidden_layers": 12, "num_attention_heads": 4, "intermediate_size": 1024,
    "hidden_act": "gelu", "hidden_dropout_prob": 0.1, "attention_probs_dropout_prob": 0.1,
    "max_position_embeddings": 512, "type_vocab_size": 2}
DISCRIMINATOR = dict(GENERATOR, hidden_size=768, num_attention_heads=12, intermediate_size=3072)
FP16 = A.Dtypes(res=2, comp=2, weights=2.0)


def _layer(cfg, attention, tokens=4096, seq=256, override=None):
    arch = from_hf_config(cfg, name=cfg["model_type"])
    return A.transformer_layer(arch, FP16, tokens=tokens, seq=seq, batch=tokens // seq, attention=attention,
                               train_weights=True, lora_targets=frozenset(), lora_r=0, lora_dropout=0.0,
                               dropout=A._dropout(arch, override),
                               resid_dropout=A.resid_dropout(arch, override))


def test_electra_eager_layer_by_hand_with_dropout():
    h, i, heads, seq = 256, 1024, 4, 256
    sdpa = (2 * h * 2          # two nn.LayerNorm inputs, 16-bit
            + h * 2            # query/key/value read one saved input
            + 3 * h * 2        # SDPA keeps q, k, v
            + heads * 4        # and its fp32 logsumexp
            + h * 2            # its output is the dense projection's input
            + h * 2            # the first LayerNorm's output: the FFN's input
            + 2 * i * 2        # GELU's input and output (the second dense's input)
            + 2 * h * 1)       # hidden_dropout_prob 0.1: two bool masks on the residual stream
    assert _layer(GENERATOR, "sdpa").saved == sdpa * 4096
    # eager: q and k for the score matmul, v for the probability matmul (the 3h above) and, per score,
    # softmax output 2 B + dropout mask 1 B + dropped probabilities 2 B; no logsumexp
    eager = sdpa - heads * 4 + heads * seq * (2 + 1 + 2)
    assert _layer(GENERATOR, "eager").saved == eager * 4096


def test_dropout_off_twin_keeps_two_bytes_a_score_and_no_masks():
    off = dict(GENERATOR, attention_probs_dropout_prob=0.0, hidden_dropout_prob=0.0)
    heads, seq, h = 4, 256, 256
    gap_off = (_layer(off, "eager").saved - _layer(off, "sdpa").saved) / 4096
    assert gap_off == heads * seq * 2 - heads * 4
    assert (_layer(GENERATOR, "sdpa").saved - _layer(off, "sdpa").saved) / 4096 == 2 * h
    # a job's own dropout override (EstimateInput.dropout) still decides over the config
    assert _layer(GENERATOR, "eager", override=0.0).saved == _layer(off, "eager").saved


def test_config_without_the_keys_gets_the_config_class_default():
    bare = {k: v for k, v in GENERATOR.items() if "dropout" not in k}
    assert _layer(bare, "eager").saved == _layer(GENERATOR, "eager").saved          # ElectraConfig: 0.1
    albert = {"model_type": "albert", "vocab_size": 30000, "embedding_size": 128, "hidden_size": 768,
              "num_hidden_layers": 12, "num_attention_heads": 12, "intermediate_size": 3072,
              "max_position_embeddings": 512}
    assert from_hf_config(albert, name="albert").extra["dropout"] == 0.0         # AlbertConfig: 0
    gpt2 = {"model_type": "gpt2", "n_embd": 64, "n_layer": 2, "n_head": 4, "vocab_size": 100,
            "n_positions": 64, "attn_pdrop": 0.0, "resid_pdrop": 0.2}
    assert config_dropouts("gpt2", gpt2) == {"dropout": 0.0, "resid_dropout": 0.2}
    assert config_dropouts("distilbert", {"attention_dropout": 0.0}) == {"dropout": 0.0, "resid_dropout": 0.1}
    assert config_dropouts("llama", {"attention_dropout": 0.1}) is None           # not read here
    # T5: one dropout_rate for both; BART-family: BartConfig's attention_dropout default is 0.0 (the old
    # table's 0.1 was the facebook checkpoints' stated value), its residual dropout 0.1
    assert config_dropouts("t5", {"dropout_rate": 0.0}) == {"dropout": 0.0, "resid_dropout": 0.0}
    assert config_dropouts("bart", {}) == {"dropout": 0.0, "resid_dropout": 0.1}
    assert config_dropouts("bart", {"attention_dropout": 0.1}) == {"dropout": 0.1, "resid_dropout": 0.1}
    assert config_dropouts("whisper", {}) == {"dropout": 0.0, "resid_dropout": 0.0}
    assert config_dropouts("vit", {"hidden_dropout_prob": 0.1}) == {"dropout": 0.0, "resid_dropout": 0.1}


def test_t5_layer_without_dropout_keeps_no_masks():
    """T5 (4.51.0 ``modeling_t5.py`` 559-560): ``softmax(scores.float(), dim=-1).type_as(scores)`` keeps its fp32
    output (4 B a score); with dropout_rate > 0 the dropout's mask (1 B) and the dropped fp16 copy the matmul reads
    (2 B), without it the fp16 copy alone (2 B); plus, per token, two residual masks (d_model each) and
    T5DenseActDense's own dropout mask (d_ff)."""
    t5 = {"model_type": "t5", "d_model": 64, "d_kv": 16, "d_ff": 256, "num_layers": 2, "num_heads": 4,
          "vocab_size": 100, "feed_forward_proj": "relu"}
    on = _layer(t5, "eager", tokens=256, seq=64)                        # T5Config's default 0.1
    off = _layer(dict(t5, dropout_rate=0.0), "eager", tokens=256, seq=64)
    heads, seq, d_model, d_ff = 4, 64, 64, 256
    assert (on.saved - off.saved) / 256 == heads * seq * ((4 + 1 + 2) - (4 + 2)) + 2 * d_model + d_ff


def test_published_eager_minus_sdpa_gap_is_five_bytes_a_score():
    """held-out-24 (in-sample here): the PR's eager minus SDPA peak, per layer, token and score."""
    rows = json.loads((ROOT / "calibration" / "public" / "heldout24.json").read_text())["rows"]
    peak = {r["id"].split("/")[1]: r["peak_bytes"] for r in rows}
    for model, heads in (("discriminator", 12), ("generator", 4)):
        gap = (peak[f"electra-base-{model}-mlm-eager-fp16-b16-s256-t4"]
               - peak[f"electra-base-{model}-mlm-sdpa-fp16-b16-s256-t4"])
        per_score = (gap / 12 / 4096 + heads * 4) / (heads * 256)
        assert abs(per_score - 5) < 0.1, (model, per_score)       # 5.009 and 5.000; dropout off would be 2
    layer_gap = _layer(DISCRIMINATOR, "eager").saved - _layer(DISCRIMINATOR, "sdpa").saved
    measured = peak["electra-base-discriminator-mlm-eager-fp16-b16-s256-t4"] - \
        peak["electra-base-discriminator-mlm-sdpa-fp16-b16-s256-t4"]
    assert abs(12 * layer_gap - measured) / measured < 0.01


@pytest.mark.parametrize("value", ["high", 1.5, -0.1, True])
def test_a_bad_probability_is_one_clear_error(value):
    with pytest.raises(ArchitectureError) as err:
        from_hf_config(dict(GENERATOR, attention_probs_dropout_prob=value), name="my-electra")
    assert "my-electra" in str(err.value) and "attention_probs_dropout_prob" in str(err.value)
