"""est93: held-out-44's GPT-2 run on a Colab T4 (huggingface/transformers#3360, March 2020) ran out of memory; with the
torch of its date the estimate reproduces the error message's own figures and calls it out of memory, without a
version it says 'tight'. And the verdict-band script (calibration/public/est93_verdict_band.py) that counted every
split's verdicts against the outcomes: its what-if rule, and its refusal of the blind splits."""

from __future__ import annotations

import copy
import importlib.util
import json
import sys
from pathlib import Path

import pytest

from preflight import hardware  # type: ignore[attr-defined]
from preflight.estimate import estimate, verdict
from preflight.estimate.model import OVERHEAD_TERMS

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import public_accuracy as pa  # noqa: E402

GIB = 2 ** 30
ROWS = json.loads((ROOT / "calibration" / "public" / "heldout44.json").read_text(encoding="utf-8"))["rows"]
(GPT2_T4,) = [r for r in ROWS if r["source"] == "transformers-3360-gpt2-run-language-modeling-t4-oom"]
#: the error: 'Tried to allocate 786.00 MiB (GPU 0; 14.73 GiB total capacity; 13.33 GiB already allocated;
#: 575.88 MiB free; 13.38 GiB reserved in total by PyTorch)' -- the 786 MiB is a 4 x 1024 x 50,257 fp32 logits tensor
ALREADY_ALLOCATED = 13.33 * GIB


def _estimate(setup):
    gpu = hardware.find(GPT2_T4["gpu"])
    inp, _ = pa.estimate_input(setup, gpu)
    return estimate(inp), gpu


def _forward_tensors_before_logits(est) -> float:
    """What the allocator holds in the forward before the logits are made: the forward phase's tensors less the
    logits and loss transients and less what is not a tensor (context, fragmentation, caches)."""
    terms = est.phases["forward"]
    return sum(v for t, v in terms.items() if t not in OVERHEAD_TERMS and t != "logits_loss")


def test_the_row_carries_the_torch_of_its_date():
    assert GPT2_T4["setup"]["torch_version"] == "1.4.0"
    assert any("2020-04-21" in u for u in GPT2_T4["unknown"])


def test_torch_of_2020_reproduces_the_oom_message_and_calls_it_out_of_memory():
    est, gpu = _estimate(GPT2_T4["setup"])
    held = _forward_tensors_before_logits(est)
    # weights + gradients kept by zero_grad (no set_to_none before torch 2.0) + Adam states + activations with
    # every softmax's input saved (before torch 1.11): the error's 'already allocated' within 3%
    assert abs(held - ALREADY_ALLOCATED) / ALREADY_ALLOCATED < 0.03
    assert est.phases["forward"].get("gradients", 0) > 0.4 * GIB
    assert verdict(est, gpu) in ("likely-oom", "oom")


def test_without_the_version_the_same_run_is_only_tight():
    setup = copy.deepcopy(GPT2_T4["setup"])
    del setup["torch_version"]
    est, gpu = _estimate(setup)
    assert _forward_tensors_before_logits(est) < 0.85 * ALREADY_ALLOCATED
    assert verdict(est, gpu) == "tight"


def _band():
    spec = importlib.util.spec_from_file_location(
        "est93_verdict_band", ROOT / "calibration" / "public" / "est93_verdict_band.py")
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


def test_band_what_if_moves_only_tight_rows_at_or_above_the_ratio():
    band = _band()
    row = {"verdict": "tight", "point": 39.0, "top": 45.0, "card": 40.0}
    assert band.what_if(row, 0.975) == "likely-oom"
    assert band.what_if(row, 0.98) == "tight"
    assert band.what_if(row, None) == "tight"
    assert band.what_if(dict(row, verdict="fits", top=39.5), 0.5) == "fits"


def test_band_script_refuses_the_blind_splits():
    band = _band()
    with pytest.raises(SystemExit, match="blind"):
        band.main(["held-out-45"])
    assert band.split_number("held-out") == 1 and band.split_number("fit") is None
