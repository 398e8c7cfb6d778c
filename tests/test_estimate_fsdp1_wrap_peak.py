"""FSDP1 building its units: the largest unit (the root of a large vocabulary: embeddings and an
untied LM head) is on the GPU whole while ``flatten_tensors`` ``cat``s its FlatParameter beside
it and ``shard()`` clones the rank's chunk, so start-up holds ``2 + 1/n`` times its bytes on top
of what the earlier units left there
(``terms.fsdp1_wrap_peak``; docs/calibration.md, "est29"). Recomputed by hand, with twins.
"""

from __future__ import annotations

import pytest

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.terms import fsdp1_wrap_peak

# Qwen2-7B's shapes: a 152,064 x 3,584 embedding and an untied head of the same shape
QWEN2_7B = {"model_type": "qwen2", "hidden_size": 3584, "intermediate_size": 18944,
            "num_hidden_layers": 28, "num_attention_heads": 28, "num_key_value_heads": 4,
            "vocab_size": 152064, "tie_word_embeddings": False}
ROOT_ELEMS = 2 * 152064 * 3584


def _job(**changes):
    arch = from_hf_config(QWEN2_7B, name="qwen2-7b")
    base = dict(arch=arch, precision="bf16", micro_batch=1, seq_len=128, grad_ckpt=True,
                world_size=2, fsdp="full", lora_r=8, lora_targets=("all-linear",))
    base.update(changes)
    return arch, EstimateInput(**base)


def test_the_unit_and_its_flat_copy_over_the_shards_already_made():
    _, inp = _job()
    root, layer, whole = ROOT_ELEMS * 2.0, 233e6 * 2.0, 7.6e9 * 2.0
    held, transient = fsdp1_wrap_peak(inp, root, layer, whole, 0.0, 2)
    # the root, its torch.cat copy and the rank's clone of half of it, the root still alive
    assert transient == pytest.approx(root * 2.5)
    assert held == pytest.approx((whole - root) / 2)   # every block's shard is on the GPU by then
    # a model whose blocks are the largest unit: the block's two copies
    held, transient = fsdp1_wrap_peak(inp, 1e6, layer, whole, 0.0, 2)
    assert transient == pytest.approx(layer * 2.5)


def test_under_parameter_offload_only_the_unmanaged_constants_stay():
    _, inp = _job(offload_params="cpu", quant="4bit", double_quant=True, kbit_prepared=False)
    held, transient = fsdp1_wrap_peak(inp, ROOT_ELEMS * 2.0, 1e8, 4e9, 123.0, 2)
    assert held == 123.0 and transient == pytest.approx(ROOT_ELEMS * 2.0 * 2.5)


@pytest.mark.parametrize("changes", [
    {"fsdp_version": 2},              # fully_shard copies chunk by chunk, no flat copy
    {"load_placement": "gpu"},        # the whole model is on the GPU first: its own load term
    {"world_size": 1},
    {"fsdp": None},
    {"mode": "infer"},
])
def test_silent_twins(changes):
    _, inp = _job(**changes)
    n = max(inp.world_size, 1)
    assert fsdp1_wrap_peak(inp, ROOT_ELEMS * 2.0, 1e8, 4e9, 0.0, n) == (0.0, 0.0)


def test_the_load_phase_of_a_qlora_job_with_offload():
    _, inp = _job(offload_params="cpu", quant="4bit", double_quant=True, kbit_prepared=False)
    est = estimate(inp)
    load = est.phases["load"]
    # the bf16 root, the FlatParameter cat'ed from it and the rank's half cloned from that
    assert load["load_transient"] == pytest.approx(ROOT_ELEMS * 2 * (2 + 1 / 2), abs=2)
    # the load phase now holds more than the step for this short-sequence job
    assert est.phase == "load"
    said = f"FSDP1 start-up: the largest unit ({ROOT_ELEMS * 2 / 1024 ** 3:.2f} GiB)"
    assert any(n.startswith(said) for n in est.notes)
    # FSDP2: no flat copy; the load phase is back to the quantization on the GPU, under the step
    _, twin = _job(offload_params="cpu", quant="4bit", double_quant=True, kbit_prepared=False,
                   fsdp_version=2)
    twin_est = estimate(twin)
    assert twin_est.phases["load"]["load_transient"] < ROOT_ELEMS * 2
    assert twin_est.phase != "load"
    assert not any("FSDP1 start-up" in n for n in twin_est.notes)
