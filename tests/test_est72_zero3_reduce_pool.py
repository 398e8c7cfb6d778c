"""est72: ZeRO-3 with ``overlap_comm`` reduces each gradient bucket through a flat copy made on
DeepSpeed's reduce-and-partition stream (``reduce_scatter_coalesced``'s ``torch.cat``), and under
optimizer offload copies each host gradient partition to the GPU and takes its float64 norm there;
that stream's cached blocks stay reserved beside the compute stream's
(``preflight/estimate/zero3_streams.reduce_pool``), recomputed by hand from the shapes. Traced on
held-out-32's Llama-3.1-8B ZeRO-3 + CPU-offloaded AdamW + Liger-Kernel sweep (stas00/ml-engineering
benchmark.py, 8 x H200, max_memory_reserved; in-sample there)."""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.report import estimate_text

LLAMA31_8B = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
              "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32,
              "num_key_value_heads": 8, "vocab_size": 128256, "max_position_embeddings": 131072,
              "tie_word_embeddings": False}
TOTAL = 8_030_261_248
HEAD = 128_256 * 4_096                      # 525,336,576 elements: the LM head (and the embedding)
BUCKET = 500_000_000                        # DeepSpeed's reduce_bucket_size default (5e8)


def _inp(**kw):
    base = dict(arch=from_hf_config(LLAMA31_8B, name="llama31-8b"), mode="train", precision="bf16",
                optimizer="adamw", micro_batch=1, seq_len=32768, grad_accum=1, attention="flash",
                world_size=8, zero_stage=3, offload_optimizer="cpu", grad_ckpt=True, use_cache=False,
                overlap_comm=True, contiguous_gradients=True, zero_client_optimizer=False,
                load_placement="gpu", padding="max_length", loss="fused", liger_kernels=True,
                torch_version="2.13.0", transformers_version="5.14.1", deepspeed_version="0.19.2")
    base.update(kw)
    return EstimateInput(**base)


def test_pool_by_hand_offloaded_optimizer():
    # the head's gradient (525M elements) is larger than the bucket: reduced alone, and as one
    # tensor divisible by 8 ranks it needs no flat copy; its partition (65.7M elements) is copied
    # to the GPU in bf16 and taken to float64 for its norm: 10 bytes per element
    assert HEAD > BUCKET and HEAD % 8 == 0
    alone = HEAD // 8 * (2 + 8)
    # every other bucket fills to the default 5e8 elements: a bf16 flat copy of it
    full_bucket = BUCKET * 2
    assert alone < full_bucket
    est = estimate(_inp())
    for phase in ("forward", "backward"):
        assert abs(est.phases[phase]["stream_cache"] - full_bucket) <= 2, phase
    # the optimizer phase holds it beside the all-gather stream's pool (zero3_streams.allgather_pool)
    gathered = est.phases["backward"]["gathered_params"]
    assert abs(est.phases["optimizer"]["stream_cache"] - (gathered + full_bucket)) <= 2
    assert "DeepSpeed's reduce stream" in estimate_text(_inp(), est)


def test_reserved_only_allocated_and_verdict_unchanged():
    on, off = estimate(_inp()), estimate(_inp(overlap_comm=False))
    # at the backward peak the point rises by the pool and nothing else
    assert on.phase == off.phase == "backward"
    assert abs((on.peak_bytes - off.peak_bytes) - BUCKET * 2) <= 4
    # allocated memory leaves it out; the verdict releases it before an out-of-memory error
    assert on.allocated_peak()[0] == off.allocated_peak()[0]
    assert on.reclaimable[1] - off.reclaimable[1] >= BUCKET * 2 - 4


def test_small_bucket_without_offload():
    # ms-swift's configs set reduce_bucket_size to hidden^2 (3,584^2 = 12,845,056): the head is
    # reduced alone with no copy and no offload temporaries, the other buckets copy 12.8M elements
    rb = 12_845_056
    est = estimate(_inp(offload_optimizer=None, reduce_bucket_size=rb))
    assert abs(est.phases["backward"]["stream_cache"] - rb * 2) <= 2
    # with offload the head's partition temporaries are the larger
    est = estimate(_inp(reduce_bucket_size=rb))
    assert abs(est.phases["backward"]["stream_cache"] - HEAD // 8 * 10) <= 2


def test_head_not_divisible_needs_its_copy():
    # 525,336,576 elements divide by 3 (175,112,192 each: no copy) but not by 5: on 5 ranks the
    # head alone is interleaved with padding into a flat copy of its own size, above a bucket's
    assert HEAD % 3 == 0 and HEAD % 5 != 0 and HEAD * 2 > BUCKET * 2
    est = estimate(_inp(world_size=5, offload_optimizer=None))
    assert abs(est.phases["backward"]["stream_cache"] - HEAD * 2) <= 2


def test_lora_copies_only_its_adapters():
    # LoRA r8 on q_proj and v_proj: 32 x 8 x ((4096 + 4096) + (4096 + 1024)) trainable elements,
    # all in one bucket, copied once in bf16
    lora = 32 * 8 * ((4096 + 4096) + (4096 + 1024))
    est = estimate(_inp(lora_r=8, lora_targets=("q_proj", "v_proj"), offload_optimizer=None))
    assert abs(est.phases["backward"]["stream_cache"] - lora * 2) <= 2


def test_twins_add_nothing():
    for kw in (dict(overlap_comm=False), dict(zero_stage=2, grad_ckpt=False, offload_optimizer=None,
                                              world_size=1), dict(mode="inference")):
        est = estimate(_inp(**kw))
        for phase in ("forward", "backward"):
            assert "stream_cache" not in est.phases.get(phase, {}), (kw, phase)


# ---------------------------------------------------------------- ZeRO-1/2: terms.zero12_reduce_copy


def _z2(**kw):
    return _inp(**dict(dict(zero_stage=2, seq_len=8192, grad_ckpt=False, offload_optimizer=None,
                            load_placement=None), **kw))


def test_zero2_bucket_across_partitions_by_hand():
    # Llama-3.1-8B on 8 ranks: partitions of 8,030,261,248 / 8 = 1.0e9 elements; a 5e8-element
    # bucket across each of the 7 boundaries is flattened into one bf16 copy on the reduction stream
    assert TOTAL / 8 > BUCKET
    est = estimate(_z2())
    for phase in ("forward", "backward", "optimizer"):
        assert abs(est.phases[phase]["stream_cache"] - BUCKET * 2) <= 2, phase
    assert "partitions is copied flat" in estimate_text(_z2(), est)
    # reserved only: allocated memory leaves it out, the verdict releases it
    value, where = est.allocated_peak()
    assert value <= sum(est.phases[where].values()) - est.phases[where]["stream_cache"]
    assert est.reclaimable[1] >= BUCKET * 2


def test_zero2_small_model_is_one_bucket_across_every_boundary():
    # a model under the bucket (reduce_bucket_size 2e8): the one bucket, all its gradients, is copied
    small = dict(LLAMA31_8B, hidden_size=1024, intermediate_size=2816, num_hidden_layers=8,
                 num_attention_heads=16, num_key_value_heads=16, vocab_size=32000)
    arch = from_hf_config(small, name="llama-small")
    total = 8 * (4 * 1024 * 1024 + 3 * 1024 * 2816 + 2 * 1024) + 1024 + 2 * 32000 * 1024
    est = estimate(_z2(arch=arch, reduce_bucket_size=200_000_000, world_size=4))
    assert abs(est.phases["backward"]["stream_cache"] - total * 2) <= 2


def test_zero2_twins():
    # one rank: one partition, never a boundary; overlap_comm off (ZeRO-1/2's default): the copy is
    # made on the compute stream, whose blocks the step reuses
    for kw in (dict(world_size=1), dict(overlap_comm=False), dict(overlap_comm=None)):
        est = estimate(_z2(**kw))
        assert "stream_cache" not in est.phases["backward"], kw
    # under optimizer offload the same pool also keeps the per-parameter fp64 norm copies
    # (terms.zero12_offload_grad_copies, est29): the larger of the two, not their sum
    from preflight.estimate.terms import zero12_offload_grad_copies

    inp = _z2(offload_optimizer="cpu")
    copies = zero12_offload_grad_copies(inp, HEAD, TOTAL, 8, 2.0)
    assert copies == 8.0 * HEAD > BUCKET * 2
    assert abs(estimate(inp).phases["backward"]["stream_cache"] - copies) <= 2
