"""The committed calibration data is well-formed, covers the matrix, obeys the physics of a
training step, and the estimator's terms agree with it.

Reads JSON only (no torch): runs everywhere. The estimator's totals against the same data
(5% mean / 10% worst) are in tests/test_estimate_calibration.py; here each term the data
pins exactly (weights, gradients, optimizer states) is checked on its own.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "calibration" / "data"
REFERENCE = DATA / "cpu_reference.json"
CATS = ("param", "buffer", "grad", "act", "temp", "opt", "other")
PHASES = ("forward", "backward", "optimizer")

sys.path.insert(0, str(REPO))
from calibration.matrix import MATRIX  # noqa: E402

DOC = json.loads(REFERENCE.read_text(encoding="utf-8"))
RECORDS = {r["name"]: r for r in DOC["configs"]}
NAMES = sorted(RECORDS)


def test_document_header():
    assert DOC["version"] == 1 and DOC["kind"] == "cpu-fake-tensor-reference"
    assert DOC["units"] == "bytes" and DOC["steps_per_case"] == 2
    assert DOC["command"].startswith("python -m calibration.reference")
    assert {"torch", "transformers", "peft", "python"} <= set(DOC["versions"])
    assert set(DOC["categories"]) == set(CATS)


def test_every_matrix_case_is_measured_as_currently_defined():
    """The data was regenerated after the last change of calibration/matrix.py."""
    assert [r["name"] for r in DOC["configs"]] == [c.name for c in MATRIX]
    for case in MATRIX:
        assert RECORDS[case.name]["case"] == json.loads(json.dumps(case.describe())), case.name


def test_the_matrix_covers_every_axis():
    cases = [r["case"] for r in DOC["configs"]]
    assert len(cases) >= 12
    assert len({c["model_type"] for c in cases}) >= 8
    assert {c["precision"] for c in cases} == {"fp32", "amp-bf16", "bf16"}
    assert {c["optimizer"] for c in cases} == {"adamw", "sgd-momentum", "adafactor"}
    assert {c["grad_ckpt"] for c in cases} == {True, False}
    assert {"eager", "sdpa"} <= {c["attention"] for c in cases}
    assert any(c["lora_r"] for c in cases) and any(not c["lora_r"] for c in cases)
    assert {c["task"] for c in cases} == {"causal-lm", "masked-lm", "seq2seq",
                                          "image-classification"}


@pytest.mark.parametrize("name", NAMES)
def test_record_is_consistent(name):
    rec = RECORDS[name]
    phases = [(f"step{i}.{p}", step[p]) for i, step in enumerate(rec["steps"], 1) for p in PHASES]
    assert len(phases) == 6
    for _, fig in phases:
        for key in ("peak_by_category", "end_by_category"):
            split = fig[key]
            assert sum(split[c] for c in CATS) == split["total"]
            assert all(split[c] >= 0 for c in CATS)
        assert fig["peak_by_category"]["total"] == fig["peak_bytes"]
        assert fig["end_bytes"] == fig["end_by_category"]["total"] <= fig["peak_bytes"]
    best_name, best = max(phases, key=lambda p: p[1]["peak_bytes"])
    assert rec["peak_bytes"] == best["peak_bytes"] and rec["peak_phase"] == best_name
    assert rec["peak_by_category"] == best["peak_by_category"]


@pytest.mark.parametrize("name", NAMES)
def test_record_obeys_the_training_step(name):
    """What any training step must show: weights fixed and exactly the parameter bytes,
    gradients only for trainable parameters and gone after zero_grad(set_to_none=True),
    optimizer state created in step 1 and the same size in step 2."""
    rec = RECORDS[name]
    params = rec["params"]
    s1, s2 = rec["steps"]
    for step in (s1, s2):
        for p in PHASES:
            assert step[p]["peak_by_category"]["param"] == params["bytes"]
            assert step[p]["peak_by_category"]["grad"] <= params["trainable_bytes"]
        assert step["optimizer"]["end_by_category"]["grad"] == 0
        assert step["backward"]["end_by_category"]["grad"] == params["trainable_bytes"]
    assert rec["start_by_category"]["opt"] == 0
    assert s1["optimizer"]["end_by_category"]["opt"] == s2["optimizer"]["end_by_category"]["opt"]
    assert params["trainable"] <= params["total"]
    if rec["case"]["lora_r"]:
        assert params["trainable"] < 0.2 * params["total"]


def _state_bytes(rec):
    return rec["steps"][0]["optimizer"]["end_by_category"]["opt"]


@pytest.mark.parametrize("name", [n for n in NAMES if RECORDS[n]["case"]["optimizer"] == "adamw"])
def test_adamw_keeps_two_states_per_trainable_element(name):
    rec = RECORDS[name]
    states = _state_bytes(rec)
    # exp_avg + exp_avg_sq in the parameter dtype, plus one fp32 step scalar per tensor
    assert 2 * rec["params"]["trainable_bytes"] <= states
    assert states - 2 * rec["params"]["trainable_bytes"] < 4 * 4096


@pytest.mark.parametrize("name", [n for n in NAMES
                                  if RECORDS[n]["case"]["optimizer"] == "sgd-momentum"])
def test_sgd_momentum_keeps_one_buffer_per_trainable_element(name):
    rec = RECORDS[name]
    assert _state_bytes(rec) == rec["params"]["trainable_bytes"]


# --------------------------------------------------------------------------- estimator


estimate_mod = pytest.importorskip("preflight.estimate", reason="the estimator is not installed")


def _estimate(rec):
    from preflight.estimate.inputs import from_calibration_case

    return estimate_mod.estimate(from_calibration_case(rec["case"], rec["hf_config"]))


@pytest.mark.parametrize("name", NAMES)
def test_estimator_terms_match_the_data(name):
    """Weights exactly; gradients and optimizer states (incl. step temporaries) of the
    optimizer phase within 1% of the measured step-1 optimizer peak."""
    rec = RECORDS[name]
    est = _estimate(rec)
    assert est.ok, est.missing
    opt_phase = est.phases["optimizer"]
    weights = opt_phase.get("weights", 0) + opt_phase.get("lora_adapters", 0)
    assert abs(weights - rec["params"]["bytes"]) <= 0.005 * rec["params"]["bytes"]
    measured = rec["steps"][0]["optimizer"]["peak_by_category"]
    grads = opt_phase.get("gradients", 0)
    assert abs(grads - measured["grad"]) <= 0.01 * max(measured["grad"], 1)
    states = opt_phase.get("optimizer_states", 0) + opt_phase.get("optimizer_temporaries", 0)
    assert abs(states - measured["opt"]) <= 0.01 * measured["opt"] + 4096


def test_estimator_totals_within_the_issue_tolerance():
    errors = []
    for rec in DOC["configs"]:
        peak, _ = _estimate(rec).tensor_peak()
        errors.append((peak - rec["peak_bytes"]) / rec["peak_bytes"])
    assert sum(abs(e) for e in errors) / len(errors) <= 0.05
    assert max(abs(e) for e in errors) <= 0.10
