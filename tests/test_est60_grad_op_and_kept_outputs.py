"""est60 (issue 17; docs/calibration.md "est60"): two terms recomputed by hand from shapes.

1. FSDP ``grad-op`` (FSDP1 SHARD_GRAD_OP, FSDP2 ``reshard_after_forward=False``) stores a 1/n shard
   of every parameter and holds ONE unsharded copy of the model, in the gathered dtype, from the
   forward to the backward (``terms_fsdp.grad_op_gathered``). The estimate used to keep the whole
   model as stored weights too (``w_div = 1``): a second copy, 7/8 of the model on 8 GPUs.
2. A loop that keeps ``outputs`` holds the logits the model RETURNS: before transformers 4.46 a
   decoder's head upcasts (``logits = logits.float()``) and returns the fp32 copy
   (``terms.returned_logits_bytes``), not the 16-bit head output.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.terms import grad_op_gathered, returned_logits_bytes

REPO = Path(__file__).resolve().parents[1]

H, FFN, LAYERS, VOCAB = 1024, 2816, 8, 32000
SMALL = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": H,
         "intermediate_size": FFN, "num_hidden_layers": LAYERS, "num_attention_heads": 16,
         "num_key_value_heads": 16, "vocab_size": VOCAB, "tie_word_embeddings": False}
#: by hand: q, k, v, o (4 h^2), gate/up/down (3 h ffn), two RMSNorms per layer; embeddings, head,
#: final norm
LAYER = 4 * H * H + 3 * H * FFN + 2 * H
TOTAL = LAYERS * LAYER + 2 * VOCAB * H + H


def _job(**changes):
    arch = from_hf_config(SMALL, name="small-llama")
    base = dict(arch=arch, precision="bf16", micro_batch=1, seq_len=256, grad_ckpt=False,
                fsdp="grad-op", world_size=8, torch_version="2.5", model_impl="litgpt")
    base.update(changes)
    return EstimateInput(**base)


def test_the_hand_count_is_the_estimators_count():
    est = estimate(_job(world_size=1, fsdp=None))
    assert est.phases["forward"]["weights"] == pytest.approx(TOTAL * 2, abs=64)


@pytest.mark.parametrize("world", [2, 4, 8])
def test_grad_op_holds_the_shard_and_one_gathered_copy(world):
    """Forward and backward: the rank's bf16 shard (TOTAL x 2 / n) and the whole model gathered
    once (TOTAL x 2); no third term, no second full copy."""
    phases = estimate(_job(world_size=world)).phases
    for phase in ("forward", "backward"):
        assert phases[phase]["weights"] == pytest.approx(TOTAL * 2 / world, rel=1e-6), phase
    assert phases["forward"]["gathered_params"] == pytest.approx(TOTAL * 2, rel=1e-6)
    whole = phases["forward"]["weights"] + phases["forward"]["gathered_params"]
    assert whole == pytest.approx(TOTAL * 2 * (1 + 1 / world), rel=1e-6)


def test_backward_adds_the_running_units_unsharded_gradient():
    """As under FULL_SHARD, each unit's unsharded gradient exists until its reduce-scatter: one
    decoder layer's bf16 gradient beside the gathered model (FSDP2, wrapped per block; the
    estimate's layer is the blocks' share of everything but the vocabulary tables, the final
    norm's 1,024 included)."""
    phases = estimate(_job(fsdp_version=2, fsdp_wrap="block")).phases
    extra = phases["backward"]["gathered_params"] - phases["forward"]["gathered_params"]
    assert extra == pytest.approx((TOTAL - 2 * VOCAB * H) / LAYERS * 2, rel=1e-6)


def test_the_optimizer_step_sees_shards_only():
    """After backward every unit is resharded: the step holds the 1/n shard, as FULL_SHARD does."""
    grad_op = estimate(_job()).phases["optimizer"]
    full = estimate(_job(fsdp="full")).phases["optimizer"]
    assert grad_op["weights"] == pytest.approx(TOTAL * 2 / 8, rel=1e-6)
    assert "gathered_params" not in grad_op
    assert grad_op["weights"] == full["weights"]


def test_grad_op_gathers_more_than_full_shard_and_by_the_right_amount():
    """FULL_SHARD holds two blocks and the root's other ranks' parts; SHARD_GRAD_OP the whole
    model: the difference is the rest of the blocks and the rank's own share of the root."""
    g = estimate(_job()).phases["forward"]["gathered_params"]
    f = estimate(_job(fsdp="full")).phases["forward"]["gathered_params"]
    root = (2 * VOCAB * H) * 2
    assert f == pytest.approx(2 * LAYER * 2 + root * 7 / 8, rel=1e-3)
    assert g - f == pytest.approx(TOTAL * 2 - 2 * LAYER * 2 - root * 7 / 8, rel=1e-3)


def test_one_gpu_gathers_nothing_and_keeps_the_model():
    phases = estimate(_job(world_size=1)).phases
    assert "gathered_params" not in phases["forward"]
    assert phases["forward"]["weights"] == pytest.approx(TOTAL * 2, abs=64)


def test_the_term_from_its_parts():
    assert grad_op_gathered(1000, 2) == 2000
    assert grad_op_gathered(1000, 2, quantized=800, base_bytes=0.5) == pytest.approx(200 * 2 + 800 * 0.5)
    assert grad_op_gathered(0, 2) == 0.0


def test_mixed_precision_gathers_in_the_compute_dtype_over_fp32_shards():
    """amp-bf16 under FSDP (MixedPrecision param_dtype bf16): fp32 shards, bf16 gathered copy."""
    phases = estimate(_job(precision="amp-bf16", model_impl="transformers")).phases
    assert phases["forward"]["weights"] == pytest.approx(TOTAL * 4 / 8, rel=1e-6)
    assert phases["forward"]["gathered_params"] == pytest.approx(TOTAL * 2, rel=1e-6)


# ---------------------------------------------------------------- 2. the logits a kept output holds

class _Arch:
    def __init__(self, family, model_type):
        self.family, self.model_type = family, model_type


@pytest.mark.parametrize("version, family, model_type, elem, expected", [
    ("4.31.0", "decoder", "llama", 2, 4),     # logits = logits.float(), returned
    ("4.45.2", "decoder", "mistral", 2, 4),
    ("4.46.0", "decoder", "llama", 2, 2),     # the upcast moved into the loss function
    (None, "decoder", "llama", 2, 2),         # unknown: the latest layout
    ("4.31.0", "decoder", "gpt2", 2, 2),      # GPT-2 never upcasts before 4.49
    ("4.31.0", "encoder", "bert", 2, 2),      # an MLM head returns its own dtype
    ("4.31.0", "decoder", "llama", 4, 4),     # fp32 logits are fp32 either way
])
def test_returned_logits_bytes(version, family, model_type, elem, expected):
    inp = _job(transformers_version=version, model_impl="transformers", fsdp=None, world_size=1)
    assert returned_logits_bytes(inp, elem, _Arch(family, model_type)) == expected


def _kept(version, keeps=True):
    return estimate(_job(transformers_version=version, model_impl="transformers", fsdp=None,
                         world_size=1, precision="amp-bf16", keeps_outputs=keeps, use_cache=False,
                         micro_batch=2))


def test_a_kept_output_holds_fp32_logits_before_4_46():
    """At the end of forward the previous step's logits are alive: 2 x 256 tokens x 32,000 in
    fp32 with 4.31, in bf16 with 4.46; the difference is their 2 extra bytes each."""
    old = _kept("4.31.0").phases["forward"]["held_outputs"]
    new = _kept("4.46.0").phases["forward"]["held_outputs"]
    tv = 2 * 256 * VOCAB
    assert old == pytest.approx(tv * 4, rel=1e-6)
    assert new == pytest.approx(tv * 2, rel=1e-6)


def test_a_loop_that_drops_its_outputs_holds_no_logits_whatever_the_version():
    for version in ("4.31.0", "4.46.0"):
        assert not _kept(version, keeps=False).phases["forward"].get("held_outputs")


# ---------------------------------------------------------------- the rows the causes were traced on

def _rows(split_file, contains):
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    rows = json.loads((REPO / "calibration" / "public" / split_file).read_text())["rows"]
    return [(r, pa.evaluate(r)) for r in rows if contains in r["id"]], pa


def test_atorch_rows_hold_two_caches_and_the_fp32_logits_at_the_end_of_forward():
    """held-out-28's ATorch rows (IN-SAMPLE: read before the inputs were corrected). By hand: the
    previous step's outputs (32 layers x 16,384 tokens x (key + value) x 4,096 x 2 B = 8 GiB
    cache, 4 x 4,096 x 32,000 x 4 B fp32 logits) and this step's whole cache (checkpointed
    layers save only their input, so none of it is saved by autograd): 17.95 GiB."""
    from preflight import hardware  # type: ignore[attr-defined]

    rows, pa = _rows("heldout28.json", "atorch-")
    assert len(rows) == 8
    cache = 32 * 16384 * 2 * 4096 * 2
    logits = 4 * 4096 * 32000 * 4
    for row, res in rows:
        inp, _ = pa.estimate_input(row["setup"], hardware.find(row["gpu"]))
        held = estimate(inp).phases["forward"]["held_outputs"]
        assert held == pytest.approx(2 * cache + logits, rel=1e-6), row["id"]
        assert res.error is not None and abs(res.error) < 0.03, (row["id"], res.error)


def test_thunder_zero2_rows_count_the_model_once():
    """held-out-28's Thunder zero2 rows (IN-SAMPLE): forward holds the bf16 model gathered once
    plus its 1/8 shard; Llama-2-7b-hf in litgpt's shapes: 32 x (4 x 4,096^2 + 3 x 4,096 x
    11,008 + 2 x 4,096) + 2 x 32,000 x 4,096 + 4,096 parameters."""
    from preflight import hardware  # type: ignore[attr-defined]

    total = 32 * (4 * 4096 ** 2 + 3 * 4096 * 11008 + 2 * 4096) + 2 * 32000 * 4096 + 4096
    rows, pa = _rows("heldout28.json", "llama2-7b-litgpt")
    assert len(rows) == 3
    for row, res in rows:
        inp, _ = pa.estimate_input(row["setup"], hardware.find(row["gpu"]))
        fwd = estimate(inp).phases["forward"]
        assert fwd["weights"] + fwd["gathered_params"] == pytest.approx(total * 2 * 9 / 8, rel=1e-3)
        assert res.verdict == "fits" and abs(res.error) < 0.05, (row["id"], res.error)


def test_the_llama3_zero2_row_is_no_longer_a_false_oom():
    rows, _ = _rows("heldout28.json", "llama3-8b-litgpt-bf16-inductor-fsdp2-zero2")
    (_row, res), = rows
    assert res.verdict in ("fits", "tight")


# ---------------------------------------------------------------- the remediation a grad-op job gets

def test_a_grad_op_job_is_told_to_reshard_after_forward_with_the_saving_recomputed():
    """The whole gathered model less FULL_SHARD's two blocks and root share: what the change saves
    is the two estimates' difference, and the flag is one the job does not already have."""
    from preflight import hardware  # type: ignore[attr-defined]
    from preflight.estimate import remediate

    inp = _job()
    base, full = estimate(inp).peak_bytes, estimate(_job(fsdp="full")).peak_bytes
    (r,) = [r for r in remediate(inp, hardware.find("A10G-24GB")) if "--fsdp full" in r.flags]
    assert r.saved_bytes == base - full and r.saved_bytes > 0.01 * base


@pytest.mark.parametrize("changes", [dict(fsdp="full"), dict(world_size=1), dict(mode="inference")])
def test_no_reshard_suggestion_where_it_restates_the_job_or_has_nothing_to_free(changes):
    from preflight import hardware  # type: ignore[attr-defined]
    from preflight.estimate import remediate

    inp = _job(**changes)
    assert not [r for r in remediate(inp, hardware.find("A10G-24GB")) if "--fsdp full" in r.flags]
