"""transformers' causal-LM loss before 4.49 shifts with ``logits[..., :-1, :].contiguous()``.
With one sequence per micro-batch that slice is already contiguous, ``contiguous()`` returns it
unchanged, and no shifted fp32 copy exists (est28: Unsloth's batch-1 QLoRA context-length rows)."""

from __future__ import annotations

import pytest

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config

LLAMA31_8B = {"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
              "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256,
              "max_position_embeddings": 131072, "tie_word_embeddings": False}


def _qlora(batch: int, seq: int, version: str) -> EstimateInput:
    return EstimateInput(arch=from_hf_config(LLAMA31_8B, name="llama-3.1-8b"), precision="amp-bf16",
                         micro_batch=batch, seq_len=seq, quant="4bit", quant_type="nf4", double_quant=True,
                         kbit_prepared=True, lora_r=32, lora_targets=("all-linear",), grad_ckpt=True,
                         attention="flash", optimizer="adamw-8bit", transformers_version=version)


def _forward_logits(batch: int, seq: int, version: str) -> int:
    return estimate(_qlora(batch, seq, version)).phases["forward"]["logits_loss"]


def test_batch_one_has_no_shifted_copy_in_4_46_to_4_48():
    tv = 28454 * 128256
    # bf16 logits kept by the model's forward, their fp32 upcast, log_softmax's fp32 output
    assert _forward_logits(1, 28454, "4.47.0") == tv * (2 + 4 + 4)
    # two sequences: the slice has a gap between them and contiguous() copies it (4 more bytes)
    assert _forward_logits(2, 2048, "4.47.0") == 2 * 2048 * 128256 * (2 + 4 + 4 + 4)


def test_batch_one_before_4_46_holds_the_fp32_logits_and_log_softmax_only():
    assert _forward_logits(1, 4096, "4.45.2") == 4096 * 128256 * (4 + 4)
    assert _forward_logits(3, 4096, "4.45.2") == 3 * 4096 * 128256 * (4 + 4 + 4)


def test_from_4_49_no_copy_at_any_batch():
    assert _forward_logits(1, 4096, "4.49.0") == 4096 * 128256 * (2 + 4 + 4)
    assert _forward_logits(2, 4096, "4.49.0") == 2 * 4096 * 128256 * (2 + 4 + 4)


def test_the_slice_is_a_view_only_for_one_sequence():
    torch = pytest.importorskip("torch")
    one = torch.zeros(1, 8, 5)
    shifted = one[..., :-1, :].contiguous()
    assert shifted.untyped_storage().data_ptr() == one.untyped_storage().data_ptr()
    two = torch.zeros(2, 8, 5)
    assert two[..., :-1, :].contiguous().untyped_storage().data_ptr() != two.untyped_storage().data_ptr()


GPT2 = {"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12, "vocab_size": 50257, "n_positions": 1024}


def _gpt2(batch: int, **kw) -> int:
    inp = EstimateInput(arch=from_hf_config(GPT2, name="gpt2"), precision="bf16", micro_batch=batch, seq_len=1024,
                        transformers_version="4.45.2", **kw)
    return estimate(inp).phases["forward"]["logits_loss"]


def test_heads_that_shift_in_their_own_dtype_make_no_copy_at_batch_one():
    tv = 1024 * 50257
    # GPT-2 before 4.49: CrossEntropyLoss()(lm_logits[..., :-1, :].contiguous(), ...) in bf16:
    # the logits and log_softmax's output; the shifted slice is a view at batch 1
    assert _gpt2(1) == tv * (2 + 2)
    assert _gpt2(2) == 2 * tv * (2 + 2 + 2)
    # a script's own shift is not read: its copy stays charged
    assert _gpt2(1, loss_in_logits_dtype=True) == tv * (2 + 2 + 2)
