"""est44: what the caching allocator keeps reserved in DeepSpeed ZeRO-3 on one GPU (issue 17,
held-out-21's Qwen-1.8B full fine-tune), recomputed by hand from DeepSpeed v0.12.0's source order
(``calibration/zero3_one_gpu_reserved.py``), and the committed replay matches it."""

from __future__ import annotations

import json
from pathlib import Path

from calibration.caching_allocator import allocation_size, round_size
from calibration.zero3_one_gpu_reserved import CASES, qwen1_params, replay, sub_groups

DATA = Path(__file__).resolve().parent.parent / "calibration" / "data" / "zero3_one_gpu_reserved.json"
GIB = 2 ** 30
H, I2, V = 2048, 5504, 151936           # Qwen-1.8B: hidden, intermediate_size / 2, vocabulary
LAYER = H + 3 * H * H + 3 * H + H * H + H + 3 * H * I2   # ln_1, c_attn (w, b), c_proj, ln_2, w1, w2, c_proj


def seg(nbytes: int) -> int:
    return allocation_size(round_size(nbytes))


def test_the_first_sub_group_closes_at_the_parameter_that_reaches_1e9() -> None:
    params = qwen1_params(H, I2, 24, V)
    total = 2 * V * H + 24 * LAYER + H
    assert sum(n for _, n in params) == total
    # wte and 13 whole blocks, then block 13 up to its w2 (ln_1, c_attn w+b, c_proj, ln_2, w1, w2)
    first = V * H + 13 * LAYER + H + 3 * H * H + 3 * H + H * H + H + 2 * H * I2
    assert first - H * I2 < 10 ** 9 <= first
    assert sub_groups(params) == [first, total - first]


def test_peak_reserved_is_the_kept_tensors_plus_the_transients_blocks() -> None:
    """Kept: the flat 16-bit partitions and gradient partitions (2 bytes each), the fp32 master and
    Adam's two states (4 bytes x 3) and the 8 MiB bucket. Segments, by the allocator's best fit:
    one per kept tensor except the 16-bit gradient partitions, which split the start-up gradient
    buffer's (fp32 of the largest sub-group, freed); the first sub-group's 16-bit clone (fp32
    partitions; the second clone and the bucket split it); the fp64 copy of the
    largest gradient (wte: no cached block is as large) and the step's fp32 gradient of the first
    sub-group (its 16-bit flat copy took the fp64 block)."""
    params, bucket = CASES["qwen-1.8b"]
    g0, g1 = sub_groups(params)
    total = g0 + g1
    reserved = (seg(2 * total) + seg(2 * g0) + seg(4 * g0) + seg(4 * g1) + seg(4 * g0)
                + 2 * seg(4 * g0) + 2 * seg(4 * g1) + seg(8 * V * H) + seg(4 * g0))
    res = replay(params, bucket, accum=8, steps=3)
    assert abs(res["peak_reserved_gib"] * GIB - reserved) < 1
    # the step's tensors: the kept ones (16-bit partitions and gradients, fp32 master, two states,
    # the bucket) + the first sub-group's fp32 gradient and 16-bit flat copy
    kept = 2 * total + 12 * total + 2 * total + 2 * bucket
    assert abs(res["peak_allocated_gib"] * GIB - (kept + 6 * g0)) < 2 ** 20
    # what nvidia-smi would show beyond the allocator's peak: under 3 GiB, far from the row's gap
    # (43.5 GB read, 36.0 GiB estimated)
    assert 2.0 < res["peak_reserved_gib"] - res["peak_allocated_gib"] < 3.0


def test_committed_replay_is_what_the_script_computes() -> None:
    doc = json.loads(DATA.read_text(encoding="utf-8"))
    params, bucket = CASES["qwen-1.8b"]
    res = replay(params, bucket, accum=8, steps=3)
    assert doc["qwen-1.8b"]["sub_groups"] == res["sub_groups"]
    assert abs(doc["qwen-1.8b"]["peak_reserved_gib"] - res["peak_reserved_gib"]) < 1e-9
