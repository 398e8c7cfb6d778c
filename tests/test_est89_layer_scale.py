"""est89: trained layer-scale vectors keep each branch's output for their gradient
(preflight/estimate/layer_scale.py).

SimMIM's BEiT-style ViT (microsoft/SimMIM d3e29bc ``models/vision_transformer.py`` ``Block.forward``:
``x + drop_path(gamma_1 * attn(...))``, ``gamma_2 * mlp(...)``) multiplies both branches of every block by a
trained vector; the mul keeps the branch output for the vector's gradient. Under apex AMP O1 ``__mul__`` is
on apex's promote list (``apex/amp/lists/tensor_overrides.py`` ``CASTS``): the fp16 branch is cast to a new
fp32 tensor first, and that copy is kept (4 bytes); under torch autocast the fp16 branch itself (2 bytes).
The tests recompute the term from the shapes and keep the twins where it must not apply."""

from __future__ import annotations

import sys
from pathlib import Path

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.layer_scale import has_layer_scale, saved_per_token

ROOT = Path(__file__).resolve().parents[1]


def _arch(name):
    sys.path.insert(0, str(ROOT / "bench"))
    import public_accuracy as pa

    return pa.architecture({"model": name})


def _vit(**kw):
    base = dict(arch=_arch("ViT-base-patch16-224"), mode="train", precision="amp-fp16", optimizer="adamw",
                micro_batch=128, image_size=224, grad_ckpt=False, attention="eager", torch_version="1.11.0",
                packed_qkv=True)
    base.update(kw)
    return estimate(EstimateInput(**base))


def _delta(**kw):
    on, off = _vit(layer_scale=True, **kw), _vit(layer_scale=False, **kw)
    return on.phases["backward"]["activations"] - off.phases["backward"]["activations"]


def test_apex_o1_keeps_fp32_copies_of_both_branches():
    # 12 blocks x 2 branches x 768 x 4 bytes x 128 images x 197 tokens = 1,859,321,856 B
    assert abs(_delta(amp_impl="apex", gelu_at_call=True) - 12 * 2 * 768 * 4 * 128 * 197) <= 2


def test_torch_autocast_keeps_the_fp16_branch():
    assert abs(_delta() - 12 * 2 * 768 * 2 * 128 * 197) <= 2


def test_frozen_vectors_and_models_without_layer_scale_keep_nothing():
    arch = _arch("ViT-base-patch16-224")
    inp = EstimateInput(arch=arch, mode="train", precision="amp-fp16", layer_scale=True)
    assert saved_per_token(inp, arch, 2, trains=False) == 0.0
    # the catalog's ViT has none unless the job says so (None: the architecture's fact)
    assert not has_layer_scale(EstimateInput(arch=arch, mode="train"), arch)
    assert saved_per_token(EstimateInput(arch=arch, mode="train"), arch, 2, trains=True) == 0.0
    # LoRA: the vectors are frozen, the twin keeps nothing
    lora = dict(lora_r=8, lora_targets=("qkv",))
    on, off = _vit(layer_scale=True, **lora), _vit(layer_scale=False, **lora)
    assert on.phases["backward"]["activations"] == off.phases["backward"]["activations"]
