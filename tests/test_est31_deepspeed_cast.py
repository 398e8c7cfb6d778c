"""DeepSpeed's fp16/bf16 engine casts every floating parameter to 16 bits
(terms_sharded.deepspeed_casts_params): PEFT's fp32 adapters, k-bit preparation's fp32
norms/embeddings/head; int8 and 4-bit weights are no floating tensors and stay."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import public_accuracy as pa

from preflight.estimate import estimate
from preflight.estimate.terms_sharded import deepspeed_casts_params

JOB = dict(mode="train", model="Llama-2-7B", precision="fp16", optimizer="adamw", micro_batch=4,
           seq_len=512, padding="max_length", grad_ckpt=True, world_size=2, zero_stage=2,
           offload_optimizer="cpu", overlap_comm=True, contiguous_gradients=True, quant="8bit",
           kbit_prepared=True, lora_r=8, lora_targets=["q_proj", "v_proj"], lora_dropout=0.05)
#: rank 8 on q_proj and v_proj (4096 -> 4096) in 32 layers: A (8 x 4096) + B (4096 x 8) each
N_LORA = 32 * 2 * (8 * 4096 + 4096 * 8)
#: DeepSpeed's default reduce_bucket_size (elements)
BUCKET = 500_000_000


def _est(**over):
    inp, unknown = pa.estimate_input(dict(JOB, **over))
    assert unknown == []
    return inp, estimate(inp)


def test_adapters_and_buckets_are_16_bit_under_the_engine():
    inp, est = _est()
    assert deepspeed_casts_params(inp)
    assert est.phases["forward"]["lora_adapters"] == N_LORA * 2
    # the contiguous gradient buckets take the 16-bit parameters' dtype, two with overlap_comm
    assert est.phases["backward"]["zero_buckets"] >= BUCKET * 2 * 2
    assert est.phases["backward"]["zero_buckets"] < BUCKET * 4 * 2
    assert any("DeepSpeed fp16/bf16" in n for n in est.notes)


def test_kbit_prepared_fp32_parts_come_back_to_16_bits():
    # embed_tokens and lm_head (32000 x 4096 each) upcast by prepare_model_for_int8_training:
    # 4 bytes without the engine's cast, 2 with it; the int8 weights do not move
    _, ds = _est()
    _, ddp = _est(zero_stage=0, offload_optimizer=None)
    diff = ddp.phases["forward"]["weights"] - ds.phases["forward"]["weights"]
    assert diff >= 2 * 32000 * 4096 * 2


def test_amp_without_deepspeed_and_full_fine_tunes_are_unchanged():
    assert not deepspeed_casts_params(_est(zero_stage=0, offload_optimizer=None)[0])
    amp = _est(precision="amp-fp16", zero_stage=0, offload_optimizer=None, quant=None,
               kbit_prepared=False)
    assert not deepspeed_casts_params(amp[0])
    assert amp[1].phases["forward"]["lora_adapters"] == N_LORA * 4   # PEFT's fp32 adapters
    full = dict(JOB, quant=None, kbit_prepared=False, lora_r=None, lora_targets=None)
    inp, _ = pa.estimate_input({k: v for k, v in full.items() if v is not None})
    assert not deepspeed_casts_params(inp)
