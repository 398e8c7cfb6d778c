"""est70: ZeRO-2 allocates the rank's whole gradient partition buffer (``grads_in_partition``) at
the first bucket reduction of backward (``preflight/estimate/zero2_grads.py``; DeepSpeed v0.19.2
``stage_1_and_2.py`` lines 1096-1098, 1115-1116, 1530-1540, 1602-1611), recomputed by hand from
the shapes. Traced on held-out-32's Llama-3.1-8B ZeRO-2 rows (stas00/ml-engineering
bench_decompose.py, 8 x H200; in-sample there): its 525 M-element LM head is larger than the
default 5e8-element bucket, so the last rank's partition buffer exists beside the saved
activations at the start of backward."""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config

LLAMA31_8B = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
              "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32,
              "num_key_value_heads": 8, "vocab_size": 128256, "max_position_embeddings": 131072,
              "tie_word_embeddings": False}
HEAD = 128256 * 4096                                   # 525,336,576 elements
LAYER = 4096 * (4096 + 1024 + 1024 + 4096) + 3 * 4096 * 14336 + 2 * 4096   # 218,112,000
TOTAL = 2 * HEAD + 32 * LAYER + 4096                   # 8,030,261,248


def _est(**kw):
    base = dict(arch=from_hf_config(LLAMA31_8B, name="llama31-8b"), mode="train", precision="bf16",
                optimizer="adamw", micro_batch=1, seq_len=8192, grad_accum=1, attention="flash",
                world_size=8, zero_stage=2, overlap_comm=True, contiguous_gradients=True,
                zero_client_optimizer=False, padding="max_length", loss="standard",
                torch_version="2.13.0", transformers_version="5.14.1", deepspeed_version="0.19.2")
    base.update(kw)
    return estimate(EstimateInput(**base))


def test_shapes_by_hand():
    assert (HEAD, LAYER, TOTAL) == (525_336_576, 218_112_000, 8_030_261_248)
    assert _est().params_trainable == TOTAL


def test_partition_buffer_at_the_backward_peak_by_hand():
    est = _est()
    # the last rank's 16-bit gradient partition: 8,030,261,248 x 2 bytes / 8 = 1.87 GiB
    assert est.phases["backward"]["gradients"] == TOTAL * 2 / 8
    assert round(TOTAL * 2 / 8 / 2**30, 2) == 1.87
    assert est.phase == "backward"


def test_bucket_larger_than_head_and_block_adds_nothing():
    # twin: with a 8e8-element bucket the head (525 M) and the last block (218 M) do not fill it;
    # the first reduction comes after more blocks' activations are gone
    est = _est(reduce_bucket_size=int(8e8))
    assert "gradients" not in est.phases["backward"]
    # the head and one block reach 7e8: the buffer is there
    assert _est(reduce_bucket_size=int(7e8)).phases["backward"]["gradients"] == TOTAL * 2 / 8


def test_other_setups_stay_silent():
    # ZeRO-1 (gradients not partitioned in backward), optimizer offload (partitions on the host)
    # and LoRA (a frozen head) add nothing at the start of backward
    for kw in (dict(zero_stage=1), dict(offload_optimizer="cpu"),
               dict(lora_r=8, lora_targets=["q_proj", "v_proj"])):
        est = _est(**kw)
        start = est.phases["backward"]
        assert "gradients" not in start or start["gradients"] != TOTAL * 2 / 8, kw


def test_contiguous_gradients_off_adds_nothing():
    assert "gradients" not in _est(contiguous_gradients=False).phases["backward"]
