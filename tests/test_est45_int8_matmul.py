"""An LLM.int8 base (bitsandbytes ``Linear8bitLt``) in training, recomputed by hand
(``preflight/estimate/int8_matmul.py``).

``MatMul8bitLt.backward`` (bitsandbytes 0.37.0-0.44.0) computes the input's gradient against the
weight made ``ctx.dtype_A`` (the input's dtype) again: ``undo_layout(state.CxB, ...)`` (a row-major
int8 copy) then ``.to(ctx.dtype_A)`` (a 16-bit copy, or fp32 after PEFT's k-bit preparation: est82),
3 or 5 bytes per element of one weight alive at once. Its forward
on a Turing or later GPU multiplies in int8 and dequantizes no weight.
"""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate import int8_matmul as I8
from preflight.estimate.arch import from_hf_config

LLAMA7B = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
           "intermediate_size": 11008, "num_hidden_layers": 32, "num_attention_heads": 32,
           "vocab_size": 32000, "max_position_embeddings": 4096, "tie_word_embeddings": False}


def _inp(**kw):
    # Chinese-Vicuna's shape: one 2,049-token sample, checkpointing (the recomputed layer is
    # backward's peak, not the loss over the vocabulary)
    base = dict(arch=from_hf_config(LLAMA7B, name="m"), mode="train", precision="amp-fp16",
                optimizer="adamw", micro_batch=1, seq_len=2049, attention="eager",
                grad_ckpt=True, lora_r=8, lora_targets=("q_proj", "v_proj"), lora_dropout=0.05,
                quant="8bit", kbit_prepared=True)
    base.update(kw)
    return EstimateInput(**base)


def test_backward_holds_the_widest_weight_as_int8_plus_copies_in_the_input_dtype():
    back = estimate(_inp()).phases["backward"]
    assert "activation_recompute" in back              # one recomputed layer is the moment
    # by hand: the MLP's 4,096 x 11,008 matrix, 1 (row-major int8) + 4 bytes: k-bit preparation
    # made the norms fp32, so ``ctx.dtype_A`` (the input's dtype) is fp32 (est82)
    assert back["dequant_transient"] == 4096 * 11008 * (1 + 4)
    # an fp16 base that was not prepared feeds fp16 inputs: 1 + 2 bytes
    plain = estimate(_inp(kbit_prepared=False)).phases["backward"]
    assert plain["dequant_transient"] == 4096 * 11008 * (1 + 2)


def test_the_backward_phase_rises_by_exactly_that_copy(monkeypatch):
    est = estimate(_inp())
    monkeypatch.setattr(I8, "backward_dequant", lambda inp, arch: 0.0)
    without = estimate(_inp())
    added = sum(est.phases["backward"].values()) - sum(without.phases["backward"].values())
    # the copy itself, plus the allocator's rounding/fragmentation share the model adds on top
    assert 4096 * 11008 * 5 <= added <= 4096 * 11008 * 5 * 1.5
    assert est.phases["forward"] == without.phases["forward"]


def test_forward_and_inference_dequantize_nothing():
    est = estimate(_inp())
    assert not est.phases["forward"].get("dequant_transient")
    gen = estimate(_inp(mode="infer", lora_r=None, lora_targets=None, grad_ckpt=False))
    assert not any(t.get("dequant_transient") for t in gen.phases.values())


def test_4bit_keeps_its_own_dequantized_weight():
    back = estimate(_inp(quant="4bit", kbit_prepared=False)).phases["backward"]
    # MatMul4Bit: dequantize_4bit in the compute dtype only (2 bytes), no int8 copy
    assert back["dequant_transient"] == 4096 * 11008 * 2


def test_the_outlier_columns_are_named_with_their_bound_and_not_charged():
    est = estimate(_inp())
    note = next(n for n in est.notes if "state.subB" in n)
    # bound by hand: every block matrix of Llama-7B (32 x (4 x 4096^2 + 3 x 4096 x 11008))
    # in the input's dtype (``.to(A.dtype)``): fp32 after k-bit preparation, 4 x its int8 bytes
    blocks = 32 * (4 * 4096 * 4096 + 3 * 4096 * 11008)
    assert f"{4 * blocks / 1024 ** 3:.1f} GiB" in note and "32-bit" in note
    plain = next(n for n in estimate(_inp(kbit_prepared=False)).notes if "state.subB" in n)
    assert f"{2 * blocks / 1024 ** 3:.1f} GiB" in plain and "16-bit" in plain
    assert "not charged" in note
    assert not any("outlier" in t for p in est.phases.values() for t in p)
    assert I8.largest_int8_matrix(from_hf_config(LLAMA7B, name="m")) == 4096 * 11008
