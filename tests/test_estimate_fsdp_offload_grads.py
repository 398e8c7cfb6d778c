"""FSDP1 with ``CPUOffload(offload_params=True)``: every unit's reduce-scattered gradient shard
stays on the GPU (``flat_param._saved_grad_shard``) until the post-backward final callback,
and its blocks stay cached by the post-backward stream, which the compute stream cannot reuse
(``terms.fsdp_offload_grad_shards``; docs/calibration.md, "est22"). Each term recomputed by
hand from its parts, with twins that must not move.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.params import count_params
from preflight.estimate.remedy import verdict
from preflight.estimate.terms import fsdp2, fsdp_offload_grad_shards

SMALL = {"model_type": "llama", "hidden_size": 1024, "intermediate_size": 2816,
         "num_hidden_layers": 16, "num_attention_heads": 16, "num_key_value_heads": 16,
         "vocab_size": 32000, "tie_word_embeddings": False}


def _job(**changes):
    arch = from_hf_config(SMALL, name="small-llama")
    base = dict(arch=arch, precision="bf16", micro_batch=2, seq_len=512, grad_ckpt=True,
                fsdp="full", world_size=4, torch_version="2.5", offload_params="cpu",
                offload_optimizer="cpu")
    base.update(changes)
    return arch, EstimateInput(**base)


def _without(phase_terms, *names):
    return {k: v for k, v in phase_terms.items() if k not in names}


def test_the_shards_of_every_unit_are_on_the_gpu_when_backward_ends():
    arch, inp = _job(micro_batch=1, seq_len=128)      # short sequences: the end of backward is the peak
    total = sum(dict(count_params(arch).by_part).values())
    bf16 = 2
    shards = total * bf16 / 4                          # the rank's quarter of every gradient, bf16
    assert fsdp_offload_grad_shards(inp, total, bf16, 4) == pytest.approx(shards)
    est = estimate(inp)
    backward = est.phases["backward"]
    # the end of backward: the shards as gradients (nothing else trains on the GPU under offload)
    assert backward["gradients"] == pytest.approx(shards, abs=2)
    # an allocated-memory reading counts them; the stream cache is reserved memory only
    tensors = sum(v for k, v in backward.items()
                  if k not in ("cuda_context", "nccl_buffers", "cublas_workspace", "fragmentation",
                               "stream_cache"))
    assert est.tensor_peak() == (tensors, "backward")
    # forward and the step: the same bytes, cached by the post-backward stream
    assert est.phases["forward"]["stream_cache"] == pytest.approx(shards, abs=2)
    assert est.phases["optimizer"]["stream_cache"] == pytest.approx(shards, abs=2)
    assert "gradients" not in est.phases["optimizer"]     # on the host by then


OVERHEAD = ("cuda_context", "nccl_buffers", "cublas_workspace", "fragmentation")


@pytest.mark.parametrize("seq_len,accum", [(128, {}), (2048, {}), (8192, {}),
                                           (128, dict(grad_accum=4, fsdp_unsharded_accum=True)),
                                           (8192, dict(grad_accum=4, fsdp_unsharded_accum=True))])
def test_reserved_memory_is_the_compute_peak_plus_the_post_backward_pool(seq_len, accum):
    """The same job under FSDP2 (``fsdp_version=2``: no shard stays on the GPU) is the
    compute stream alone. Under FSDP1, reserved memory in every phase is that plus the shards
    (the two streams' pools do not share blocks), whichever moment of backward is larger;
    allocated memory at the end of backward is one recomputed layer, the gathered units and
    the shards."""
    # (with no_sync accumulation the unsharded gradients are kept besides, in both)
    arch, inp = _job(micro_batch=2, seq_len=seq_len, **accum)
    _, twin = _job(micro_batch=2, seq_len=seq_len, fsdp_version=2, **accum)
    total = sum(dict(count_params(arch).by_part).values())
    shards = total * 2 / 4
    est, alone = estimate(inp), estimate(twin)
    for phase in ("forward", "backward", "optimizer"):
        reserved = sum(v for k, v in est.phases[phase].items() if k not in OVERHEAD)
        compute = sum(v for k, v in alone.phases[phase].items() if k not in OVERHEAD)
        assert reserved == pytest.approx(compute + shards, abs=8), phase
    backward = est.phases["backward"]
    end = backward.get("backward_transient", 0) + backward["gathered_params"] + shards
    assert est.allocated_peak()[0] >= end - 8
    kept = alone.phases["backward"].get("gradients", 0)     # no_sync's unsharded gradients
    if backward.get("gradients", 0) > kept:           # the end of backward is the larger moment
        assert backward["gradients"] == pytest.approx(kept + shards, abs=2)
    else:                                              # the start is: the whole pool beside it
        assert backward["stream_cache"] == pytest.approx(shards, abs=2)


def test_both_moments_of_backward_are_seen_across_lengths():
    """The two branches above are both exercised: short sequences end backward with the
    shards as the larger moment, long ones start it with the activations."""
    short = estimate(_job(micro_batch=1, seq_len=128)[1]).phases["backward"]
    long = estimate(_job(micro_batch=8, seq_len=8192)[1]).phases["backward"]
    assert "gradients" in short and "gradients" not in long


@pytest.mark.parametrize("changes", [
    dict(world_size=1),                                   # FSDP1 runs NO_SHARD on one GPU
    dict(mode="inference"),                               # no backward
    dict(fsdp_version=2),                                 # FSDP2 moves each shard to the host at once
    dict(model_impl="torchtune"),                         # torchtune's recipes: fully_shard (FSDP2)
    dict(fsdp=None, zero_stage=3),                        # DeepSpeed: its own buffers
])
def test_twins_without_the_term(changes):
    _, inp = _job(**changes)
    assert fsdp_offload_grad_shards(inp, 1e9, 2, 4) == 0.0
    est = estimate(inp)
    assert not any("FSDP CPU offload" in n for n in est.notes)
    # DeepSpeed's pools of that kind are its all-gather stream's, at the step (est44), and its
    # reduce stream's flat bucket copies, from the first reduction on (est72; zero3_streams.py):
    # no gradient shards
    pools = {p: terms["stream_cache"] for p, terms in est.phases.items() if "stream_cache" in terms}
    if inp.zero_stage >= 3:
        reduce = pools["forward"]
        assert reduce > 0 and pools["backward"] == reduce
        assert pools["optimizer"] == pytest.approx(est.phases["forward"]["gathered_params"] + reduce, abs=2)
    else:
        assert not pools


def test_fsdp_version_decides_and_unknown_is_fsdp1_except_torchtune():
    assert not fsdp2(_job()[1])
    assert fsdp2(_job(fsdp_version=2)[1])
    assert fsdp2(_job(model_impl="torchtune")[1])
    assert not fsdp2(_job(model_impl="torchtune", fsdp_version=1)[1])


def test_lora_shards_are_the_adapters_alone_unless_a_unit_mixes_frozen_weights():
    arch, lora = _job(lora_r=16, lora_targets=("q_proj", "v_proj"), fsdp_frozen_grads=False)
    _, mixed = _job(lora_r=16, lora_targets=("q_proj", "v_proj"), fsdp_frozen_grads=True)
    # PEFT's adapters: fp32; q and v are 1024 x 1024: r x (1024 + 1024) each, 16 layers
    adapters = 16 * 2 * 16 * (1024 + 1024)
    assert estimate(lora).phases["forward"]["stream_cache"] == pytest.approx(adapters * 4 / 4, abs=2)
    # a FlatParameter mixing frozen and trainable weights has a gradient for all of it (bf16)
    total = sum(dict(count_params(arch).by_part).values())
    assert estimate(mixed).phases["forward"]["stream_cache"] == pytest.approx(total * 2 / 4, abs=2)


def test_the_verdict_leaves_the_cached_pool_out():
    from preflight import hardware  # type: ignore[attr-defined]

    _, inp = _job(micro_batch=1, seq_len=128)
    est = estimate(inp)
    pool = est.phases[est.phase].get("stream_cache", 0)
    assert est.reclaimable[1] == pool
    gpu = hardware.find("RTX-4090-24GB")
    assert verdict(est, gpu) == "fits"


def _heldout_row(name, rid):
    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root / "bench"))
    import public_accuracy as pa

    rows = json.loads((root / "calibration" / "public" / name).read_text())["rows"]
    row = next(r for r in rows if r["id"].endswith(rid))
    return row, pa.evaluate(row), pa


def test_universal_llm_trainer_llama2_13b_fsdp_offload_in_sample():
    """In-sample (the row the cause was traced on, -49.4% before): Llama-2-13B full fine-tune,
    FSDP1 FULL_SHARD with CPUOffload(offload_params=True) on two H100s, torch 2.5.1, reserved
    memory. The rank's shard of every bf16 gradient (13.0e9 / 2 x 2 bytes, 12.1 GiB) is
    reserved beside the compute stream's peak."""
    row, res, pa = _heldout_row("heldout11.json", "llama-2-13b-full-fsdp-cpu-offload-fp16-b2-s8192-2gpu")
    assert res.error is not None and abs(res.error) < 0.10 and res.inside
    inp, _ = pa.estimate_input(row["setup"])
    est = estimate(inp)
    assert est.phases["forward"]["stream_cache"] == pytest.approx(est.params_trainable * 2 / 2, rel=1e-6)


def test_the_text_report_says_what_the_verdict_leaves_out():
    from preflight import hardware  # type: ignore[attr-defined]
    from preflight.estimate.report import estimate_text

    gpu = hardware.find("h100-sxm-80gb")
    _, inp = _job(micro_batch=2, seq_len=4096)
    est = estimate(inp)
    text = estimate_text(inp, est, target=gpu, verdict=verdict(est, gpu))
    pool = est.phases[est.phase]["stream_cache"]
    assert f"of which {pool / 1024 ** 3:.2f} GiB cached for another CUDA stream" in text
    assert "cached blocks of other batch lengths" not in text      # no dynamic padding here
    assert "sharded gradient" in text                                # the note names the shards
    _, twin = _job(micro_batch=2, seq_len=4096, fsdp_version=2)
    e2 = estimate(twin)
    assert "another CUDA stream" not in estimate_text(twin, e2, target=gpu, verdict=verdict(e2, gpu))


def test_the_fsdp_version_is_a_plan_fact(tmp_path):
    import textwrap

    from preflight.audit import build_plan
    from preflight.estimate import input_from_plan

    (tmp_path / "train.py").write_text(textwrap.dedent("""\
        import torch
        from torch.distributed.fsdp import CPUOffload, FullyShardedDataParallel as FSDP
        model = torch.nn.Linear(4, 4)
        model = FSDP(model,
                     cpu_offload=CPUOffload(offload_params=True))
    """), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path)
    assert plan.value("dist.fsdp_version") == 1
    assert plan.resolve("dist.fsdp_version").source.line == 4
    assert plan.value("dist.offload_params") == "cpu"
    assert input_from_plan(plan, {"seq_len": 8}).fsdp_version == 1
    (tmp_path / "train.py").write_text(textwrap.dedent("""\
        import torch
        from torch.distributed.fsdp import fully_shard, CPUOffloadPolicy
        model = torch.nn.Linear(4, 4)
        fully_shard(model, offload_policy=CPUOffloadPolicy())
    """), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path)
    assert plan.value("dist.fsdp_version") == 2
    assert input_from_plan(plan, {"seq_len": 8}).fsdp_version == 2
    # twin: no FSDP at all, no fact
    (tmp_path / "train.py").write_text("import torch\nmodel = torch.nn.Linear(4, 4)\n", encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path)
    assert plan.value("dist.fsdp_version") is None


@pytest.mark.parametrize("version", [1, 2])
def test_without_offload_the_freed_gradients_stay_in_the_post_backward_pool(version):
    """Without offload the sharded gradient is ``.grad`` (charged at the step). After
    ``zero_grad`` frees it, its blocks stay cached by the stream that allocated them (FSDP1's
    post-backward stream, FSDP2's reduce-scatter stream): reserved memory in forward and at the
    start of backward holds them beside the compute stream's tensors."""
    arch, inp = _job(offload_params=None, offload_optimizer=None, fsdp_version=version,
                     micro_batch=4, seq_len=4096)
    assert fsdp_offload_grad_shards(inp, 1e9, 2, 4) == 0.0        # nothing kept on the GPU
    est = estimate(inp)
    total = sum(dict(count_params(arch).by_part).values())
    grads = total * 2 / 4                                          # bf16, a quarter per rank
    assert est.phases["optimizer"]["gradients"] == pytest.approx(grads, abs=2)
    assert "stream_cache" not in est.phases["optimizer"]           # allocated there
    assert est.phases["forward"]["stream_cache"] == pytest.approx(grads, abs=2)
    assert "gradients" not in est.phases["forward"]
    # allocated readings leave it out: the tensor peak is the largest phase without it
    by_phase = {p: sum(v for k, v in t.items() if k not in (*OVERHEAD, "stream_cache"))
                for p, t in est.phases.items()}
    assert est.tensor_peak()[0] == max(by_phase.values())
    _, kept = _job(offload_params=None, offload_optimizer=None, fsdp_version=version,
                   micro_batch=4, seq_len=4096, zero_grad_keeps=True)
    e_kept = estimate(kept)     # zero_grad(set_to_none=False): allocated through forward instead
    assert e_kept.phases["forward"]["gradients"] == pytest.approx(grads, abs=2)
    assert "stream_cache" not in e_kept.phases["forward"]
