"""Swin's activations per stage (issue 17, docs/calibration.md "est18"; held-out-10's Swin-T
row, in-sample for this fix).

``arch_more.read_swin`` records Swin's stages (tokens, width, heads, depth) and its windows; the
activation term used to treat every vision model as a ViT (image/patch squared + 1 tokens at the
first stage's width for every block, with global attention). Now each stage is charged at its own
tokens (H/4 x W/4, a quarter at each merge), width (C, 2C, 4C, ...) and heads, with attention
scores inside windows (windows x heads x window**2 x window**2), plus the patch embedding and the
patch merging between stages. A ViT twin stays as it was.
"""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate import activations as A
from preflight.estimate import activations_vision as AV
from preflight.estimate.arch import from_hf_config

# 16 x 16 images, patch 4: a 4 x 4 map of width 8 (1 head) in stage 1, 2 x 2 of width 16
# (2 heads) in stage 2; windows of 2 x 2 tokens: 4 windows in stage 1, 1 in stage 2
TINY_SWIN = {"model_type": "swin", "architectures": ["SwinModel"], "embed_dim": 8,
             "depths": [2, 2], "num_heads": [1, 2], "window_size": 2, "image_size": 16,
             "patch_size": 4, "num_channels": 3, "mlp_ratio": 4.0, "qkv_bias": True,
             "hidden_act": "gelu", "hidden_dropout_prob": 0.0, "attention_probs_dropout_prob": 0.0}
TINY_VIT = {"model_type": "vit", "architectures": ["ViTModel"], "hidden_size": 8,
            "num_hidden_layers": 2, "num_attention_heads": 1, "intermediate_size": 32,
            "image_size": 16, "patch_size": 4, "num_channels": 3, "qkv_bias": True,
            "hidden_act": "gelu", "hidden_dropout_prob": 0.0, "attention_probs_dropout_prob": 0.0}
SWIN_T = {"model_type": "swin", "architectures": ["SwinForImageClassification"], "embed_dim": 96,
          "depths": [2, 2, 6, 2], "num_heads": [3, 6, 12, 24], "window_size": 7, "image_size": 224,
          "patch_size": 4, "num_channels": 3, "mlp_ratio": 4.0, "qkv_bias": True,
          "hidden_act": "gelu", "num_labels": 1000}


def inp(config, **changes):
    base = dict(arch=from_hf_config(config, name="tiny"), mode="train", precision="fp32",
                optimizer="adamw", micro_batch=2, image_size=16, grad_ckpt=False,
                attention="eager", dropout=0.0)
    base.update(changes)
    return EstimateInput(**base)


def acts(i):
    return estimate(i).phases["forward"]["activations"]


def per_token(h, heads, keys):
    """fp32 full training, eager attention, one block per token: LayerNorm inputs (2 x 4h), the
    q/k/v linears' input (4h), q, k, v (12h), the softmax output (4 x heads x keys), the
    projection's input (4h), fc1's input (4h), the GELU input and output (2 x 4 x 4h)."""
    return 4 * h * 2 + 4 * h + 12 * h + 4 * heads * keys + 4 * h + 4 * h + 2 * 4 * 4 * h


def test_tiny_swin_recomputed_by_hand():
    b = 2
    stage1 = 2 * (b * 16) * per_token(8, 1, 4)       # 2 blocks, 16 tokens per image, 2 x 2 windows
    stage2 = 2 * (b * 4) * per_token(16, 2, 4)       # 2 blocks, 4 tokens per image, one window
    embed = b * 3 * 16 * 16 * 4 + b * 16 * 8 * 4     # the conv's image, the embedding LayerNorm
    merge = b * 4 * 32 * (4 + 4)                     # the 4C concat: LayerNorm input, reduction input
    final = b * 4 * 16 * (4 + 4 + 4)                 # final LayerNorm: input, normed value, head input
    assert acts(inp(TINY_SWIN)) == stage1 + stage2 + embed + merge + final == 61440


def test_tiny_swin_backward_transient_is_windowed():
    arch = from_hf_config(TINY_SWIN, name="tiny")
    d = A.Dtypes(res=4, comp=4, weights=4)
    sw = AV.swin(arch, d, batch=2, image=16, attention="eager", train_weights=True,
                 lora_targets=frozenset(), lora_r=0, lora_dropout=0.0, dropout=0.0)
    # stage 1: fc1's gradient (32 tokens x 32 wide x 4 bytes) and the fp32 scores' backward growth of
    # 2 x 4 windows x 1 head x 4 x 4, 8 bytes a score in fp32 without dropout (est88: the
    # probabilities' gradient and softmax's input gradient beside the saved output)
    assert max(layer.backward for layer in sw.layers) == 32 * 32 * 4 + 8 * 1 * 4 * 4 * 8
    assert (sw.first_tokens, sw.first_width, sw.last_tokens, sw.last_width) == (32, 8, 8, 16)


def test_vit_twin_unchanged():
    # 4 x 4 patches + the class token: 17 tokens, global attention, the same width in every layer
    b, t = 2, 17
    layers = 2 * b * t * per_token(8, 1, t)
    final = b * t * 8 * (4 + 4 + 4)
    assert acts(inp(TINY_VIT)) == layers + final


def test_swin_t_is_not_charged_as_a_vit():
    # Swin-T at batch 128 under autocast fp16 with eager attention (held-out-10's row: 11.5 GiB
    # measured): global attention over 3,137 tokens charged 274 GiB; windows keep it near 10
    i = EstimateInput(arch=from_hf_config(SWIN_T, name="swin-t"), mode="train", precision="amp-fp16",
                      optimizer="adamw", micro_batch=128, image_size=224, attention="eager")
    assert 6 * 2**30 < acts(i) < 12 * 2**30
    # a larger image: more tokens per stage, the same windows
    bigger = EstimateInput(arch=from_hf_config(SWIN_T, name="swin-t"), mode="train",
                           precision="amp-fp16", optimizer="adamw", micro_batch=128,
                           image_size=448, attention="eager")
    assert 3.5 < acts(bigger) / acts(i) < 4.5


def test_inference_transient_per_stage():
    # one forward without autograd: the largest stage's transient (3 MLP-wide tensors, 2
    # residual-wide, the attention output) and its windowed fp32 scores with their copy
    def transient(config):
        e = estimate(inp(config, mode="infer"))
        return e.phases["forward"]["prefill_transient"]

    stage1 = 32 * (3 * 32 * 4 + 2 * 8 * 4 + 8 * 4) + 8 * 1 * 4 * 4 * 6
    stage2 = 8 * (3 * 64 * 4 + 2 * 16 * 4 + 16 * 4) + 2 * 2 * 4 * 4 * 6
    assert transient(TINY_SWIN) == max(stage1, stage2) == 16128
    # the ViT twin: 34 tokens, global attention over 17 keys per image
    assert transient(TINY_VIT) == 34 * (3 * 32 * 4 + 2 * 8 * 4 + 8 * 4) + 2 * 1 * 17 * 17 * 6
