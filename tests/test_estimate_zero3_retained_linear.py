"""ZeRO-3 on a model built outside ``zero.Init``: every Linear weight gathered in forward is
kept until its backward before DeepSpeed 0.19.4 (issue 17, docs/calibration.md "est20"; traced
on held-out-9's and held-out-10's ZeRO-3 rows without checkpointing, in-sample).

``F.linear`` saves ``weight.t()`` (a view holding the gathered storage) for backward, so
ZeRO-3's ``free_param`` (``param.data = torch.empty(0)``) frees nothing until the block's
backward. ``zero.Init`` installs ``zero3_linear_wrap`` (which saves the parameter itself);
``deepspeed.initialize(model=...)`` on a built model did not until 617061d6b (#8189, v0.19.4).
"""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config

LLAMA = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 1024,
         "intermediate_size": 2816, "num_hidden_layers": 8, "num_attention_heads": 16,
         "num_key_value_heads": 16, "vocab_size": 32000, "tie_word_embeddings": False}
ARCH = from_hf_config(LLAMA, name="llama-small")
# by hand from the config: a block's Linear weights (no biases in Llama)
BLOCK_LINEAR = 4 * 1024 * 1024 + 3 * 1024 * 2816          # 12,845,056
BLOCK = BLOCK_LINEAR + 2 * 1024 + 1024 // 8                # + its two RMSNorms + 1/8 final norm
HEAD = 32000 * 1024                                        # the untied LM head


def gathered(**changes):
    base = dict(arch=ARCH, mode="train", precision="amp-fp16", optimizer="adamw", micro_batch=1,
                seq_len=128, grad_ckpt=False, zero_stage=3, world_size=4, load_placement="gpu",
                deepspeed_version="0.14.2")
    base.update(changes)
    e = estimate(EstimateInput(**base))
    assert e.phases["forward"]["gathered_params"] == e.phases["backward"]["gathered_params"]
    return e.phases["forward"]["gathered_params"]


def retained(**changes):
    """Bytes the old release holds beyond the fixed one, same job otherwise."""
    return gathered(**changes) - gathered(**{**changes, "deepspeed_version": "0.19.4"})


def test_nothing_kept_for_reuse_every_linear_weight_and_the_head():
    # stage3_max_reuse_distance 0: every block and the head are released in forward; each keeps
    # its Linear weights (fp16, 2 bytes) until its backward
    assert retained(max_reuse_distance=0) == (8 * BLOCK_LINEAR + HEAD) * 2


def test_blocks_kept_for_reuse_are_not_counted_twice():
    # a reuse distance that keeps the head and the last two blocks gathered (2 x (head + 2
    # blocks) + 2 elements): the other six blocks' Linear weights are retained
    reuse = 2 * (HEAD + 2 * BLOCK) + 2
    assert retained(max_reuse_distance=reuse) == 6 * BLOCK_LINEAR * 2
    # the default (1e9) keeps this small model whole: nothing is released, nothing retained
    assert retained() == 0


def test_bf16_one_gpu_with_parameter_offload():
    # one GPU with offload_param: parameters are copied into GPU buffers, the same retention
    assert retained(max_reuse_distance=0, world_size=1, offload_params="cpu",
                    precision="amp-bf16") == (8 * BLOCK_LINEAR + HEAD) * 2


def test_checkpointed_blocks_save_nothing_the_head_still_does():
    assert retained(max_reuse_distance=0, grad_ckpt=True) == HEAD * 2


def test_twins_without_retention():
    kw = dict(max_reuse_distance=0)
    # built under zero.Init: the wrapper saves the parameter itself
    assert gathered(load_placement="sharded", **kw) == gathered(deepspeed_version="0.19.4", **kw)
    # an unknown release counts as the latest
    assert gathered(deepspeed_version=None, **kw) == gathered(deepspeed_version="0.19.5", **kw)
    # one GPU without offload: the gathered weight is a view of the rank's own partition
    one = dict(world_size=1, **kw)
    assert "gathered_params" not in estimate(EstimateInput(
        arch=ARCH, mode="train", precision="amp-fp16", optimizer="adamw", micro_batch=1,
        seq_len=128, zero_stage=3, load_placement="gpu", deepspeed_version="0.14.2",
        **one)).phases["forward"]
    # ZeRO-2 gathers nothing: the whole estimate is the same for both releases
    two = dict(arch=ARCH, mode="train", precision="amp-fp16", optimizer="adamw", micro_batch=1,
               seq_len=128, zero_stage=2, world_size=4, load_placement="gpu", **kw)
    assert (estimate(EstimateInput(**two, deepspeed_version="0.14.2")).phases
            == estimate(EstimateInput(**two, deepspeed_version="0.19.4")).phases)


def test_gpt2_conv1d_blocks_save_the_parameter():
    gpt2 = from_hf_config({"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_embd": 256,
                           "n_layer": 4, "n_head": 4, "n_positions": 128, "vocab_size": 1000},
                          name="gpt2-small")
    kw = dict(arch=gpt2, max_reuse_distance=0)
    conv1d = retained(**kw)
    # transformers' GPT-2: only the (tied) head goes through F.linear
    assert conv1d == retained(grad_ckpt=True, **kw) > 0
    # the same shapes built from torch's nn.MultiheadAttention and nn.Linear: the blocks'
    # weights too: per block 3 x 256^2 + 256^2 + 2 x 256 x 1024 weights plus 768 + 256 + 1024 +
    # 256 biases
    per_block = 3 * 256 * 256 + 256 * 256 + 2 * 256 * 1024 + 768 + 256 + 1024 + 256
    assert retained(torch_mha=True, **kw) - conv1d == 4 * per_block * 2


def test_unknown_release_puts_the_retention_in_the_interval_top():
    base = dict(arch=ARCH, mode="train", precision="amp-fp16", optimizer="adamw", micro_batch=1,
                seq_len=128, zero_stage=3, world_size=4, load_placement="gpu", max_reuse_distance=0)
    unknown = estimate(EstimateInput(**base))
    old = estimate(EstimateInput(**base, deepspeed_version="0.14.2"))
    new = estimate(EstimateInput(**base, deepspeed_version="0.19.4"))
    assert unknown.peak_bytes == new.peak_bytes < old.peak_bytes
    assert unknown.interval_bytes[1] >= old.peak_bytes
    assert new.interval_bytes[1] < unknown.interval_bytes[1]


def test_remediations_offered_only_when_the_weights_are_kept():
    from preflight import hardware
    from preflight.estimate import remediate

    gpu = hardware.find("A100-80GB")
    base = dict(arch=ARCH, mode="train", precision="amp-bf16", optimizer="adamw", micro_batch=1,
                seq_len=128, zero_stage=3, world_size=4, load_placement="gpu", max_reuse_distance=0)
    old = EstimateInput(**base, deepspeed_version="0.14.2")
    rs = remediate(old, gpu)
    upgrade = [r for r in rs if r.flags == ["--deepspeed-version 0.19.4"]]
    zero_init = [r for r in rs if r.flags == ["--load-placement sharded"]]
    assert upgrade and zero_init
    # the upgrade saves exactly the retained Linear weights (the forward/backward peak)
    kept = estimate(old).peak_bytes - estimate(EstimateInput(**base, deepspeed_version="0.19.4")).peak_bytes
    assert upgrade[0].saved_bytes == kept > 0
    # never offered to a job that is already built under zero.Init, on 0.19.4, or unknown
    for change in (dict(load_placement="sharded", deepspeed_version="0.14.2"),
                   dict(deepspeed_version="0.19.4"), dict(deepspeed_version=None)):
        job = EstimateInput(**{**base, **change})
        flags = [" ".join(r.flags) for r in remediate(job, gpu)]
        assert "--deepspeed-version 0.19.4" not in flags
        assert "--load-placement sharded" not in flags
