"""est84: DeepSpeed's ZeRO-1/2 step takes every gradient slice of the rank's partition to fp64 for the
norm before it flattens the partition (``terms_sharded.zero12_step_norm_copy``): 8 bytes per element
of the largest slice, the embedding's on rank 0 of a causal LM. Recomputed by hand from the shapes of
held-out-40's BELLE rows (BLOOM-560M full fine-tune, DeepSpeed fp16 ZeRO-1/2, two GPUs; in-sample
there) and checked against the committed CPU measurement and caching-allocator replay
(``calibration/est84_norm_copy.py``)."""

from __future__ import annotations

import json
from pathlib import Path

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.step_segments import new_segments
from preflight.estimate.terms import zero12_step_norm_copy

BLOOM_560M = {"model_type": "bloom", "architectures": ["BloomForCausalLM"], "hidden_size": 1024,
              "n_layer": 24, "n_head": 16, "vocab_size": 250880}
EMBEDDING = 250880 * 1024
NOT_TENSORS = ("cuda_context", "nccl_buffers", "stream_cache", "length_cache", "pending_frees",
               "step_segments", "fragmentation")
DATA = Path(__file__).resolve().parents[1] / "calibration" / "data" / "est84_norm_copy.json"


def _inp(**kw):
    base = dict(arch=from_hf_config(BLOOM_560M, name="bloom-560m"), mode="train", precision="amp-fp16",
                optimizer="adamw", micro_batch=1, seq_len=512, grad_accum=1, grad_ckpt=True,
                attention="eager", padding="max_length", loss="standard", world_size=2, zero_stage=1,
                torch_version="2.0.1")
    base.update(kw)
    return EstimateInput(**base)


def _tensors(phase: dict) -> float:
    return sum(v for t, v in phase.items() if t not in NOT_TENSORS)


def test_norm_copy_is_the_largest_slice_in_fp64():
    inp = _inp()
    total = 559_214_592
    # the embedding (257M elements) lies wholly in rank 0's half of the flat group
    assert zero12_step_norm_copy(inp, EMBEDDING, total, 2) == 8 * EMBEDDING
    # on many ranks the slice is at most the partition
    assert zero12_step_norm_copy(inp, EMBEDDING, total, 16) == 8 * total / 16


def test_zero3_copies_its_partition_of_the_largest_parameter():
    # ZeRO-3 partitions every parameter on its own: a rank's slice is 1/n of the embedding
    assert zero12_step_norm_copy(_inp(zero_stage=3), EMBEDDING, 559_214_592, 2) == 8 * EMBEDDING / 2


def test_offload_and_no_zero_make_no_step_norm_copy():
    for kw in (dict(offload_optimizer="cpu"), dict(zero_stage=3, offload_optimizer="cpu"),
               dict(zero_stage=0, world_size=1)):
        assert zero12_step_norm_copy(_inp(**kw), EMBEDDING, 559_214_592, 2) == 0.0, kw


def test_new_segments_by_best_fit():
    # the norm's block no larger than backward's: the later tensors count alone, as before est84
    assert new_segments(10.0, 5.0, (4.0, 20.0)) == 20.0
    # flat and cast fit in the freed norm segment: only the norm's segment is new
    assert new_segments(1.0, 10.0, (3.0, 6.0)) == 10.0
    # the cast does not fit the rest: a segment of its own
    assert new_segments(1.0, 10.0, (3.0, 8.0)) == 18.0


def test_bloom_zero1_step_reserves_the_norm_segment_by_hand():
    est = estimate(_inp())
    bwd, opt = est.phases["backward"], est.phases["optimizer"]
    # the fp64 copy of the embedding's gradient (1.91 GiB) is larger than backward's largest block
    # (the 0.48 GiB fp32 logits) and holds the flat 16-bit partition and its fp32 cast after it
    part = 559_214_592 / 2
    assert 2 * part + 4 * part <= 8 * EMBEDDING
    assert abs(opt["step_segments"] - (_tensors(bwd) + 8 * EMBEDDING - _tensors(opt))) <= 2 ** 20
    assert est.phase == "optimizer"
    # reserved only: the verdict releases it
    assert est.reclaimable[1] >= opt["step_segments"]


def test_allocated_step_holds_the_norm_copy_when_larger_than_its_buffers():
    # two ranks: the step's fp32 cast, flat copy and all-gather bucket exceed the norm's copy
    two = estimate(_inp()).phases["optimizer"]["zero_buckets"]
    part2 = 559_214_592 / 2
    assert abs(two - (5e8 * 2 + 6 * part2)) <= 2 ** 20
    # sixteen ranks: the partition is 35M elements, the all-gather bucket capped at 5e8 elements;
    # the norm's copy of a partition-sized slice (8 x 35M) is still below them: unchanged
    sixteen = estimate(_inp(world_size=16)).phases["optimizer"]["zero_buckets"]
    part16 = 559_214_592 / 16
    assert abs(sixteen - (5e8 * 2 + 6 * part16)) <= 2 ** 20
    # a small all-gather bucket leaves the norm's copy the largest step buffer
    small = estimate(_inp(world_size=16, allgather_bucket_size=10 ** 6)).phases["optimizer"]["zero_buckets"]
    assert abs(small - 8 * part16) <= 2 ** 20


def test_committed_measurement_and_replay():
    data = json.loads(DATA.read_text(encoding="utf-8"))
    per = data["part1"]["bytes_per_element"]
    assert [v for k, v in per.items() if "double" in k] == [8.0, 8.0, 8.0]
    assert [v for k, v in per.items() if "float()" in k] == [4.0]
    for row in data["part2"]:
        # the rule and the allocator's replay agree within the 2 MiB segment rounding
        assert abs(row["replayed_new_bytes"] - row["new_segments_bytes"]) <= 2 * 2 ** 21, row


def test_bloom_zero3_step_takes_new_segments_by_hand():
    est = estimate(_inp(zero_stage=3))
    bwd, opt = est.phases["backward"], est.phases["optimizer"]
    part = 559_214_592 / 2
    norm, flat, fp32 = 8 * EMBEDDING / 2, 2 * part, 4 * part
    # backward's largest block: the 512 x 250,880 fp32 logits (0.48 GiB), below the norm's copy
    # (0.96 GiB); the flat copy fits the norm's free block, the fp32 cast not the rest
    assert norm > 512 * 250880 * 4 and flat <= norm < flat + fp32
    assert abs(opt["step_segments"] - (_tensors(bwd) + norm + fp32 - _tensors(opt))) <= 2 ** 20
    assert est.phase == "optimizer"
    assert est.reclaimable[1] >= opt["step_segments"]
