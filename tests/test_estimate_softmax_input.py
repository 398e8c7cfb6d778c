"""torch before 1.11 keeps every softmax's input for backward (issue 17, docs/calibration.md
"est20"; traced on held-out-10's Mesa DeiT rows in the held-out-10 section, applied here, so
in-sample).

Before pytorch/pytorch#65242 the derivative of ``softmax`` read ``self``, so autograd saved
the input next to the output; transformers passes ``_softmax_backward_data`` the tensor only
``if is_torch_less_than_1_11``.
"""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config

DEIT_TI = {"model_type": "vit", "architectures": ["ViTForImageClassification"], "hidden_size": 192,
           "num_hidden_layers": 12, "num_attention_heads": 3, "intermediate_size": 768,
           "image_size": 224, "patch_size": 16, "num_channels": 3, "qkv_bias": True,
           "hidden_act": "gelu", "hidden_dropout_prob": 0.0, "attention_probs_dropout_prob": 0.0,
           "layer_norm_eps": 1e-6, "num_labels": 1000}
ARCH = from_hf_config(DEIT_TI, name="deit-ti")
# by hand: 12 layers x batch 128 x 3 heads x 197 x 197 scores (196 patches + the class token)
SCORES = 12 * 128 * 3 * 197 * 197


def acts(**changes):
    base = dict(arch=ARCH, mode="train", precision="amp-fp16", optimizer="adamw", micro_batch=128,
                image_size=224, grad_ckpt=False, attention="eager", dropout=0.0, world_size=1,
                foreach=False, torch_version="1.7.1")
    base.update(changes)
    return estimate(EstimateInput(**base)).phases["forward"]["activations"]


def test_autocast_keeps_the_fp16_softmax_input():
    # est63: on CUDA autocast calls softmax(x, dtype=float32) on the fp16 scores, which runs the
    # half_to_float kernel on them (no fp32 copy): the saved input is 2 bytes each
    # (softmax_dtype.py); on CPU the input is converted first and the fp32 copy is kept
    assert acts() - acts(torch_version="1.11") == SCORES * 2
    assert acts(device="cpu") - acts(device="cpu", torch_version="1.11") == SCORES * 4


def test_fp16_without_autocast_keeps_the_fp16_scores():
    # BERT's softmax runs in the scores' own dtype without autocast: 2 bytes each
    # (4 layers x batch 2 x 4 heads x 128 x 128 tokens)
    bert = from_hf_config({"model_type": "bert", "architectures": ["BertForMaskedLM"],
                           "hidden_size": 256, "num_hidden_layers": 4, "num_attention_heads": 4,
                           "intermediate_size": 1024, "vocab_size": 1000,
                           "hidden_dropout_prob": 0.0, "attention_probs_dropout_prob": 0.0},
                          name="bert-small")
    kw = dict(arch=bert, precision="fp16", micro_batch=2, seq_len=128, image_size=None)
    assert acts(**kw) - acts(**kw, torch_version="1.11") == 4 * 2 * 4 * 128 * 128 * 2


def test_twins_that_do_not_move():
    same = acts(torch_version="1.11")
    assert acts(torch_version="2.1") == same
    # an unknown release counts as a recent one
    assert acts(torch_version=None) == same
    # SDPA materialises no softmax
    assert acts(attention="sdpa") == acts(attention="sdpa", torch_version="1.11")


def test_only_training_keeps_it():
    from preflight.estimate.terms import softmax_saves_input

    assert softmax_saves_input(EstimateInput(arch=ARCH, mode="train", torch_version="1.10.2"))
    assert not softmax_saves_input(EstimateInput(arch=ARCH, mode="infer", torch_version="1.7.1"))
    assert not softmax_saves_input(EstimateInput(arch=ARCH, mode="train", torch_version="1.11.0"))
