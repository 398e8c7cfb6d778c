"""A full fine-tune with the input embedding and LM head frozen (``frozen_embeddings``,
frozen_tables.py): no gradient, optimizer state or tied-gradient transient for the tables;
a step inside backward holds one block matrix's gradient at most."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import public_accuracy as pa

from preflight.estimate import estimate
from preflight.estimate.inputs import InputError, input_from_plan

#: Llama-2-7B: untied 32,000 x 4,096 embedding and head; blocks 4 x 4096^2 + 3 x 4096 x 11008
TABLES = 2 * 32000 * 4096
TOTAL = 32 * (4 * 4096 ** 2 + 3 * 4096 * 11008 + 2 * 4096) + TABLES + 4096
MLP = 4096 * 11008
JOB = dict(mode="train", model="Llama-2-7B", precision="bf16", optimizer="adamw", micro_batch=1,
           seq_len=256, padding="max_length", grad_ckpt=True, world_size=1, loss="fused")


def _est(**over):
    inp, unknown = pa.estimate_input(dict(JOB, **over))
    assert unknown == []
    return estimate(inp)


def test_gradients_and_states_cover_the_blocks_only():
    trained = _est()
    frozen = _est(frozen_embeddings=True)
    # bf16 gradients: 2 bytes per trained parameter
    assert trained.phases["optimizer"]["gradients"] == pytest.approx(TOTAL * 2, rel=1e-9)
    assert frozen.phases["optimizer"]["gradients"] == pytest.approx((TOTAL - TABLES) * 2, rel=1e-9)
    # AdamW's two states per trained parameter shrink by the same share
    ratio = frozen.phases["optimizer"]["optimizer_states"] / trained.phases["optimizer"]["optimizer_states"]
    assert ratio == pytest.approx((TOTAL - TABLES) / TOTAL, rel=1e-9)
    # the weights themselves are still held
    assert frozen.phases["optimizer"]["weights"] == trained.phases["optimizer"]["weights"]


def test_step_in_backward_holds_one_block_matrix():
    trained = _est(optimizer_in_backward=True)
    frozen = _est(optimizer_in_backward=True, frozen_embeddings=True)
    # the largest parameter: the 32,000 x 4,096 table, else an MLP matrix (4,096 x 11,008)
    assert trained.phases["backward"]["gradients"] == pytest.approx(32000 * 4096 * 2)
    assert frozen.phases["backward"]["gradients"] == pytest.approx(MLP * 2)


def test_tied_table_transient_goes_with_the_table():
    # Llama-3.2-1B ties its 128,256 x 2,048 table: the end-of-backward transient of two
    # extra table-sized gradients (terms.tied_embedding_grad) exists only while it trains
    job = dict(model="Llama-3.2-1B", loss="standard")
    trained = _est(**job)
    frozen = _est(frozen_embeddings=True, **job)
    assert trained.phases["backward"].get("backward_transient", 0) >= 2 * 128256 * 2048 * 2
    assert frozen.phases["backward"].get("backward_transient", 0) < 128256 * 2048 * 2


def test_lora_is_unchanged():
    lora = dict(lora_r=8, lora_targets=("q_proj", "v_proj"))
    assert _est(**lora).peak_bytes == _est(frozen_embeddings=True, **lora).peak_bytes


def test_not_a_bool_is_an_input_error():
    with pytest.raises(InputError, match="frozen embeddings"):
        input_from_plan(None, {"seq_len": 512, "frozen_embeddings": "yes"})


def test_cli_flag_moves_the_estimate(tmp_path):
    exe = Path(sys.executable).parent / "preflight"
    base = [str(exe), "estimate", "--model", "Llama-2-7B", "--batch-size", "1", "--seq-len", "256",
            "--precision", "bf16", "--gpu", "A100-80GB", "--format", "json"]
    plain = subprocess.run(base, capture_output=True, text=True)
    frozen = subprocess.run([*base, "--frozen-embeddings"], capture_output=True, text=True)
    assert "Traceback" not in plain.stderr + frozen.stderr
    assert plain.stdout != frozen.stdout
