"""est94: DDP on ONE process (``ddp_one_process``). torch's Reducer allocates its gradient buckets when
DistributedDataParallel wraps the model, whatever the world size, so a job launched with
``--nproc_per_node 1`` (or ColossalAI's TorchDDPPlugin on one GPU) holds a second copy of every trained
gradient, as DDP on several GPUs does; without DDP, nothing. Nothing else moves: no NCCL communicator
buffers are charged for one process, and ZeRO / FSDP keep their own buckets."""

from __future__ import annotations

import json
from pathlib import Path

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config

REPO = Path(__file__).resolve().parent.parent

GPT2 = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_embd": 768, "n_layer": 12,
        "n_head": 12, "n_positions": 1024, "vocab_size": 50257, "tie_word_embeddings": True}


def _inp(**kw):
    base = dict(arch=from_hf_config(GPT2, name="gpt2"), mode="train", precision="fp32", optimizer="adamw",
                micro_batch=4, seq_len=512, attention="eager", world_size=1)
    base.update(kw)
    return EstimateInput(**base)


def test_one_process_ddp_adds_a_bucket_copy_of_the_fp32_gradients():
    plain = estimate(_inp())
    ddp1 = estimate(_inp(ddp_one_process=True))
    grads = plain.phases["optimizer"]["gradients"]
    assert 0.45 * 2 ** 30 < grads < 0.48 * 2 ** 30        # 124M fp32 gradients
    for phase in ("forward", "backward", "optimizer"):
        assert "ddp_buckets" not in plain.phases[phase]
        assert ddp1.phases[phase]["ddp_buckets"] == grads, phase
    assert ddp1.allocated_peak()[0] - plain.allocated_peak()[0] == grads
    # the same bucket as DDP on two GPUs, without the two-GPU run's NCCL buffers
    two = estimate(_inp(world_size=2))
    assert two.phases["backward"]["ddp_buckets"] == ddp1.phases["backward"]["ddp_buckets"]
    assert "nccl_buffers" not in ddp1.breakdown and "nccl_buffers" in two.breakdown


def test_bucket_view_and_sharding_and_inference_keep_their_own_terms():
    view = estimate(_inp(ddp_one_process=True, ddp_bucket_view=True))
    assert view.phases["backward"]["ddp_buckets"] == 25 * 2 ** 20    # one 25 MiB bucket
    for kw in (dict(zero_stage=2), dict(fsdp="full")):
        assert estimate(_inp(ddp_one_process=True, **kw)).breakdown.get("ddp_buckets", 0) == \
            estimate(_inp(**kw)).breakdown.get("ddp_buckets", 0), kw
    inference = estimate(_inp(mode="inference", ddp_one_process=True))
    assert "ddp_buckets" not in inference.breakdown


def test_the_rows_that_say_ddp_on_one_process_set_it():
    """held-out-10's Mesa rows (torch.distributed.launch --nproc_per_node 1) and held-out-45's
    Shawlleyw rows (TorchDDPPlugin, one GPU) state the wrapper; every row that sets it runs one process."""
    marked = []
    for name in ("heldout10.json", "heldout45.json"):
        for row in json.loads((REPO / "calibration" / "public" / name).read_text(encoding="utf-8"))["rows"]:
            if row["setup"].get("ddp_one_process"):
                assert row["setup"].get("world_size", 1) == 1, row["id"]
                marked.append(row["id"].split("/")[0])
    assert marked.count("mesa-imagenet-train-memory") == 4
    assert marked.count("shawlleyw-instructgpt2-colossal-v100s") == 3


def test_shawlleyw_full_row_reads_the_logged_buffers():
    """The README's own sum after training (parameters + DDP buffer + gradients + 2 x AdamW states =
    2.34 GB allocated) is what the corrected full row's optimizer phase holds outside the step."""
    rows = json.loads((REPO / "calibration" / "public" / "heldout45.json").read_text(encoding="utf-8"))["rows"]
    full = next(r for r in rows if "gpt2-alpaca-full" in r["id"])
    assert full["setup"]["zero_grad_keeps"] and full["setup"]["keeps_outputs"]
    est = estimate(_inp(ddp_one_process=True, zero_grad_keeps=True, keeps_outputs=True))
    held = sum(est.phases["optimizer"][t] for t in ("weights", "ddp_buckets", "gradients", "optimizer_states"))
    assert abs(held / 2 ** 30 - 2.34) < 0.03
