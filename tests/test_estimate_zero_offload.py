"""ZeRO-1/2 GPU buffers that exist at any world size, optimizer offload included, each
recomputed by hand from DeepSpeed's source (``runtime/zero/stage_1_and_2.py`` at edaa722):
the contiguous reduce buckets of ``setup_buckets`` (one, two with ``overlap_comm``) during
backward, and the ``temp_grad_buffer_for_gpu_offload`` staging buffer under
``offload_optimizer``. The job is torchao's DINOv2-giant ZeRO-Offload benchmark
(``benchmarks/benchmark_low_bit_adam.py``: ZeRO-2, ``overlap_comm``, CPU offload, one GPU)."""

from __future__ import annotations

import json
import textwrap

from preflight.audit import build_plan
from preflight.estimate import EstimateInput, estimate, input_from_plan
from preflight.estimate.arch import from_hf_config

DINOV2_G = {"model_type": "dinov2", "hidden_size": 1536, "num_hidden_layers": 40,
            "num_attention_heads": 24, "mlp_ratio": 4, "use_swiglu_ffn": True, "image_size": 518,
            "patch_size": 14, "layerscale_value": 1.0, "qkv_bias": True,
            "architectures": ["Dinov2ForImageClassification"], "num_labels": 45}
BUCKET = 500_000_000          # DeepSpeed's default reduce_bucket_size, elements


def _dino(**changes):
    arch = from_hf_config(DINOV2_G, name="dinov2-giant")
    base = dict(arch=arch, precision="bf16", optimizer="adamw", micro_batch=32, image_size=224,
                grad_ckpt=True, attention="sdpa", zero_stage=2, offload_optimizer="cpu",
                overlap_comm=True, world_size=1)
    base.update(changes)
    return arch, estimate(EstimateInput(**base))


def _largest(arch):
    # the largest trainable tensor: the MLP's input projection, hidden x (SwiGLU) width
    assert arch.hidden_size == 1536 and arch.intermediate_size == 4096
    return 1536 * 4096


def test_zero2_offload_on_one_gpu_holds_two_full_reduce_buckets_during_backward():
    arch, est = _dino()
    staging = _largest(arch) * 2                       # bf16, the whole run
    # two bf16 buckets of 5e8 elements (overlap_comm), allocated at the first gradient hook
    assert est.phases["backward"]["zero_buckets"] == 2 * BUCKET * 2 + staging
    assert est.phases["forward"]["zero_buckets"] == staging
    assert est.phases["optimizer"]["zero_buckets"] == staging
    # 1.86 GiB more than the tensors of forward: the job's peak is in backward
    assert est.phase == "backward"
    # no gradient partition on the GPU: it is pinned host memory under offload
    assert "gradients" not in est.phases["optimizer"]


def test_zero2_without_overlap_comm_holds_one_bucket():
    arch, est = _dino(overlap_comm=None)               # DeepSpeed's default below stage 3: off
    assert est.phases["backward"]["zero_buckets"] == BUCKET * 2 + _largest(arch) * 2
    _, off = _dino(overlap_comm=False)
    assert off.phases["backward"]["zero_buckets"] == BUCKET * 2 + _largest(arch) * 2


def test_zero2_without_contiguous_gradients_has_no_bucket():
    arch, est = _dino(contiguous_gradients=False)
    assert est.phases["backward"]["zero_buckets"] == _largest(arch) * 2


def test_zero2_without_offload_has_the_buckets_and_no_staging_buffer():
    _, est = _dino(offload_optimizer=None)
    assert est.phases["backward"]["zero_buckets"] == 2 * BUCKET * 2
    assert "zero_buckets" not in est.phases["forward"]


def test_reduce_bucket_is_full_size_even_for_a_small_lora():
    # torch.empty(reduce_bucket_size): not capped at the trainable count; in the dtype of the
    # optimizer's parameters, which DeepSpeed's bf16 engine cast to bf16 (PEFT's fp32 adapters
    # included: terms_sharded.deepspeed_casts_params)
    llama = {"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008,
             "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 32,
             "vocab_size": 32000, "tie_word_embeddings": False}
    est = estimate(EstimateInput(arch=from_hf_config(llama, name="llama2-7b"), precision="bf16",
                                 seq_len=512, lora_r=8, zero_stage=2, world_size=2,
                                 reduce_bucket_size=200_000_000))
    assert est.phases["backward"]["zero_buckets"] == 200_000_000 * 2


def test_overlap_comm_and_contiguous_gradients_reach_the_estimator(tmp_path):
    (tmp_path / "train.py").write_text(textwrap.dedent("""\
        import deepspeed
        model, optim, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                                  config="ds.json")
    """), encoding="utf-8")
    (tmp_path / "ds.json").write_text(json.dumps({
        "train_batch_size": 32, "bf16": {"enabled": True},
        "zero_optimization": {"stage": 2, "overlap_comm": True, "contiguous_gradients": False,
                              "offload_optimizer": {"device": "cpu", "pin_memory": True}}}),
        encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [tmp_path / "ds.json"], root=tmp_path)
    assert plan.value("dist.overlap_comm") is True
    assert plan.value("dist.contiguous_gradients") is False
    inp = input_from_plan(plan, {"seq_len": 8})
    assert inp.overlap_comm is True and inp.contiguous_gradients is False


def test_unset_overlap_comm_is_not_a_plan_fact(tmp_path):
    (tmp_path / "train.py").write_text("import deepspeed\ndeepspeed.initialize(model=m, config='ds.json')\n",
                                       encoding="utf-8")
    (tmp_path / "ds.json").write_text(json.dumps({"train_batch_size": 8,
                                                  "zero_optimization": {"stage": 2}}), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [tmp_path / "ds.json"], root=tmp_path)
    assert plan.value("dist.overlap_comm") is None
    assert input_from_plan(plan, {"seq_len": 8}).overlap_comm is None
