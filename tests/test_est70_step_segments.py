"""est70: at a ZeRO-1/2 optimizer step the flat 16-bit gradient partition and its fp32 cast are
single tensors larger than any block a fused-loss backward freed, so they take new segments while
backward's blocks stay cached (``preflight/estimate/step_segments.py``), recomputed by hand from the
shapes. Traced on held-out-32's Llama-3.1-8B ZeRO-2 + Liger-Kernel row (stas00/ml-engineering
bench_decompose.py, 8 x H200, max_memory_reserved; in-sample there); its transformers twin keeps
fp32 logits larger than both tensors and stays as it was."""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.report import estimate_text

LLAMA31_8B = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
              "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32,
              "num_key_value_heads": 8, "vocab_size": 128256, "max_position_embeddings": 131072,
              "tie_word_embeddings": False}
TOTAL = 8_030_261_248
FLAT, FP32 = TOTAL / 8 * 2, TOTAL / 8 * 4          # 1.87 and 3.74 GiB
#: est84: the norm's fp64 copy of the largest gradient slice (the 128,256 x 4,096 embedding on rank 0)
NORM = 8 * 128256 * 4096                            # 3.91 GiB
NOT_TENSORS = ("cuda_context", "nccl_buffers", "stream_cache", "length_cache", "pending_frees",
               "step_segments", "fragmentation")


def _inp(**kw):
    base = dict(arch=from_hf_config(LLAMA31_8B, name="llama31-8b"), mode="train", precision="bf16",
                optimizer="adamw", micro_batch=1, seq_len=8192, grad_accum=1, attention="flash",
                world_size=8, zero_stage=2, overlap_comm=True, contiguous_gradients=True,
                zero_client_optimizer=False, padding="max_length", loss="fused", liger_kernels=True,
                torch_version="2.13.0", transformers_version="5.14.1", deepspeed_version="0.19.2")
    base.update(kw)
    return EstimateInput(**base)


def _tensors(phase: dict) -> float:
    return sum(v for t, v in phase.items() if t not in NOT_TENSORS)


def test_fused_loss_step_takes_new_segments_by_hand():
    est = estimate(_inp())
    # the largest block backward made: one 8,192 x 14,336 bf16 MLP tensor (224 MiB), the head's
    # 16-bit gradient (1,002 MiB); both below the 1.87 GiB flat copy and the 3.74 GiB fp32 cast
    assert 8192 * 14336 * 2 == 224 * 2**20 and 128256 * 4096 * 2 < FLAT < FP32
    bwd, opt = est.phases["backward"], est.phases["optimizer"]
    # est84: the norm's fp64 copy comes first, a segment of its own; the flat copy then fits its
    # free block, the fp32 cast no longer fits the rest and takes a segment of its own
    assert FLAT <= NORM < FLAT + FP32
    assert abs(opt["step_segments"] - (_tensors(bwd) + NORM + FP32 - _tensors(opt))) <= 2
    assert est.phase == "optimizer"
    # reserved only: an allocated-memory reading leaves it out, the verdict releases it
    assert est.reclaimable[1] >= opt["step_segments"]
    value, _where = est.allocated_peak()
    assert value <= max(sum(v for t, v in p.items() if t != "step_segments") for p in est.phases.values())
    assert "backward's cached blocks, too small for the ZeRO step" in estimate_text(_inp(), est)


def test_standard_loss_reuses_its_fp32_logits_block():
    # twin: transformers' loss keeps fp32 logits of 8,192 x 128,256 x 4 bytes (3.91 GiB), as large
    # as the fp32 cast (3.74 GiB): the step reuses that block, nothing is added
    assert FP32 < 8192 * 128256 * 4
    est = estimate(_inp(loss="standard", liger_kernels=False))
    assert "step_segments" not in est.phases["optimizer"]


def test_offload_and_lora_add_nothing():
    # (est84: ZeRO-3's step makes the same single tensors and is covered too,
    # tests/test_est84_norm_copy.py)
    for kw in (dict(offload_optimizer="cpu"), dict(lora_r=8, lora_targets=["q_proj", "v_proj"])):
        est = estimate(_inp(**kw))
        assert "step_segments" not in est.phases.get("optimizer", {}), kw


def test_short_sequences_still_smaller_blocks():
    # at 512 tokens every activation block is smaller still: the same two tensors are new segments
    est = estimate(_inp(seq_len=512))
    assert est.phases["optimizer"].get("step_segments", 0) > FLAT
