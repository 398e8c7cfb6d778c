"""torchao ``CPUOffloadOptimizer(offload_gradients=True)`` (issue 17, docs/calibration.md "est15";
held-out-2's ``dinov2-g-bf16-ao-offload-grads`` row, in-sample for this fix).

``torchao/optim/cpu_offload.py``: every parameter of 4,096 elements or more gets a
post-accumulate-grad hook that copies the gradient to a pinned host buffer on a side stream,
then ``record_stream`` and ``p_device.grad = None``. With ``offload_gradients`` the GPU holds
one parameter's gradient at a time instead of all of them; without it every gradient stays on
the GPU until the step (the optimizer's states and step are on the CPU either way).
"""

from __future__ import annotations

import textwrap

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.inputs import input_from_plan

DINO_G = {"model_type": "dinov2", "hidden_size": 1536, "num_hidden_layers": 40, "num_attention_heads": 24,
          "mlp_ratio": 4, "use_swiglu_ffn": True, "image_size": 518, "patch_size": 14,
          "layerscale_value": 1.0, "qkv_bias": True,
          "architectures": ["Dinov2ForImageClassification"], "num_labels": 45}


def dino(**changes):
    base = dict(arch=from_hf_config(DINO_G, name="dinov2-g"), mode="train", precision="bf16",
                optimizer="adamw-fused", micro_batch=32, image_size=224, grad_ckpt=True,
                attention="sdpa", torch_version="2.4", offload_optimizer="cpu")
    base.update(changes)
    return EstimateInput(**base)


def test_one_gradient_at_a_time_recomputed_by_hand():
    kept = estimate(dino())
    freed = estimate(dino(offload_gradients=True))
    # without it every bf16 gradient is on the GPU at the step: 2 bytes per parameter
    all_grads = kept.phases["optimizer"]["gradients"]
    assert all_grads == 2 * kept.params_total
    # with it, one tensor's: the largest matrix, a SwiGLU in-projection half (1536 x 4096;
    # the parameter counter splits HF's weights_in into w1 and w2), 2 bytes each
    one = 2 * 1536 * 4096
    assert freed.phases["optimizer"]["gradients"] == one
    # backward ends without the whole set: its peak is the recomputed layer's
    assert freed.phases["backward"].get("gradients", 0) <= one
    assert kept.phases["backward"]["gradients"] == all_grads
    # the peak moves from backward's end (weights, every gradient, a layer's transient) to its
    # start: weights, the checkpointed inputs, one recomputed layer and its transient
    b = freed.phases["backward"]
    assert "gradients" not in b
    assert freed.tensor_peak()[0] == (b["weights"] + b["activations"] + b["activation_recompute"]
                                      + b["backward_transient"])
    k = kept.phases["backward"]
    assert kept.tensor_peak()[0] == k["weights"] + all_grads + k["backward_transient"]
    # held-out-2's row measured 3.73 GiB (4.01 GB) against 4.88 GiB without offload_gradients
    assert abs(freed.allocated_peak()[0] / 2 ** 30 - 3.73) / 3.73 < 0.05


def test_unchanged_twins():
    # without optimizer offload the flag means nothing (the hook belongs to the offload optimizer)
    plain = estimate(dino(offload_optimizer=None))
    assert estimate(dino(offload_optimizer=None, offload_gradients=True)).peak_bytes == plain.peak_bytes
    # default False: as before
    assert estimate(dino(offload_gradients=False)).peak_bytes == estimate(dino()).peak_bytes
    # under ZeRO/FSDP sharding the offload is DeepSpeed's or FSDP's, not torchao's hook
    z2 = dict(zero_stage=2, world_size=2, optimizer="adamw")
    assert estimate(dino(offload_gradients=True, **z2)).peak_bytes == estimate(dino(**z2)).peak_bytes


def plan_of(tmp_path, code):
    from preflight.audit import build_plan

    (tmp_path / "train.py").write_text(textwrap.dedent(code), encoding="utf-8")
    plan, project = build_plan([tmp_path / "train.py"], [], root=tmp_path, argv=(), strict=True)
    assert project.errors == []
    return plan


TORCHAO = """\
    import timm
    import torch
    from torchao.prototype.low_bit_optim import CPUOffloadOptimizer

    model = timm.create_model("vit_giant_patch14_dinov2.lvd142m", pretrained=True).cuda()
    optim = CPUOffloadOptimizer(model.parameters(), torch.optim.AdamW, offload_gradients=True, fused=True)
    for x, y in loader:
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optim.step()
        optim.zero_grad()
"""


def test_must_fire_the_plan_reads_torchao_offload(tmp_path):
    # the torchao README's benchmark script shape (benchmarks/benchmark_low_bit_adam.py)
    plan = plan_of(tmp_path, TORCHAO)
    fact = plan.resolve("optimizer.offload_gradients")
    assert fact.value is True and fact.source.line == 6
    assert plan.value("dist.offload_optimizer") == "cpu"
    assert plan.value("optimizer.name") == "AdamW"
    inp = input_from_plan(plan)
    assert inp.offload_gradients is True and inp.offload_optimizer == "cpu"


def test_silent_default_keeps_gradients(tmp_path):
    plan = plan_of(tmp_path, TORCHAO.replace(", offload_gradients=True", ""))
    fact = plan.resolve("optimizer.offload_gradients")
    assert fact.value is False and fact.source.kind == "default"
    assert input_from_plan(plan).offload_gradients is False


def test_silent_for_another_optimizer(tmp_path):
    code = TORCHAO.replace("CPUOffloadOptimizer(model.parameters(), torch.optim.AdamW, offload_gradients=True, "
                           "fused=True)", "torch.optim.AdamW(model.parameters(), fused=True)")
    plan = plan_of(tmp_path, code)
    assert plan.resolve("optimizer.offload_gradients") is None
    assert plan.value("dist.offload_optimizer") is None
