"""``torch.nn.MultiheadAttention``'s SDPA output copy (issue 17, docs/calibration.md "est17";
held-out-8's torchvision ViT-L/16 fp32 rows, in-sample for this fix).

From torch 2.0, ``F.multi_head_attention_forward`` (``need_weights=False``, as torchvision's
``EncoderBlock`` calls it) runs SDPA on views of the packed in-projection laid out
(seq, batch, heads, dim), then ``attn_output.permute(2, 0, 1, 3)`` and a reshape to
(seq x batch, E) before ``out_proj``. The memory-efficient kernel (fp32) returns its output in
(batch, seq, heads, dim) memory, so at batch > 1 the reshape copies it and ``out_proj`` saves
the copy beside the output SDPA saves: ``q_dim`` x 4 bytes more per token and layer. The flash
kernel (16-bit on Ampere) returns the query's own layout: a view, no copy.
"""

from __future__ import annotations

import textwrap

import pytest

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.terms import mha_output_copied

VIT_L16 = {"model_type": "vit", "architectures": ["ViTForImageClassification"], "hidden_size": 1024,
           "num_hidden_layers": 24, "num_attention_heads": 16, "intermediate_size": 4096,
           "image_size": 224, "patch_size": 16, "num_channels": 3, "qkv_bias": True, "hidden_act": "gelu",
           "hidden_dropout_prob": 0.0, "attention_probs_dropout_prob": 0.0, "layer_norm_eps": 1e-6,
           "num_labels": 10}
ARCH = from_hf_config(VIT_L16, name="vit_l_16 (torchvision)")


def vit(**changes):
    base = dict(arch=ARCH, mode="train", precision="fp32", optimizer="adamw", micro_batch=64,
                image_size=224, grad_ckpt=False, attention="sdpa", torch_version="2.1", dropout=0.0,
                gpu_bf16=True, torch_mha=True)
    base.update(changes)
    return EstimateInput(**base)


def acts(inp):
    return estimate(inp).phases["forward"]["activations"]


def test_fp32_copy_recomputed_by_hand():
    # 224 / 16 = 14 x 14 patches + the class token: 197 tokens per image
    tokens = 64 * 197
    extra = acts(vit()) - acts(vit(torch_mha=False))
    # out_proj's saved input: one fp32 (q_dim = 1024)-wide tensor per token in each of 24 layers
    assert extra == 24 * tokens * 1024 * 4
    assert mha_output_copied(vit(), ARCH)
    # the report says why
    assert any("MultiheadAttention" in n for n in estimate(vit()).notes)
    assert not any("MultiheadAttention" in n for n in estimate(vit(torch_mha=False)).notes)


def test_fp16_without_flash_copies():
    # fp16 on a GPU without flash (V100: gpu_bf16 False) takes the memory-efficient kernel
    inp = vit(precision="amp-fp16", gpu_bf16=False)
    assert mha_output_copied(inp, ARCH)
    # under autocast out_proj saves a 2-byte copy; and the packed in-projection saves one cast
    # copy of its input where three q/k/v linears save three (est37, test_est37_packed_in_proj.py)
    assert (acts(inp) - acts(vit(precision="amp-fp16", gpu_bf16=False, torch_mha=False))
            == 24 * 64 * 197 * 1024 * 2 * (1 - 2))


@pytest.mark.parametrize("changes", [
    dict(torch_mha=False),                      # HF ViT: the output's permute is contiguous
    dict(precision="bf16"),                     # flash: the output keeps the query's layout
    dict(micro_batch=1),                        # batch 1: the permutation is contiguous
    dict(torch_version="1.13"),                 # MHA's own math attention before torch 2.0
    dict(attention="eager"),                    # the math path's o_proj input is charged already
    dict(device="cpu"),
])
def test_unchanged_twins(changes):
    assert not mha_output_copied(vit(**changes), ARCH)
    assert acts(vit(**changes)) == acts(vit(**dict(changes, torch_mha=False)))


def test_flash_under_autocast_copies_no_output():
    # flash under autocast (Ampere): no output copy; what torch MHA changes is only the packed
    # in-projection's single cast copy (two 1024-wide fp16 tensors less per token and layer)
    inp = vit(precision="amp-fp16")
    assert not mha_output_copied(inp, ARCH)
    assert acts(vit(precision="amp-fp16", torch_mha=False)) - acts(inp) == 24 * 64 * 197 * 1024 * 2 * 2


def test_tricky_bf16_before_ampere_is_math_not_a_second_copy():
    # bf16 on a V100: SDPA falls back to math (attention_kernel "eager"), whose o_proj input
    # the math branch already charges; the MHA flag adds nothing on top
    inp = vit(precision="bf16", gpu_bf16=False)
    assert not mha_output_copied(inp, ARCH)
    assert acts(inp) == acts(vit(precision="bf16", gpu_bf16=False, torch_mha=False))


def test_heldout8_fp32_rows_move_inside():
    # rasbt/pytorch-memory-optim 01_pytorch-vit.py: 26.79 GB reserved (24.95 GiB), -8.7% before
    est = estimate(vit())
    reserved = est.peak_bytes - est.phases[est.phase].get("cuda_context", 0)
    measured = 26.79e9
    assert abs(reserved - measured) / measured < 0.05
    lo, hi = est.interval_bytes
    assert lo <= measured + est.phases[est.phase].get("cuda_context", 0) <= hi


def plan_of(tmp_path, code):
    from preflight.audit import build_plan

    (tmp_path / "train.py").write_text(textwrap.dedent(code), encoding="utf-8")
    plan, project = build_plan([tmp_path / "train.py"], [], root=tmp_path, argv=(), strict=True)
    assert project.errors == []
    return plan


TORCHVISION = """\
    import torch
    from torchvision.models import vit_l_16

    model = vit_l_16(weights="IMAGENET1K_V1").cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-5)
    for x, y in loader:
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
        optimizer.zero_grad()
"""


def test_must_fire_the_plan_reads_torchvision_vit(tmp_path):
    plan = plan_of(tmp_path, TORCHVISION)
    fact = plan.resolve("model.torch_mha")
    assert fact is not None and fact.value is True and fact.source.line == 4
    from preflight.estimate.inputs import input_from_plan

    assert input_from_plan(plan).torch_mha is True


def test_must_fire_get_model(tmp_path):
    code = TORCHVISION.replace("from torchvision.models import vit_l_16", "import torchvision").replace(
        'vit_l_16(weights="IMAGENET1K_V1")', 'torchvision.models.get_model("vit_b_16")')
    fact = plan_of(tmp_path, code).resolve("model.torch_mha")
    assert fact is not None and fact.value is True and fact.source.line == 4


@pytest.mark.parametrize("swap", [
    ('from torchvision.models import vit_l_16', 'from torchvision.models import resnet50'),
    ('from torchvision.models import vit_l_16', 'from torchvision.models import swin_b'),
])
def test_silent_for_other_torchvision_models(tmp_path, swap):
    name = swap[1].rsplit(" ", 1)[-1]
    code = TORCHVISION.replace(*swap).replace("vit_l_16(", f"{name}(")
    plan = plan_of(tmp_path, code)
    assert plan.value("model.ref") == name
    assert plan.resolve("model.torch_mha") is None


def test_silent_for_hf_and_timm_vit(tmp_path):
    hf = TORCHVISION.replace("from torchvision.models import vit_l_16",
                             "from transformers import ViTForImageClassification").replace(
        'vit_l_16(weights="IMAGENET1K_V1")', 'ViTForImageClassification.from_pretrained("google/vit-large-patch16-224")')
    assert plan_of(tmp_path, hf).resolve("model.torch_mha") is None
    timm = TORCHVISION.replace("from torchvision.models import vit_l_16", "import timm").replace(
        'vit_l_16(weights="IMAGENET1K_V1")', 'timm.create_model("vit_large_patch16_224")')
    assert plan_of(tmp_path, timm).resolve("model.torch_mha") is None
