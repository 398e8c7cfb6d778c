"""est37: torch.nn.MultiheadAttention projects self-attention's q, k and v with one packed
linear (``F.multi_head_attention_forward`` -> ``_in_projection_packed``: ``if k is v: if q is k:
proj = linear(q, w, b)``), so under autocast the fp32 LayerNorm output is cast to the compute
dtype once and saved once, not once per projection (open_clip's ``ResidualAttentionBlock``,
torchvision's ``EncoderBlock``: ``self_attention(x, x, x, need_weights=False)``)."""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate import activations as A
from preflight.estimate.arch import from_hf_config

VIT_B16 = {"model_type": "vit", "hidden_size": 768, "intermediate_size": 3072, "num_hidden_layers": 12,
           "num_attention_heads": 12, "image_size": 224, "patch_size": 16, "num_channels": 3,
           "architectures": ["ViTForImageClassification"], "num_labels": 1000}


def _layer(packed, d):
    arch = from_hf_config(VIT_B16, name="vit-b16")
    common = dict(attention="sdpa", train_weights=True, lora_targets=frozenset(), lora_r=0,
                  lora_dropout=0.0, dropout=0.0)
    return arch, A.transformer_layer(arch, d, tokens=197 * 8, seq=197, batch=8, packed_in_proj=packed, **common)


def test_one_cast_copy_of_the_packed_projection_input_under_autocast():
    amp = A.Dtypes(res=4, comp=2, weights=4.0, autocast=True, mask=1)
    _, separate = _layer(False, amp)
    _, packed = _layer(True, amp)
    # three fp16 copies of the 768-wide fp32 input became one: 2 x 768 x 2 bytes per token
    assert separate.saved - packed.saved == 2 * 768 * 2 * 197 * 8


def test_no_change_without_autocast():
    # without autocast the linears read the same tensor: it is saved once either way
    bf16 = A.Dtypes(res=2, comp=2, weights=2.0, autocast=False, mask=1)
    _, separate = _layer(False, bf16)
    _, packed = _layer(True, bf16)
    assert separate.saved == packed.saved


def test_torch_mha_jobs_take_it():
    arch = from_hf_config(VIT_B16, name="vit-b16")
    base = dict(arch=arch, mode="train", precision="amp-fp16", optimizer="adamw", micro_batch=64,
                image_size=224, attention="sdpa", torch_version="2.1.0")
    mha = estimate(EstimateInput(**base, torch_mha=True)).phases["forward"]["activations"]
    hf = estimate(EstimateInput(**base)).phases["forward"]["activations"]
    # (fp16 with the flash kernel: torch MHA copies no SDPA output, terms.mha_output_copied)
    # two 768-wide fp16 copies less per token and layer
    assert hf - mha == 12 * 64 * 197 * 768 * 2 * 2
