"""est23: DDP's start-up broadcast (``preflight/estimate/ddp_sync.py``), recomputed by hand: DDP
flattens EVERY parameter, frozen ones too, into broadcast copies when it wraps the model, and the
caching allocator may keep up to all those bytes. In the interval's top and the reclaimable top
only; the point, the verdict and the allocated peak are unchanged. ZeRO and FSDP are not charged."""

from __future__ import annotations

import hardware
from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.remedy import verdict

QWEN2_7B = {"model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"], "hidden_size": 3584,
            "intermediate_size": 18944, "num_hidden_layers": 28, "num_attention_heads": 28,
            "num_key_value_heads": 4, "vocab_size": 152064, "max_position_embeddings": 32768,
            "rms_norm_eps": 1e-6, "tie_word_embeddings": False}


def _inp(**kw):
    base = dict(arch=from_hf_config(QWEN2_7B, name="qwen2-7b"), mode="train", precision="bf16",
                optimizer="adamw", micro_batch=1, seq_len=128, grad_ckpt=True, attention="sdpa",
                lora_r=8, lora_targets=("all-linear",), torch_version="2.4.0",
                transformers_version="4.46.0", gpu_bf16=True)
    base.update(kw)
    return EstimateInput(**base)


def test_ddp_adds_every_stored_parameter_byte_to_the_top_only():
    one = estimate(_inp(world_size=1))
    ddp = estimate(_inp(world_size=2))
    stored = ddp.phases[ddp.phase]["weights"] + ddp.phases[ddp.phase]["lora_adapters"]
    # 7.6e9 parameters in bf16 (the frozen base) plus the adapters
    assert 14 * 2 ** 30 < stored < 14.5 * 2 ** 30
    assert abs(ddp.reclaimable[2] - one.reclaimable[2] - stored) <= 2
    assert ddp.reclaimable[1] == one.reclaimable[1]            # nothing in the point
    # no other term moves but DDP's own reducer bucket (and the fragmentation share of it)
    for term, value in one.breakdown.items():
        if term != "fragmentation":
            assert ddp.breakdown[term] == value, term
    # (and NCCL's communicator buffers, outside the allocator: est26, test_estimate_nccl.py)
    assert set(ddp.breakdown) - set(one.breakdown) == {"ddp_buckets", "nccl_buffers"}
    assert ddp.interval_bytes[1] - one.interval_bytes[1] >= stored   # the top holds all of it
    gpu = hardware.find("a100-80gb")
    assert verdict(ddp, gpu) == verdict(one, gpu)
    assert any("DDP broadcasts every parameter" in n for n in ddp.notes)


def test_zero_and_fsdp_broadcast_in_place_or_not_at_all():
    for kw in (dict(zero_stage=2), dict(zero_stage=3), dict(fsdp="full")):
        est = estimate(_inp(world_size=2, **kw))
        assert not any("DDP broadcasts" in n for n in est.notes), kw
    assert not any("DDP broadcasts" in n for n in estimate(_inp(world_size=2, mode="inference",
                                                                 lora_r=None)).notes)
