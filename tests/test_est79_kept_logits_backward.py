"""est79 (issue 17; docs/calibration.md "est79"): a loop that keeps the model's output object holds its logits
through backward, so at the start of backward the returned logits sit beside the eager loss's own fp32 tensors.

Measured on CPU with torch's profiler (``calibration/est79_loop_logits.py`` ->
``calibration/data/est79_loop_logits.json``): transformers 4.57's loss path is 10 bytes per token x vocabulary in
forward and 12 at the start of backward; kept, 14 (the 16-bit logits); prime-rl's loop, which keeps fp32 logits, 16;
the same with its ``out`` dropped, 12.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.constants import LOGITS_BACKWARD_FP32, LOGITS_FORWARD_FP32

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "calibration" / "data" / "est79_loop_logits.json"

H, VOCAB, SEQ = 256, 128000, 4096
SMALL = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": H,
         "intermediate_size": 4 * H, "num_hidden_layers": 2, "num_attention_heads": 4,
         "num_key_value_heads": 4, "vocab_size": VOCAB, "tie_word_embeddings": False}
TV = SEQ * VOCAB


def _job(**changes):
    arch = from_hf_config(SMALL, name="small-llama-big-vocab")
    base = dict(arch=arch, precision="amp-bf16", micro_batch=1, seq_len=SEQ, grad_ckpt=True,
                torch_version="2.5", transformers_version="4.57", model_impl="transformers",
                lora_r=8, use_cache=False)
    base.update(changes)
    return EstimateInput(**base)


def _measured() -> dict:
    rows = json.loads(DATA.read_text(encoding="utf-8"))["rows"]
    return {r["path"]: r for r in rows}


def test_the_measurement_backs_the_constants_and_the_kept_logits():
    """The committed CPU profile: transformers' loss path is the estimator's 10 / 12 bytes per token x vocab; a kept
    output adds its logits (2 bytes bf16, 4 fp32) at the start of backward and nothing in forward."""
    m = _measured()
    assert m["transformers_4_57"]["forward_peak_per_tv"] == pytest.approx(2 + LOGITS_FORWARD_FP32, abs=0.01)
    assert m["transformers_4_57"]["backward_peak_per_tv"] == pytest.approx(LOGITS_BACKWARD_FP32, abs=0.01)
    assert m["transformers_4_57_kept"]["backward_peak_per_tv"] == pytest.approx(LOGITS_BACKWARD_FP32 + 2, abs=0.01)
    assert m["prime_rl"]["backward_peak_per_tv"] == pytest.approx(LOGITS_BACKWARD_FP32 + 4, abs=0.01)
    assert m["prime_rl_del_out"]["backward_peak_per_tv"] == pytest.approx(LOGITS_BACKWARD_FP32, abs=0.01)
    for row in m.values():
        assert row["after_backward_per_tv"] < 4.1


def test_kept_outputs_hold_the_returned_logits_at_the_start_of_backward():
    """keeps_outputs: the backward phase's held_outputs carries the bf16 logits the model returned (tokens x vocab x
    2 bytes), beside the loss's own 12 bytes."""
    kept = estimate(_job(keeps_outputs=True)).phases["backward"]
    dropped = estimate(_job()).phases["backward"]
    assert dropped.get("held_outputs", 0) == 0
    assert kept["held_outputs"] == pytest.approx(TV * 2, rel=1e-6)
    assert kept["logits_loss"] == dropped["logits_loss"] == pytest.approx(TV * LOGITS_BACKWARD_FP32, rel=1e-6)


def test_a_version_that_returns_fp32_logits_keeps_fp32():
    """Before transformers 4.46 the head returns its fp32 upcast: the kept logits are 4 bytes a position."""
    kept = estimate(_job(keeps_outputs=True, transformers_version="4.44")).phases["backward"]
    assert kept["held_outputs"] == pytest.approx(TV * 4, rel=1e-6)


def test_a_loss_that_reduces_the_logits_already_counts_them():
    """``loss='logits'`` (``outputs.logits.sum().backward()``): the logits are in the loss's own backward bytes
    (2 x tv x elem), so keeping the outputs adds nothing more at the start of backward."""
    kept = estimate(_job(keeps_outputs=True, loss="logits")).phases["backward"]
    dropped = estimate(_job(loss="logits")).phases["backward"]
    assert kept.get("held_outputs", 0) == dropped.get("held_outputs", 0) == 0
    assert kept["logits_loss"] == dropped["logits_loss"]


def test_a_compiled_loss_already_holds_its_16_bit_logits():
    """A loss inside the compiled model saves the 16-bit logits itself: nothing more at the start of backward."""
    kept = estimate(_job(keeps_outputs=True, compiled=True, compiled_loss=True)).phases["backward"]
    assert kept.get("held_outputs", 0) == 0


def test_the_peak_grows_by_the_kept_logits_and_their_step_cache():
    """The backward phase's total grows by the kept logits plus the step cache charged on them (held outputs are a
    length-dependent step tensor): at least the 2 bytes a position."""
    kept = sum(estimate(_job(keeps_outputs=True)).phases["backward"].values())
    dropped = sum(estimate(_job()).phases["backward"].values())
    assert kept - dropped >= TV * 2 * 0.999
