"""est63: a CLIP config's towers use QuickGELU unless they name another activation (issue 17; traced on
held-out-29's Chinese-CLIP rows, so in-sample there).

transformers' ``CLIPTextConfig`` and ``CLIPVisionConfig`` default ``hidden_act="quick_gelu"`` (and the Hub's
configs omit default keys); OpenAI CLIP, open_clip's OpenAI models and Chinese-CLIP's vision tower write
``x * torch.sigmoid(1.702 * x)`` by hand. Autograd keeps the first MLP linear's output (the product's input),
the sigmoid's output (its own backward and the product's) and the product (the second linear's input):
three MLP-wide tensors a token, where a fused GELU keeps two. The reader now gives each tower its own
activation (``SiglipVisionConfig``: ``gelu_pytorch_tanh``).
"""

from __future__ import annotations

import pytest

from preflight.estimate import EstimateInput, estimate
from preflight.estimate import contrastive as CL
from preflight.estimate.arch import from_hf_config

TEXT = {"hidden_size": 512, "num_hidden_layers": 12, "num_attention_heads": 8, "intermediate_size": 2048,
        "vocab_size": 49408, "max_position_embeddings": 77}
VISION = {"hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12, "intermediate_size": 3072,
          "image_size": 224, "patch_size": 16, "num_channels": 3}


def _arch(text_act=None, vision_act=None):
    text = dict(TEXT, **({"hidden_act": text_act} if text_act else {}))
    vision = dict(VISION, **({"hidden_act": vision_act} if vision_act else {}))
    return from_hf_config({"model_type": "clip", "architectures": ["CLIPModel"], "projection_dim": 512,
                           "text_config": text, "vision_config": vision}, name="clip-b16")


def test_each_tower_reads_its_own_activation():
    default = _arch()
    assert default.extra["mlp_act"] == "quick_gelu"
    assert CL.vision_tower(default).extra["mlp_act"] == "quick_gelu"
    mixed = _arch(text_act="gelu_python", vision_act="quick_gelu")   # Chinese-CLIP: BERT text, OpenAI ViT
    assert mixed.extra["mlp_act"] == "gelu_python"
    assert CL.vision_tower(mixed).extra["mlp_act"] == "quick_gelu"


def _acts(arch, **kw):
    base = dict(arch=arch, mode="train", precision="amp-fp16", optimizer="adamw", micro_batch=64, seq_len=77,
                image_size=224, grad_ckpt=False, attention="sdpa", torch_mha=True, torch_version="2.2.1",
                world_size=1)
    base.update(kw)
    return estimate(EstimateInput(**base)).phases["forward"]["activations"]


def test_quick_gelu_keeps_a_third_mlp_wide_tensor():
    # by hand, fp16 under autocast: vision 12 layers x 64 images x 197 tokens x 3,072, text 12 layers x
    # 64 x 77 tokens x 2,048, one more 2-byte element each
    extra = 12 * 64 * 197 * 3072 * 2 + 12 * 64 * 77 * 2048 * 2
    assert _acts(_arch()) - _acts(_arch(text_act="gelu", vision_act="gelu")) == extra
    # the same third tensor when only one tower uses it
    assert _acts(_arch(vision_act="quick_gelu", text_act="gelu")) - _acts(_arch("gelu", "gelu")) \
        == 12 * 64 * 197 * 3072 * 2


@pytest.mark.parametrize("act", ["gelu", "gelu_pytorch_tanh"])
def test_a_named_fused_gelu_keeps_two(act):
    # twins: a config that names a fused GELU is charged as before (input and output of the MLP width)
    assert _acts(_arch(act, act)) == _acts(_arch("gelu", "gelu"))


def test_siglip_vision_default_is_the_tanh_gelu():
    from preflight.estimate.arch_vision import _tower_act

    class Cfg:
        def raw(self, *keys, default=None):
            return default

    assert _tower_act("siglip_vision_model", Cfg()) == "gelu_pytorch_tanh"
    assert _tower_act("clip_vision_model", Cfg()) == "quick_gelu"
