"""ZeRO's optimizers copy every trainable parameter to fp32 with ``.clone().float()``, fp32
parameters too (zero_master.py): 4 bytes per trainable parameter over the ranks that share
the optimizer, beside the fp32 weights, gradients and Adam states."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import public_accuracy as pa

from preflight.estimate import estimate

#: Llama-2-7B: 32 x (4 x 4096^2 + 3 x 4096 x 11008 + 2 x 4096) + 2 x 32000 x 4096 + 4096
LLAMA2_7B = 32 * (4 * 4096 ** 2 + 3 * 4096 * 11008 + 2 * 4096) + 2 * 32000 * 4096 + 4096
JOB = dict(mode="train", model="Llama-2-7B", precision="fp32", optimizer="adamw", micro_batch=1,
           seq_len=512, padding="max_length", grad_ckpt=True, world_size=4, zero_stage=3)


def _est(**over):
    inp, unknown = pa.estimate_input(dict(JOB, **over))
    assert unknown == []
    return estimate(inp)


def test_parameter_count_is_llama2_7b():
    assert LLAMA2_7B == 6_738_415_616


@pytest.mark.parametrize("stage,ranks", [(3, 4), (2, 4), (1, 2), (3, 1)])
def test_fp32_full_finetune_under_zero_holds_the_fp32_copy(stage, ranks):
    est = _est(zero_stage=stage, world_size=ranks)
    # the copy is partitioned like the optimizer states: 4 bytes / parameter / rank
    master = est.phases["optimizer"]["master_weights"]
    assert master == pytest.approx(LLAMA2_7B * 4 / ranks, rel=1e-9)
    # and is as large as the fp32 partition of the parameters it was cloned from under ZeRO-3
    if stage == 3 and ranks > 1:
        assert master == pytest.approx(est.phases["optimizer"]["weights"], rel=1e-9)


def test_the_copy_adds_to_the_peak():
    with_copy = _est()
    # the same job under FSDP (no ZeRO optimizer): no copy
    fsdp = _est(zero_stage=0, fsdp="full")
    assert "master_weights" not in fsdp.phases["optimizer"] or \
        fsdp.phases["optimizer"]["master_weights"] == 0
    assert with_copy.phases["optimizer"]["master_weights"] > 0


def test_silent_without_zero_and_with_optimizer_offload():
    plain = _est(zero_stage=0, world_size=1)
    assert plain.phases["optimizer"].get("master_weights", 0) == 0
    offload = _est(offload_optimizer="cpu")
    assert offload.phases["optimizer"].get("master_weights", 0) == 0


def test_fp32_lora_under_zero_copies_only_the_adapters():
    # rank 8 on q_proj and v_proj (4096 -> 4096) in 32 layers
    n_lora = 32 * 2 * (8 * 4096 + 4096 * 8)
    est = _est(zero_stage=2, world_size=2, lora_r=8, lora_targets=("q_proj", "v_proj"))
    assert est.phases["optimizer"]["master_weights"] == pytest.approx(n_lora * 4 / 2, rel=1e-9)
