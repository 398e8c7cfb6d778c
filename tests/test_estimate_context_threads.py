"""The lazy-loading context keyed on the GPU's resident threads (est30), recomputed by hand from the
published SM counts and the line fitted on calibration/public/context_measurements.json."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hardware import find
from preflight.estimate import EstimateInput, estimate
from preflight.estimate import constants as C
from preflight.estimate.arch import from_hf_config
from preflight.estimate.gpu_facts import lazy_context, resident_threads

ROOT = Path(__file__).resolve().parents[1]
MIB = 2 ** 20
BERT = {"model_type": "bert", "architectures": ["BertForMaskedLM"], "hidden_size": 768,
        "intermediate_size": 3072, "num_hidden_layers": 12, "num_attention_heads": 12,
        "vocab_size": 30522, "max_position_embeddings": 512, "type_vocab_size": 2}


@pytest.mark.parametrize("name,sms,per_sm", [
    ("A100-SXM-80GB", 108, 2048), ("H100-SXM-80GB", 132, 2048), ("H100-PCIe-80GB", 114, 2048),
    ("T4-16GB", 40, 1024), ("RTX-4090-24GB", 128, 1536), ("RTX-3090-24GB", 82, 1536),
    ("RTX-3090-Ti-24GB", 84, 1536), ("V100-SXM2-32GB", 80, 2048), ("L4-24GB", 58, 1536),
])
def test_resident_threads_are_sms_times_threads_per_sm(name, sms, per_sm):
    gpu = find(name)
    assert gpu is not None
    assert resident_threads(gpu) == sms * per_sm


def test_other_vendors_and_no_gpu_have_no_thread_count():
    assert resident_threads(None) is None
    assert resident_threads(find("MI300X-192GB")) is None


def test_every_catalog_nvidia_gpu_has_a_thread_count():
    from hardware import gpus

    missing = [g.name for g in gpus() if g.vendor == "nvidia" and resident_threads(g) is None]
    assert missing == []


def test_the_term_by_hand():
    # A100: 108 SMs x 2048 threads; 55.4 MiB + 1850 B x 221,184 = 467,284,400 B (446 MiB)
    point, (low, high) = lazy_context(108 * 2048)
    assert point == 58_094_000 + 1850 * 221_184 == 467_284_400
    assert (low, high) == (int(point * 0.75), int(point * 1.5))
    # T4: 40 x 1024 -> 128 MiB, half the flat figure of before est30
    assert round(lazy_context(40 * 1024)[0] / MIB) == 128
    # unknown GPU: the flat figure and range of before est30
    assert lazy_context(None) == (C.CUDA_CONTEXT_BYTES, C.CUDA_CONTEXT_RANGE)


def _context(**kw):
    est = estimate(EstimateInput(arch=from_hf_config(BERT, name="bert-base"), seq_len=128, **kw))
    return est, est.phases[est.phase]["cuda_context"]


def test_the_estimate_charges_it_and_the_nvidia_smi_total_moves_by_it():
    a100 = resident_threads(find("A100-SXM-80GB"))
    t4 = resident_threads(find("T4-16GB"))
    none_est, none_ctx = _context(torch_version="2.1.0")
    a_est, a_ctx = _context(torch_version="2.1.0", gpu_threads=a100)
    t_est, t_ctx = _context(torch_version="2.1.0", gpu_threads=t4)
    assert none_ctx == C.CUDA_CONTEXT_BYTES
    assert a_ctx == lazy_context(a100)[0] and t_ctx == lazy_context(t4)[0]
    # the device total (what nvidia-smi and the verdict see) moves by the context alone
    assert a_est.peak_bytes - none_est.peak_bytes == a_ctx - none_ctx
    assert t_est.peak_bytes - none_est.peak_bytes == t_ctx - none_ctx
    # the allocator's figures do not move (the context is outside it)
    assert a_est.allocated_peak()[0] == none_est.allocated_peak()[0] == t_est.allocated_peak()[0]


def test_eager_loading_keeps_the_eager_context():
    _, ctx = _context(torch_version="1.12.1", gpu_threads=108 * 2048)
    assert ctx == C.CUDA_CONTEXT_EAGER_BYTES


def test_before_torch_2_1_the_top_still_reaches_the_eager_context():
    est, _ = _context(torch_version="2.0.1", gpu_threads=40 * 1024)
    lo, _, hi = est.outside_allocator
    assert hi >= C.CUDA_CONTEXT_EAGER_RANGE[1]
    assert lo == int(lazy_context(40 * 1024)[0] * C.CONTEXT_LAZY_REL[0])


def test_the_constants_are_the_fit_on_the_fitting_rows(tmp_path):
    out = tmp_path / "fit.json"
    subprocess.run([sys.executable, str(ROOT / "bench" / "context_term.py"), "--json", str(out)],
                   check=True, capture_output=True, cwd=ROOT)
    result = json.loads(out.read_text())
    assert abs(result["line"]["base_bytes"] - C.CONTEXT_LAZY_BASE) < MIB / 100
    assert round(result["line"]["per_thread_bytes"]) == C.CONTEXT_LAZY_PER_THREAD
    # only fitting rows went into the fit
    rows = {r["id"]: r for r in json.loads(
        (ROOT / "calibration" / "public" / "context_measurements.json").read_text())["rows"]}
    assert all(rows[i]["split"] == "fit" for i in result["line"]["rows"])


def test_a_third_of_the_scored_rows_of_each_kind_is_held_out():
    rows = json.loads((ROOT / "calibration" / "public" / "context_measurements.json").read_text())["rows"]
    scored = [r for r in rows if r["value_bytes"] is not None and not r.get("excluded")]
    for kind in {r["quantity"] for r in scored}:
        of_kind = [r for r in scored if r["quantity"] == kind]
        assert 3 * sum(r["split"] == "held-out" for r in of_kind) >= len(of_kind)
    # a publisher is never on both sides
    sides: dict[str, set[str]] = {}
    for r in rows:
        sides.setdefault(r["publisher"], set()).add(r["split"])
    assert all(len(s) == 1 for s in sides.values())
    # rows found after the constants were committed are held out, never fitted
    assert [r for r in rows if r.get("late")] and all(r["split"] == "held-out" for r in rows if r.get("late"))
    assert all(r["url"].startswith("https://") for r in rows)
