"""ZeRO-3 with overlap_comm gathers parameters on DeepSpeed's own all-gather stream; the caching
allocator keeps those blocks for that stream, so through the optimizer step (default stream)
reserved memory holds them beside the step's tensors (est44, ``estimate/zero3_streams.py``;
DeepSpeed v0.12.0 ``parameter_offload.py`` 256-257, ``partitioned_param_coordinator.py`` 443)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.params import count_params

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import public_accuracy as pa

LLAMA = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 1024,
         "intermediate_size": 2816, "num_hidden_layers": 8, "num_attention_heads": 16,
         "num_key_value_heads": 16, "vocab_size": 32000, "tie_word_embeddings": False}
ARCH = from_hf_config(LLAMA, name="llama-small")
BUCKET = 1_000_000


def _job(**changes):
    # stage3_max_reuse_distance 0: nothing is kept for reuse, so the gathered set is one block
    # plus the prefetch bucket (terms.zero3_live_params), which is easy to write by hand
    base = dict(arch=ARCH, mode="train", precision="bf16", optimizer="adamw", micro_batch=1, seq_len=256,
                grad_ckpt=True, attention="sdpa", zero_stage=3, world_size=2, max_reuse_distance=0,
                prefetch_bucket_size=BUCKET, max_live_parameters=10 ** 9)
    base.update(changes)
    return estimate(EstimateInput(**base))


def _block() -> int:
    h, i = 1024, 2816
    return 4 * h * h + 3 * h * i + 2 * h       # q, k, v, o; gate, up, down; two RMSNorm weights


def test_the_step_holds_the_gathered_set_as_reserved_only_blocks():
    # the estimator's gather unit: the parameters outside the tables over the blocks (the final
    # norm's 1,024 spread over the 8 blocks)
    assert count_params(ARCH).total == 8 * _block() + 1024 + 2 * 32000 * 1024
    est = _job()
    gathered = (_block() + 1024 // 8 + BUCKET) * 2           # bf16 gathers
    assert est.phases["forward"]["gathered_params"] == gathered
    # beside the reduce stream's pool (est72, zero3_streams.reduce_pool): the default 5e8-element
    # bucket holds every gradient of this model, so its flat bf16 copy is the whole model's
    reduce = count_params(ARCH).total * 2
    assert est.phases["forward"]["stream_cache"] == reduce
    assert est.phases["optimizer"]["stream_cache"] == gathered + reduce
    assert "gathered_params" not in est.phases["optimizer"]
    assert any("all-gather stream" in n for n in est.notes)


def test_allocated_readings_leave_it_out_and_reserved_ones_count_it():
    est = _job()
    opt = est.phases["optimizer"]
    assert est.phase == "optimizer"   # a full fine-tune at 256 tokens peaks in the step
    value, where = est.allocated_peak()
    assert where == "optimizer" and value <= sum(opt.values()) - opt["stream_cache"]
    shown, low, _ = pa.comparable(est, "nvidia-smi")
    assert shown == est.peak_bytes == sum(opt.values())
    # the bottom of the interval leaves it out: the allocator releases it before an OOM
    without = _job(overlap_comm=False)
    assert shown - without.peak_bytes == opt["stream_cache"]
    assert low <= without.interval_bytes[0] + 1


@pytest.mark.parametrize("changes", [
    {"overlap_comm": False},                    # gathers on the default stream: blocks reused
    {"world_size": 1},                          # one GPU, no offload: gathers are views
    {"zero_stage": 2},                          # no parameter gathers
])
def test_twins_without_a_separate_gather_pool(changes):
    est = _job(**changes)
    # (the reduce stream's pool, est72, where it exists is the same in every phase: no gathered
    # set on top of it at the step)
    assert est.phases["optimizer"].get("stream_cache", 0) == est.phases["forward"].get("stream_cache", 0)
    assert not any("all-gather stream" in n for n in est.notes)


def test_parameter_offload_on_one_gpu_gathers_into_the_pool_too():
    est = _job(world_size=1, offload_params="cpu", offload_optimizer="cpu")
    # the reduce stream's pool (est72): the whole model's flat copy, and under optimizer offload
    # the largest gradient's GPU copy and float64 norm chunk (a 32,000 x 1,024 table, 2 + 8 bytes)
    reduce = count_params(ARCH).total * 2 + 32000 * 1024 * 10
    assert est.phases["forward"]["stream_cache"] == reduce
    assert est.phases["optimizer"]["stream_cache"] == est.phases["forward"]["gathered_params"] + reduce


def test_the_measured_allocator_keeps_a_side_streams_block_from_the_default_stream():
    """calibration/stream_pool_check.py on an H200 (torch 2.11): the default stream's 512 MiB
    takes a new segment beside the side stream's freed one; the side stream reuses its own."""
    doc = json.loads((Path(__file__).resolve().parents[1] / "calibration" / "data"
                      / "est44_stream_pool_h200.json").read_text(encoding="utf-8"))
    mib = 2 ** 20
    assert doc["side_freed"] == 512 * mib
    assert doc["default_same_size"] == 1024 * mib
    assert doc["side_again"] == doc["default_smaller"] == 1024 * mib
