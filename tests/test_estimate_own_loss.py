"""A script's own cross-entropy on the logits the model returns (``loss_in_logits_dtype``),
recomputed by hand: ColossalAI-Pytorch-lightning 6a82b80 ``benchmark/gpt/model.py`` calls
``GPT2LMHeadModel`` without labels and runs ``CrossEntropyLoss(logits[..., :-1,
:].contiguous())`` on its 16-bit logits. The loss keeps the logits, their shifted copy and
log_softmax's output, all in the logits' dtype (autocast's fp32 copy and output under it):
no fp32 upcast, whatever the transformers version. held-out-6's GPT-2-XL ZeRO-3 batch-40 row
was +47% with transformers' latest fp32 loss charged."""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.terms import hf_loss_backward_bytes, hf_loss_forward_bytes

GPT2_XL = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_embd": 1600, "n_layer": 48,
           "n_head": 25, "n_positions": 1024, "n_ctx": 1024, "vocab_size": 50257,
           "activation_function": "gelu_new", "resid_pdrop": 0.1, "embd_pdrop": 0.1,
           "attn_pdrop": 0.1, "layer_norm_epsilon": 1e-05, "tie_word_embeddings": True}
V = 50257


def _inp(**kw):
    base = dict(arch=from_hf_config(GPT2_XL, name="gpt2-xl"), mode="train", precision="fp16",
                optimizer="adamw", micro_batch=8, seq_len=1024, grad_ckpt=True, attention="eager",
                transformers_version="4.52")
    base.update(kw)
    return EstimateInput(**base)


def test_bytes_per_token_and_vocab_by_hand():
    arch = from_hf_config(GPT2_XL, name="gpt2-xl")
    own = _inp(loss_in_logits_dtype=True)
    assert hf_loss_forward_bytes(own, 2, arch) == 2 + 2 + 2     # logits, shifted copy, log_softmax
    assert hf_loss_backward_bytes(own, 2, arch) == 2 + 2 + 2    # saved output and two gradients
    amp = _inp(loss_in_logits_dtype=True, precision="amp-fp16")
    assert hf_loss_forward_bytes(amp, 2, arch) == 2 + 2 + 4 + 4  # autocast's fp32 copy and output
    # the model's own labels= loss of transformers 4.52 upcasts: 2 + 4 + 4
    assert hf_loss_forward_bytes(_inp(), 2, arch) == 2 + 4 + 4
    assert hf_loss_backward_bytes(_inp(), 2, arch) == 4 + 4 + 4


def test_the_forward_term_by_hand():
    own = estimate(_inp(loss_in_logits_dtype=True))
    model = estimate(_inp())
    tokens = 8 * 1024
    assert own.phases["forward"]["logits_loss"] == round(tokens * V * 6)
    assert model.phases["forward"]["logits_loss"] == round(tokens * V * 10)
    assert own.tensor_peak()[0] < model.tensor_peak()[0]


def test_default_is_the_models_loss():
    assert _inp().loss_in_logits_dtype is False
