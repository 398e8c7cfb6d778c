"""NCCL's communicator buffers (``preflight/estimate/nccl.py``, est26), recomputed by hand from
NCCL's buffer sizes: one connection is 12 MiB on one GPU's two ends, 24 collective channels on
NVLink A100/H100, 2 on PCIe; a rank in the middle of the chain tree holds a second connection per
channel. The term is outside PyTorch's allocator: in nvidia-smi's figure and the verdict, not in
``max_memory_allocated`` or ``memory_reserved``."""

from __future__ import annotations

import sys
from pathlib import Path

import hardware
from preflight.estimate import EstimateInput, estimate, nccl
from preflight.estimate.arch import from_hf_config
from preflight.estimate.remedy import verdict

REPO = Path(__file__).resolve().parents[1]
MIB = 2 ** 20
LLAMA2_7B = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
             "intermediate_size": 11008, "num_hidden_layers": 32, "num_attention_heads": 32,
             "num_key_value_heads": 32, "vocab_size": 32000, "max_position_embeddings": 4096,
             "rms_norm_eps": 1e-5, "tie_word_embeddings": False}


def _inp(**kw):
    base = dict(arch=from_hf_config(LLAMA2_7B, name="llama-2-7b"), mode="train", precision="bf16",
                optimizer="adamw", micro_batch=1, seq_len=2048, grad_ckpt=True, attention="sdpa",
                lora_r=8, lora_targets=("q_proj", "v_proj"), padding="packed", fsdp=True,
                torch_version="2.3.1", gpu_bf16=True)
    base.update(kw)
    return EstimateInput(**base)


def test_one_connection_is_twelve_mib_from_nccls_buffer_sizes():
    ll = 8 * 512 * 8 * 16            # lines/thread x threads x steps x 16-byte FIFO line
    ll128 = 120 * 640 * 8 * 8        # elements/thread x threads x steps x 8 bytes
    simple = 4 * MIB                 # NCCL_BUFFSIZE
    assert (ll, ll128) == (524_288, 4_915_200)
    # read mode (NVLink): the sender holds Simple, the receiver LL + LL128; 2 MiB rounding
    send, recv = 4096 + simple, 4096 + ll + ll128
    assert (send, recv) == (4_198_400, 5_443_584)
    assert nccl.connection_bytes(read=True) == 6 * MIB + 6 * MIB
    # otherwise the receiver holds all three and the sender only its 4 KiB header
    assert 4096 + ll + ll128 + simple == 9_637_888
    assert nccl.connection_bytes(read=False) == 2 * MIB + 10 * MIB


def test_links_from_catalog_names():
    assert nccl.link(hardware.find("A100-SXM-80GB")) == "nvlink"
    assert nccl.link(hardware.find("H100-SXM-80GB")) == "nvlink"
    assert nccl.link(hardware.find("H200-141GB")) == "nvlink"
    assert nccl.link(hardware.find("V100-SXM2-16GB")) == "nvlink-volta"
    assert nccl.link(hardware.find("A100-PCIe-40GB")) == "pcie"
    assert nccl.link(hardware.find("RTX-4090-24GB")) == "pcie"
    assert nccl.link(hardware.find("A10G-24GB")) == "pcie"
    assert nccl.link(hardware.find("A800-80GB")) is None      # sold as SXM and PCIe
    assert nccl.link(hardware.find("MI300X-192GB")) == "other"
    assert nccl.link(None) is None


def test_buffer_bytes_by_hand():
    conn = 12 * MIB
    assert nccl.buffer_bytes(1, "nvlink") == (0, 0, 0)
    # two GPUs: ring and tree reach the same peer, one connection per channel (288 MiB); the
    # top is NVIDIA/nccl#964's measured whole communicator on 2 x A100 NVLink, 544 MB
    assert nccl.buffer_bytes(2, "nvlink") == (24 * conn, 24 * conn, 544 * MIB)
    # eight: the chain tree's second connection (NCCL < 2.22 connects it at start-up); top 688 MB
    assert nccl.buffer_bytes(8, "nvlink") == (24 * conn, 48 * conn, 688 * MIB)
    assert nccl.buffer_bytes(4, "nvlink-volta") == (12 * conn, 24 * conn, 688 * MIB)
    # PCIe: 2 channels, or host memory (SHM transport, no P2P): nothing on the GPU
    assert nccl.buffer_bytes(2, "pcie") == (0, 2 * conn, 2 * conn)
    assert nccl.buffer_bytes(4, None) == (0, 4 * conn, 688 * MIB)
    assert nccl.buffer_bytes(8, "other") == (0, 0, 0)


def test_estimate_charges_the_term_outside_the_allocator():
    one = estimate(_inp(world_size=1, fsdp=False, gpu_link="nvlink"))
    two = estimate(_inp(world_size=2, gpu_link="nvlink"))
    eight = estimate(_inp(world_size=8, gpu_link="nvlink"))
    assert "nccl_buffers" not in one.breakdown
    assert two.breakdown["nccl_buffers"] == 24 * 12 * MIB          # 288 MiB
    assert eight.breakdown["nccl_buffers"] == 48 * 12 * MIB        # 576 MiB
    # in the whole-process figure, not in the tensors or the caching allocator's figures
    twin = estimate(_inp(world_size=8, gpu_link="other"))
    assert eight.peak_bytes - twin.peak_bytes == 576 * MIB
    assert eight.allocated_peak() == twin.allocated_peak()
    assert eight.tensor_peak() == twin.tensor_peak()
    assert eight.breakdown.get("fragmentation") == twin.breakdown.get("fragmentation")
    assert any("NCCL" in n for n in eight.notes)
    # inference with a world size (no process group is assumed): not charged
    gen = estimate(_inp(world_size=2, mode="generate", lora_r=0, fsdp=False, gpu_link="nvlink"))
    assert "nccl_buffers" not in gen.breakdown


def test_verdict_counts_the_buffers():
    eight = estimate(_inp(world_size=8, gpu_link="nvlink"))
    twin = estimate(_inp(world_size=8, gpu_link="other"))
    # a card 100 MiB above the job's point without the buffers: the point fits, with them not
    card = _Card(twin.peak_bytes - twin.reclaimable[1] + 100 * MIB)
    assert verdict(twin, card) in ("fits", "tight")
    assert verdict(eight, card) in ("likely-oom", "oom")


class _Card:
    name = "card"

    def __init__(self, memory_bytes):
        self.memory_bytes = memory_bytes


def test_public_bench_drops_the_buffers_from_reserved_memory():
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    est = estimate(_inp(world_size=8, gpu_link="nvlink"))
    base = estimate(_inp(world_size=8, gpu_link="other"))
    assert pa.comparable(est, "memory_reserved")[0] == pa.comparable(base, "memory_reserved")[0]
    assert pa.comparable(est, "max_memory_allocated")[0] == pa.comparable(base, "max_memory_allocated")[0]
    assert pa.comparable(est, "nvidia-smi")[0] - pa.comparable(base, "nvidia-smi")[0] == 576 * MIB
    # the bench reads the link from the row's GPU, as `preflight estimate --gpu` does
    inp, _ = pa.estimate_input({"model": "Llama-2-7B", "mode": "train", "precision": "bf16",
                                "micro_batch": 1, "seq_len": 512, "world_size": 2},
                               hardware.find("H100-SXM-80GB"))
    assert inp.gpu_link == "nvlink"


def test_the_bench_keeps_the_context_and_nccl_ranges_out_of_allocator_intervals():
    """The context's and NCCL's low and high ends leave the allocated and reserved intervals
    whole (est26: before, only their point left, so their range widened tensor-level intervals)."""
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    sure = estimate(_inp(world_size=8, gpu_link="nvlink", torch_version="2.3.1"))
    unsure = estimate(_inp(world_size=8, gpu_link=None, torch_version=None))   # eager top, PCIe..NVLink
    lone = estimate(_inp(world_size=8, gpu_link="other", torch_version="2.3.1"))
    for kind in ("max_memory_allocated", "memory_reserved"):
        got = [pa.comparable(e, kind) for e in (sure, unsure, lone)]
        for other in got[1:]:
            assert all(abs(a - b) <= 4 for a, b in zip(got[0], other)), (kind, got)   # rounding
    # the whole-process figure keeps them, and its top grows with their uncertainty
    assert pa.comparable(unsure, "nvidia-smi")[2] > pa.comparable(sure, "nvidia-smi")[2]
    lo_out, point_out, hi_out = sure.outside_allocator
    phase = sure.phases[sure.phase]
    assert point_out == phase["cuda_context"] + phase["nccl_buffers"]
    assert lo_out == 128 * MIB + 24 * 12 * MIB and hi_out == (666_632_192 - 20 * MIB) + 688 * MIB
