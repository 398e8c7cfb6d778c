"""est74: the verdict's point is the largest phase once each phase's released blocks are taken out.

``Estimate.reclaimable`` is the peak phase's: FSDP1's pending frees (23 GiB in the backward pass of the FastChat row
below) are released before an out-of-memory error, but the optimizer step that follows holds none of them and more
than the backward pass keeps. Before est74 the verdict took the peak phase less its pools (29.65 GiB, ``tight`` on a
40 GB card) where the optimizer step holds its whole total; the job ran out of memory."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import public_accuracy as pa

from preflight import hardware
from preflight.estimate import estimate, verdict
from preflight.estimate.model import Estimate
from preflight.estimate.remedy import RELEASED_POOLS, held_phase, held_point, target_memory
from preflight.estimate.report import estimate_text

GIB = 2 ** 30
REPO = Path(__file__).resolve().parent.parent
FASTCHAT_4 = ("fastchat-issue-407-vicuna-7b-fsdp/llama-7b-full-ft-fsdp-full-ampbf16-b1-s2048-4xa100-40gb")
FASTCHAT_8 = ("fastchat-issue-407-vicuna-7b-fsdp/llama-7b-full-ft-fsdp-full-ampbf16-b1-s2048-8xa100-40gb")
ALPACA = "stanford-alpaca-fsdp-oom-issues/llama2-7b-fsdp-full-bf16-4xa100-40gb-b1"


def _row(rid: str, split_file: str = "heldout18.json") -> dict:
    rows = json.loads((REPO / "calibration" / "public" / split_file).read_text(encoding="utf-8"))["rows"]
    return next(r for r in rows if r["id"] == rid)


def _estimate(rid: str, split_file: str = "heldout18.json"):
    row = _row(rid, split_file)
    gpu = hardware.find(row["gpu"])
    inp, _ = pa.estimate_input(row["setup"], gpu)
    return inp, estimate(inp), gpu


def _by_hand(est: Estimate) -> int:
    """Every phase's bytes less its own pools and the length cache's released part, the largest."""
    peak = est.phases[est.phase or ""]
    length_released = est.reclaimable[1] - sum(peak.get(t, 0) for t in RELEASED_POOLS)
    return max(sum(t.values()) - sum(t.get(p, 0) for p in RELEASED_POOLS)
               - min(length_released, t.get("length_cache", 0)) for t in est.phases.values())


def test_fastchat_fsdp_4_gpus_is_held_by_its_optimizer_step_and_reads_likely_oom():
    _, est, gpu = _estimate(FASTCHAT_4)
    assert est.phase == "backward" and est.phases["backward"]["pending_frees"] > 20 * GIB
    held, where = held_phase(est)
    assert where == "optimizer"
    # the optimizer step holds no released pool: its whole total, by hand
    opt = est.phases["optimizer"]
    assert not any(opt.get(t, 0) for t in RELEASED_POOLS)
    assert held == sum(opt.values()) == _by_hand(est)
    old_point = est.peak_bytes - est.reclaimable[1]
    assert old_point < target_memory(gpu) < held          # 29.65 < 39.59 < 39.65 GiB
    assert verdict(est, gpu) == "likely-oom"               # the job ran out of memory (was: tight)


def test_fastchat_fsdp_8_gpus_still_fits():
    _, est, gpu = _estimate(FASTCHAT_8)                     # the twin that ran
    assert held_point(est) == _by_hand(est) < target_memory(gpu)
    assert verdict(est, gpu) == "fits"


def test_peak_phase_stays_the_point_when_it_holds_the_most_after_release():
    est = Estimate(peak_bytes=30 * GIB, interval_bytes=(25 * GIB, 36 * GIB), phase="backward",
                   breakdown={}, reclaimable=(0, 4 * GIB, 6 * GIB),
                   phases={"backward": {"activations": 16 * GIB, "weights": 10 * GIB, "length_cache": 4 * GIB},
                           "optimizer": {"weights": 10 * GIB, "optimizer_states": 12 * GIB,
                                         "length_cache": 4 * GIB}})
    # optimizer: 26 - 4 released = 22 < backward: 30 - 4 = 26
    assert held_phase(est) == (26 * GIB, "backward")
    assert verdict(est, hardware.find("a100-40gb")) == "fits"   # top 30 GiB < 39.59


def test_a_phase_without_the_length_cache_releases_none_of_it():
    # the load phase holds no cached blocks of other lengths: nothing of it is released there
    est = Estimate(peak_bytes=30 * GIB, interval_bytes=(20 * GIB, 34 * GIB), phase="backward",
                   breakdown={}, reclaimable=(0, 8 * GIB, 10 * GIB),
                   phases={"backward": {"activations": 12 * GIB, "weights": 10 * GIB, "length_cache": 8 * GIB},
                           "load": {"weights": 10 * GIB, "load_transient": 15 * GIB}})
    assert held_phase(est) == (25 * GIB, "load")


def test_the_top_is_never_under_the_held_point():
    # the interval's top less the peak phase's released pools (24 GiB) under a 24 GiB-held optimizer step
    # on a 23.69 GiB card: never "fits" where the held point does not
    est = Estimate(peak_bytes=40 * GIB, interval_bytes=(20 * GIB, 44 * GIB), phase="backward",
                   breakdown={}, reclaimable=(0, 20 * GIB, 20.5 * GIB),
                   phases={"backward": {"weights": 20 * GIB, "pending_frees": 20 * GIB},
                           "optimizer": {"weights": 20 * GIB, "optimizer_states": 4 * GIB}})
    card = hardware.find("rtx-3090")
    assert held_point(est) == 24 * GIB > target_memory(card) > 44 * GIB - 20.5 * GIB
    assert verdict(est, card) == "likely-oom"


def test_the_report_names_the_phase_the_verdict_counts():
    inp, est, gpu = _estimate(FASTCHAT_4)
    text = estimate_text(inp, est, target=gpu, verdict=verdict(est, gpu))
    assert "the verdict counts 39.65 GiB" in text and "during the optimizer step: the most any phase holds" in text
    # the 8-GPU twin too: its backward pass is 39 GiB with 22 GiB of pending frees, its optimizer step 20
    twin_inp, twin, _ = _estimate(FASTCHAT_8)
    assert held_phase(twin)[1] == "optimizer" != twin.phase
    assert "the most any phase holds" in estimate_text(twin_inp, twin, target=gpu, verdict=verdict(twin, gpu))
    # silent where the peak phase is the one held: stanford_alpaca's peak is its optimizer step
    a_inp, a_est, a_gpu = _estimate(ALPACA, "heldout16.json")
    assert held_phase(a_est) == (a_est.peak_bytes - a_est.reclaimable[1], a_est.phase)
    assert "the most any phase holds" not in estimate_text(a_inp, a_est, target=a_gpu, verdict=verdict(a_est, a_gpu))
