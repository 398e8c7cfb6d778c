"""est62: torchtune's torchao NF4 base is quantized on the GPU while the model loads (``preflight/estimate/nf4_quantize.py``).

torchtune 0.1.x pins torchao 0.1, whose ``quantize_tensor_nearest`` compares every element of a weight with the 16
NF4 levels at once (``(value - nf4).abs()``): beside the 4-bit model already built, the largest weight's incoming
16-bit copy, its scaled blocks and two ``16 x n`` 16-bit tensors, 68 bytes an element. From torchtune 0.2 (torchao
0.3.1) the comparison runs in chunks of 1024**2 elements. bitsandbytes quantizes in its kernel: the 16-bit copy only.
Each term is recomputed here from Llama-2-7B's shapes; held-out-2's torchtune QLoRA tutorial row is the case that
moved (-39.4% -> -13.2%, now inside its interval; in-sample).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from preflight.estimate import estimate

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import public_accuracy as P  # noqa: E402

N = 4096 * 11008          # Llama-2-7B's largest quantized weight (the MLP's)
MIB = 1024 ** 2


def _load(**kw):
    setup = dict(model="Llama-2-7B", mode="train", precision="bf16", optimizer="adamw", micro_batch=2,
                 seq_len=512, grad_ckpt=True, lora_r=8, lora_targets=["q_proj", "v_proj"], quant="4bit",
                 quant_type="nf4", double_quant=True, model_impl="torchtune")
    setup.update({k: v for k, v in kw.items() if v is not None})
    for k in [k for k, v in kw.items() if v is None]:
        setup.pop(k, None)
    inp, _ = P.estimate_input(setup)
    return estimate(inp).phases.get("load", {})


def test_torchao_01_holds_68_bytes_an_element_of_the_largest_weight():
    load = _load(torchtune_version="0.1.0")
    by_hand = N * (2 + 2 + 2 * 16 * 2)        # incoming copy, scaled blocks, (value - nf4) and its abs
    assert load["load_transient"] == pytest.approx(by_hand, rel=1e-6)
    assert by_hand / 2 ** 30 == pytest.approx(2.855, abs=0.001)


@pytest.mark.parametrize("version", ["0.2.0", "0.3.1", None])
def test_chunked_torchao_holds_a_chunk_not_the_whole_comparison(version):
    """torchtune 0.2+ (and an unknown release: the current code) quantizes in chunks of 1024**2 elements."""
    load = _load(torchtune_version=version)
    chunk = 2 * 16 * MIB * 2
    by_hand = max(N * (2 + 2 + 1) + chunk, N * (2 + 2 + 1 + 1))
    assert load["load_transient"] == pytest.approx(by_hand, rel=1e-6)
    assert load["load_transient"] < _load(torchtune_version="0.1.1")["load_transient"] / 10


def test_bitsandbytes_base_keeps_the_16_bit_copy_only():
    """Not torchtune: bitsandbytes' kernel quantizes the 16-bit copy in place of the comparison."""
    load = _load(model_impl="transformers", torchtune_version=None)
    assert load["load_transient"] == pytest.approx(N * 2, rel=1e-6)


def test_a_16_bit_torchtune_lora_has_no_quantization_at_load():
    load = _load(quant=None, quant_type=None, double_quant=None, torchtune_version="0.1.0")
    assert "load_transient" not in load


def test_the_tutorial_rows_state_the_release_their_commits_are_in():
    rows = json.loads((ROOT / "calibration" / "public" / "heldout2.json").read_text(encoding="utf-8"))["rows"]
    tt = {r["id"].split("/")[1]: r for r in rows if r["id"].startswith("torchtune-tutorials-2024/")}
    assert len(tt) == 6
    assert {k: r["setup"]["torchtune_version"] for k, r in tt.items()} == {
        "llama2-7b-lora-qv-r8": "0.1.0", "llama2-7b-lora-all-r8": "0.1.0", "llama2-7b-lora-qv-r64": "0.1.0",
        "llama2-7b-lora-all-r64": "0.1.0", "llama2-7b-qlora": "0.1.0", "llama3-8b-lora-qv-r8": "0.1.1"}


def test_the_qlora_tutorial_row_is_inside_its_interval():
    rows = json.loads((ROOT / "calibration" / "public" / "heldout2.json").read_text(encoding="utf-8"))["rows"]
    row = next(r for r in rows if r["id"] == "torchtune-tutorials-2024/llama2-7b-qlora")
    # est62 measured this with the data's treatment of long samples unknown (est23's whole grid); est67
    # wrote the recipe's cut ('truncate') on the row, which lowers the cached lengths charged on top of the
    # load phase (tests/test_est67_length_truncation.py has the row as it now reads)
    row = dict(row, setup={k: v for k, v in row["setup"].items() if k != "truncation"})
    res = P.evaluate(row)
    assert res.inside
    assert res.error == pytest.approx(-0.132, abs=0.005)
    # the tutorial's own 'Peak memory reserved, model init' (9.13 GB) is above the load phase's tensors
    inp, _ = P.estimate_input(row["setup"])
    load = estimate(inp).phases["load"]
    assert load["weights"] + load["load_transient"] < 9.13e9


def test_a_replay_of_the_load_allocations_reaches_the_same_allocated_peak():
    """calibration/est62_nf4_load.py replays the build and load_state_dict allocations read in torchtune ff594c23 and
    torchao v0.1 through the allocator simulator: its allocated peak is the estimator's load phase (4-bit model +
    68 bytes an element of the largest weight) within 1%; its reserved peak (7.3 GiB) stays under the tutorial's 9.13 GB
    at init, the part the estimate still misses (allocator caching of the sequential quantizations)."""
    from calibration.est62_nf4_load import estimator_load, run

    sim, est = run(), estimator_load()
    assert sim["peak_allocated_gib"] == pytest.approx(
        est["estimator_load_weights_gib"] + est["estimator_load_transient_gib"], rel=0.01)
    assert est["estimator_load_weights_gib"] + est["estimator_load_transient_gib"] < sim["peak_reserved_gib"]
    assert sim["peak_reserved_gib"] < sim["tutorial_init_reserved_gib"]
    committed = json.loads((ROOT / "calibration" / "data" / "est62_nf4_load.json").read_text(encoding="utf-8"))
    assert committed["result"] == dict(sim, **est)
