"""ZeRO-1/2 with ``offload_optimizer`` and ``overlap_comm``: the per-parameter copies that
``copy_grads_in_partition`` makes as each gradient of the rank's partition goes to the host (an
fp64 copy of the slice for its norm, an fp32 copy of the whole 16-bit gradient for the overflow
check, an fp32 copy of the slice to send) run on the reduction stream, whose pool keeps the
largest of them (``terms.zero12_offload_grad_copies``; docs/calibration.md, "est29"). Each value
recomputed by hand, with twins that must stay silent.
"""

from __future__ import annotations

import pytest

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.terms import zero12_offload_grad_copies

LLAMA_7B = {"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008,
            "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 32,
            "vocab_size": 32000, "tie_word_embeddings": False}
EMBEDDING = 32000 * 4096          # the largest parameter (the LM head has the same shape)


def _job(**changes):
    arch = from_hf_config(LLAMA_7B, name="llama-7b")
    base = dict(arch=arch, precision="fp16", micro_batch=1, seq_len=512, grad_ckpt=False,
                attention="eager", zero_stage=2, world_size=4, offload_optimizer="cpu",
                overlap_comm=True, reduce_bucket_size=200_000_000,
                allgather_bucket_size=200_000_000, deepspeed_version="0.8.3")
    base.update(changes)
    return arch, EstimateInput(**base)


def test_the_fp64_norm_copy_of_the_largest_parameter_sets_the_pool():
    _, inp = _job()
    trainable = 6.74e9
    # rank 0's partition (a quarter of 6.74e9 elements) holds the whole embedding: its fp64 copy,
    # 8 bytes per element, is larger than the fp32 copy of the whole 16-bit gradient (4 bytes)
    assert zero12_offload_grad_copies(inp, EMBEDDING, trainable, 4, 2.0) == 8 * EMBEDDING


def test_a_partition_smaller_than_the_parameter_leaves_the_fp32_whole_gradient_copy():
    _, inp = _job()
    trainable = 200e6                                  # 50e6 elements per rank
    slice_fp64 = 8 * 50e6
    whole_fp32 = 4 * EMBEDDING                         # _has_inf_or_nan(param.grad.data).float()
    assert whole_fp32 > slice_fp64
    assert zero12_offload_grad_copies(inp, EMBEDDING, trainable, 4, 2.0) == whole_fp32
    # fp32 gradients: .float() returns the tensor itself, only the fp64 slice is a copy
    assert zero12_offload_grad_copies(inp, EMBEDDING, trainable, 4, 4.0) == slice_fp64


@pytest.mark.parametrize("changes", [
    {"overlap_comm": False},          # the copies run on the compute stream and come and go
    {"overlap_comm": None},           # DeepSpeed's default below stage 3: off
    {"offload_optimizer": None},      # no offload: copy_grads_in_partition keeps the gradient
    {"zero_stage": 3},                # stage 3 has its own offload path
    {"mode": "infer"},
])
def test_silent_twins(changes):
    _, inp = _job(**changes)
    assert zero12_offload_grad_copies(inp, EMBEDDING, 6.74e9, 4, 2.0) == 0.0


def test_the_estimate_caches_it_for_reserved_memory_only():
    _, inp = _job()
    est = estimate(inp)
    for phase in ("forward", "backward", "optimizer"):
        assert est.phases[phase]["stream_cache"] == pytest.approx(8 * EMBEDDING, abs=2)
    # reserved (the peak) counts it, an allocated-memory reading does not
    _, twin = _job(overlap_comm=False, reduce_bucket_size=400_000_000)
    # (one buffer of twice the size: the same 4e8 elements of ipg buffers as two of 2e8)
    twin_est = estimate(twin)
    assert "stream_cache" not in twin_est.phases["backward"]
    assert est.tensor_peak()[0] == pytest.approx(twin_est.tensor_peak()[0], abs=4)
    assert est.peak_bytes - twin_est.peak_bytes == pytest.approx(8 * EMBEDDING, rel=0.01)
    # released before an out-of-memory error, like the other caches
    assert est.reclaimable[1] >= 8 * EMBEDDING
    assert any("reduction stream" in n for n in est.notes)
