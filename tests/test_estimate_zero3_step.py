"""ZeRO-3's optimizer step: the fp32 gradient of one sub-group and the flat 16-bit copy it is
cast from (issue 17, docs/calibration.md "est18"; traced on held-out-10's gpjt rows, in-sample).

``DeepSpeedZeroOptimizer_Stage3._prepare_fp32_grad_for_sub_group`` (deepspeed v0.14.2) runs
``self.flatten(self.averaged_gradients[i]).to(fp32)`` for each sub-group (``sub_group_size``,
default 1e9 elements) at any world size: a flat copy in the gradients' dtype, then the fp32
gradient the optimizer reads; ``_release_sub_group`` drops the fp32 gradient after the step.
"""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config

LLAMA = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 1024,
         "intermediate_size": 2816, "num_hidden_layers": 8, "num_attention_heads": 16,
         "num_key_value_heads": 16, "vocab_size": 32000, "tie_word_embeddings": False}
ARCH = from_hf_config(LLAMA, name="llama-small")
IPG = 5e8 * 2   # the contiguous gradient bucket (reduce_bucket_size 5e8, 16-bit)


def run(**changes):
    base = dict(arch=ARCH, mode="train", precision="amp-fp16", optimizer="adamw", micro_batch=1,
                seq_len=128, grad_ckpt=False, zero_stage=3, world_size=1)
    base.update(changes)
    return estimate(EstimateInput(**base))


def buckets(e):
    return e.phases["optimizer"]["zero_buckets"]


def test_one_gpu_fp16_recomputed_by_hand():
    e = run()
    p = e.params_trainable
    # the fp32 gradient (4 bytes) and the flat fp16 copy (2 bytes) of the whole partition:
    # one sub-group (p < 1e9), one rank
    assert buckets(e) == IPG + p * 4 + p * 2


def test_eight_gpus_partition():
    e = run(world_size=8)
    p = e.params_trainable
    assert buckets(e) == IPG + p / 8 * 4 + p / 8 * 2


def test_bf16_the_same_code():
    e = run(precision="amp-bf16", world_size=4)
    assert buckets(e) == IPG + e.params_trainable / 4 * 6


def test_fp32_flat_copy_is_the_fp32_gradient():
    # fp32 gradients: ``.to(fp32)`` returns the flat copy itself; no 16-bit copy (4-byte bucket)
    e = run(precision="fp32", world_size=2)
    assert buckets(e) == 5e8 * 4 + e.params_trainable / 2 * 4


def test_a_partition_over_a_sub_group():
    # a 7B-shaped model over 2 ranks: 3.4e9 elements a rank, stepped 1e9 (plus the parameter
    # that closes the sub-group) at a time
    big = from_hf_config({**LLAMA, "hidden_size": 4096, "intermediate_size": 11008,
                          "num_hidden_layers": 32, "num_attention_heads": 32,
                          "num_key_value_heads": 32}, name="llama-7b-shaped")
    e = run(arch=big, world_size=2)
    assert e.params_trainable / 2 > 3e9
    largest = 32000 * 4096   # the embedding (and the untied head)
    assert buckets(e) == IPG + (1e9 + largest / 2) * 6


def test_twins_without_the_step_on_the_gpu():
    # optimizer offload: the fp32 gradients live in host memory
    e = run(world_size=8, offload_optimizer="cpu")
    assert buckets(e) == IPG
    # ZeRO-2 has no ZeRO-3 bucket: its own step (the all-gather bucket when sharded, the
    # partition's fp32 gradient and flat fp16 copy at any world size, est19:
    # tests/test_estimate_zero12_step.py)
    two = run(zero_stage=2, world_size=8)
    p = two.params_trainable
    assert two.phases["optimizer"]["zero_buckets"] == min(5e8, p) * 2 + p / 8 * 4 + p / 8 * 2
    assert run(zero_stage=2).phases["optimizer"]["zero_buckets"] == p * 4 + p * 2
