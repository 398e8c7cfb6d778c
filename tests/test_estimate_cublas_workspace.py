"""cuBLAS workspaces (``cublas_workspace``, ``Estimate.allocated_peak``), recomputed by hand:
8.125 MiB per workspace before Hopper (``:4096:2:16:8``; pytorch/pytorch#95668 reads 8,519,680
bytes left allocated by one nn.Linear on torch 2.0), one per thread's cuBLAS handle: two in
training (the forward thread and autograd's device thread), one otherwise. From torch 2.0 they
come from the caching allocator, so ``max_memory_allocated`` counts them; before, it does not."""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config

GPT2 = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_embd": 768, "n_layer": 12,
        "n_head": 12, "n_positions": 1024, "vocab_size": 50257}
PER_HANDLE = (4096 * 2 + 16 * 8) * 1024


def _inp(mode="train", torch_version="2.3.1"):
    return EstimateInput(arch=from_hf_config(GPT2, name="gpt2"), mode=mode, precision="fp16",
                         optimizer="sgd", micro_batch=1, seq_len=128, attention="sdpa",
                         torch_version=torch_version, transformers_version="5.2", loss="logits")


def test_training_holds_two_workspaces_and_inference_one():
    assert PER_HANDLE == 8_519_680
    train = estimate(_inp())
    assert all(t["cublas_workspace"] == 2 * PER_HANDLE for t in train.phases.values())
    infer = estimate(_inp(mode="inference"))
    assert all(t["cublas_workspace"] == PER_HANDLE for t in infer.phases.values())


def test_max_memory_allocated_counts_them_from_torch_2_0_only():
    new = estimate(_inp(torch_version="2.3.1"))
    tensors, where = new.tensor_peak()
    assert new.allocated_peak() == (tensors + 2 * PER_HANDLE, where)
    old = estimate(_inp(torch_version="1.13.1"))
    assert old.allocated_peak() == old.tensor_peak()
    unknown = estimate(_inp(torch_version=None))          # unknown: the latest torch
    assert unknown.allocated_peak()[0] == unknown.tensor_peak()[0] + 2 * PER_HANDLE


def test_a_hopper_target_gets_32_mib_workspaces():
    from preflight import hardware
    from preflight.estimate.gpu_facts import hopper_or_later

    assert hopper_or_later(hardware.find("h100")) is True
    assert hopper_or_later(hardware.find("a100-80gb")) is False
    assert hopper_or_later(None) is None
    inp = _inp()
    inp.gpu_hopper = True
    est = estimate(inp)
    assert all(t["cublas_workspace"] == 2 * 32 * 2 ** 20 for t in est.phases.values())


def test_blackwell_gets_32_mib_only_from_the_torch_that_extended_it():
    """pytorch/pytorch#91564 (torch 2.0) gave 32 MiB to compute capability 9.0 alone;
    Blackwell (10.x, 12.x) kept 8.125 MiB until pytorch/pytorch#175344 (2026, taken as 2.11)."""
    from preflight import hardware
    from preflight.estimate.gpu_facts import blackwell, hopper_or_later

    b200, rtx5090, h100 = (hardware.find(n) for n in ("b200", "rtx-5090", "h100"))
    assert blackwell(b200) and blackwell(rtx5090) and not blackwell(h100)
    assert hopper_or_later(rtx5090) is True                  # compute capability 12: "or later"
    for version, per in (("2.4.0", PER_HANDLE), ("2.10.0", PER_HANDLE), ("2.11.0", 32 * 2 ** 20)):
        inp = _inp(torch_version=version)
        inp.gpu_hopper, inp.gpu_blackwell = True, True
        est = estimate(inp)
        assert all(t["cublas_workspace"] == 2 * per for t in est.phases.values()), version
    # Hopper itself: 32 MiB whatever the torch from 2.0
    inp = _inp(torch_version="2.4.0")
    inp.gpu_hopper, inp.gpu_blackwell = True, False
    assert estimate(inp).phases["forward"]["cublas_workspace"] == 2 * 32 * 2 ** 20
