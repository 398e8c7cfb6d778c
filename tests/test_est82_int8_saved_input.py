"""LLM.int8 keeps an int8 copy of each frozen linear's input for backward (est82), recomputed by
hand (``preflight/estimate/int8_matmul.py``, ``activations.transformer_layer(int8_matmul=True)``).

bitsandbytes' ``MatMul8bitLt.forward`` (0.37.0-0.44.0, ``autograd/_functions.py``) ends with
``if any(ctx.needs_input_grad[:2]): ctx.tensors = (CAt, subA, ...)``: ``CAt`` is the int8 tensor
``F.double_quant(A.to(torch.float16))`` made of the input, one per linear, 1 byte per element.
"""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate import int8_matmul as I8
from preflight.estimate.arch import from_hf_config

H, FFN, L = 4096, 11008, 32
LLAMA7B = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": H,
           "intermediate_size": FFN, "num_hidden_layers": L, "num_attention_heads": 32,
           "vocab_size": 32000, "max_position_embeddings": 4096, "tie_word_embeddings": False}
# per token and layer, by hand: q, k, v read the norm's output (3 x H), o_proj the attention's
# (H), gate and up the second norm's (2 x H), down the MLP product (FFN); 1 byte each
CAT_PER_TOKEN_LAYER = 3 * H + H + 2 * H + FFN


def _inp(**kw):
    base = dict(arch=from_hf_config(LLAMA7B, name="m"), mode="train", precision="fp32",
                optimizer="adamw", micro_batch=2, seq_len=512, attention="eager",
                grad_ckpt=True, lora_r=8, lora_targets=("q_proj", "v_proj"), lora_dropout=0.05,
                quant="8bit", kbit_prepared=True)
    base.update(kw)
    return EstimateInput(**base)


def _without_cat(monkeypatch, **kw):
    with monkeypatch.context() as m:
        m.setattr(I8, "CAT_BYTES", 0)
        return estimate(_inp(**kw))


def test_the_recomputed_layer_holds_one_int8_copy_per_linear(monkeypatch):
    tokens = 2 * 512
    est, without = estimate(_inp()), _without_cat(monkeypatch)
    back, back0 = est.phases["backward"], without.phases["backward"]
    assert back["activation_recompute"] - back0["activation_recompute"] == tokens * CAT_PER_TOKEN_LAYER
    # the checkpoints (each layer's input) are unchanged
    assert back["activations"] == back0["activations"]


def test_without_checkpointing_every_layer_but_the_first_qkv_keeps_them(monkeypatch):
    tokens = 2 * 512
    est, without = estimate(_inp(grad_ckpt=False)), _without_cat(monkeypatch, grad_ckpt=False)
    added = est.phases["backward"]["activations"] - without.phases["backward"]["activations"]
    # the first layer's q, k and v read the frozen embeddings' output, which requires no grad:
    # no autograd node, nothing kept (3 x H per token less)
    assert added == tokens * (L * CAT_PER_TOKEN_LAYER - 3 * H)


def test_4bit_and_16_bit_bases_are_unchanged(monkeypatch):
    for kw in (dict(quant="4bit", kbit_prepared=False), dict(quant=None, kbit_prepared=False)):
        assert estimate(_inp(**kw)).phases == _without_cat(monkeypatch, **kw).phases
