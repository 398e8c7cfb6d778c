"""est73: a decoder with a classification head instead of the LM head (``*ForSequenceClassification``),
recomputed from the shapes. Traced on held-out-33's Llama-3.2-1B LoRA row (sagarsrc/lora-experiments: the
base LlamaModel with a 2-class linear head on the last token, batch 16 x 256 on an A10; in-sample there),
which was charged 5.87 GiB of 128,256-word logits and loss and called out of memory.

transformers' ``LlamaForSequenceClassification`` has no ``lm_head``: ``self.score = nn.Linear(hidden_size,
num_labels, bias=False)`` runs over every position (batch x seq x num_labels logits) and is pooled at the last
non-pad token; the loss is over batch x num_labels. No vocabulary-sized tensor exists."""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import count_params, from_hf_config

# Llama-3.2-1B's shapes (tied embeddings, vocab 128,256)
L1B = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 2048,
       "intermediate_size": 8192, "num_hidden_layers": 16, "num_attention_heads": 32,
       "num_key_value_heads": 8, "vocab_size": 128256, "max_position_embeddings": 131072,
       "tie_word_embeddings": True, "hidden_act": "silu"}
CLS = dict(L1B, architectures=["LlamaForSequenceClassification"], num_labels=2)
UNTIED_CLS = dict(CLS, tie_word_embeddings=False)
PROJ = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")


def _inp(cfg=CLS, **kw) -> EstimateInput:
    base = dict(arch=from_hf_config(cfg, name="m"), mode="train", precision="fp32", optimizer="adamw",
                micro_batch=16, grad_accum=1, seq_len=256, padding="max_length", grad_ckpt=False,
                attention="sdpa", world_size=1, torch_version="2.5.1", transformers_version="4.56.0",
                lora_r=16, lora_dropout=0.1, lora_targets=PROJ)
    base.update(kw)
    return EstimateInput(**base)


def _logits(inp: EstimateInput) -> float:
    est = estimate(inp)
    return max(terms.get("logits_loss", 0.0) for terms in est.phases.values())


def test_the_causal_lm_twin_is_charged_its_vocabulary_logits():
    # the same model with its LM head: 16 x 256 x 128,256 fp32 logits (1.96 GiB a copy) are charged
    assert _logits(_inp(L1B)) >= 16 * 256 * 128256 * 4


def test_a_classification_head_is_charged_no_vocabulary_logits():
    assert _logits(_inp()) == 0.0
    # ... and the row's peak falls by more than those logits: 5.9 GiB between the two
    lm, cls = estimate(_inp(L1B)), estimate(_inp())
    assert lm.peak_bytes - cls.peak_bytes > 3 * 16 * 256 * 128256 * 4 * 0.9


def test_the_score_head_replaces_an_untied_lm_head_in_the_parameter_count():
    lm = count_params(from_hf_config(dict(L1B, tie_word_embeddings=False), name="m"))
    cls = count_params(from_hf_config(UNTIED_CLS, name="m"))
    # score = Linear(2048, 2, bias=False) instead of the 128,256 x 2048 LM head
    assert lm.total - cls.total == 128256 * 2048 - 2048 * 2
    # tied: the table stays (the embedding), the head adds its 4,096 weights
    tied_lm = count_params(from_hf_config(L1B, name="m"))
    tied_cls = count_params(from_hf_config(CLS, name="m"))
    assert tied_cls.total - tied_lm.total == 2048 * 2


def test_inference_of_a_classifier_has_no_vocabulary_logits():
    est = estimate(_inp(mode="infer", lora_r=None, lora_dropout=0.0, lora_targets=()))
    assert "logits_loss" not in est.phases["forward"]
    twin = estimate(_inp(L1B, mode="infer", lora_r=None, lora_dropout=0.0, lora_targets=()))
    assert twin.phases["forward"]["logits_loss"] == 16 * 256 * 128256 * 4


def test_autocast_caches_the_score_head_not_the_tied_table():
    # bf16 autocast over fp32 weights: the cached head is score (2 x 2048), not 128,256 x 2048
    cls = estimate(_inp(precision="amp-bf16", lora_r=None, lora_dropout=0.0, lora_targets=()))
    lm = estimate(_inp(L1B, precision="amp-bf16", lora_r=None, lora_dropout=0.0, lora_targets=()))
    diff = lm.phases["forward"]["autocast_weight_cache"] - cls.phases["forward"]["autocast_weight_cache"]
    assert diff == (128256 * 2048 - 2048 * 2) * 2
