"""The estimator's Swin activations against what the reference Swin Transformer saves for backward (est85).

``calibration/est85_swin_saved.py`` ran microsoft/Swin-Transformer b05e621 (the code of held-out-17's training logs)
on the CPU under an emulation of apex O1 and counted the storages autograd keeps after one image's forward
(``calibration/data/est85_swin_saved.json``). The estimate's activations per image for the two logs' models, at
torch 1.11 and at torch 1.10 (whose softmax keeps its input too), are within 1% of those counts: the rows' shortfall
(Swin-T -18%, Swin-S -8%) is not in the saved activations.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from preflight.estimate import estimate

ROOT = Path(__file__).resolve().parents[1]
DATA = json.loads((ROOT / "calibration" / "data" / "est85_swin_saved.json").read_text())
ROWS = {"Swin-T": "swin-tiny-224-ampfp16-ddp8-b128", "Swin-S": "swin-small-224-ampfp16-ddp4-b48"}


def _activations_per_image(model: str, torch_version: str) -> float:
    sys.path.insert(0, str(ROOT / "bench"))
    import public_accuracy as pa

    rows = json.loads((ROOT / "calibration" / "public" / "heldout17.json").read_text())["rows"]
    setup = next(r for r in rows if r["id"].endswith(ROWS[model]))["setup"]
    inp, _ = pa.estimate_input(dict(setup, micro_batch=1, torch_version=torch_version))
    return float(estimate(inp).phases["backward"]["activations"])


@pytest.mark.parametrize("model", sorted(ROWS))
@pytest.mark.parametrize(("torch_version", "key"), [("1.11.0", "torch>=1.11"), ("1.10.0", "torch<1.11")])
def test_the_estimate_saves_what_the_reference_swin_saves(model, torch_version, key):
    measured = DATA["bytes_per_image"][model][key]
    assert _activations_per_image(model, torch_version) == pytest.approx(measured, rel=0.01)


def test_the_measurement_is_per_image():
    for figures in DATA["bytes_per_image"].values():
        # two images save twice one image's tensors, less a few fixed tables (the position index, the masks)
        assert figures["torch>=1.11, batch 2 / 2"] == pytest.approx(figures["torch>=1.11"], rel=0.01)


@pytest.mark.parametrize(("model", "key"), [("Swin-T", "Swin-T, batch 128, torch<1.11"),
                                          ("Swin-S", "Swin-S, batch 48, torch>=1.11")])
def test_the_estimate_is_at_or_above_the_replayed_step(model, key):
    """Two whole steps of each log's configuration replayed on fake tensors (MemTracker): the estimate of the row's
    allocated peak lies within 6% above the replay's peak, so what the logs read beyond it (14.42 and 7.60 GiB) is
    not a term of the reference code that the estimate misses. (5% at est85; est88's autocast attention backward,
    6 bytes a score, puts Swin-S at +5.1%: the fake-tensor replay's peak is not at that transient.)"""
    sys.path.insert(0, str(ROOT / "bench"))
    import public_accuracy as pa

    rows = json.loads((ROOT / "calibration" / "public" / "heldout17.json").read_text())["rows"]
    row = next(r for r in rows if r["id"].endswith(ROWS[model]))
    replay = DATA["step_peak_bytes"][key]["total"]
    estimate_bytes = pa.evaluate(row).estimate
    assert replay <= estimate_bytes <= 1.06 * replay
