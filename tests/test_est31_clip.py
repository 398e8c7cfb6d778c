"""CLIP contrastive training (preflight/estimate/contrastive.py): both towers' activations,
the batch x batch similarity logits instead of a vocabulary head, checkpointing of both
towers. Each term is recomputed by hand from the model's shapes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import public_accuracy as pa

from preflight.estimate import estimate

GiB = 2 ** 30


def _estimate(**over):
    setup = dict(mode="train", model="CLIP-ViT-B-32", precision="amp-fp16", optimizer="adamw",
                 micro_batch=2048, seq_len=77, image_size=224, grad_ckpt=True, attention="eager")
    setup.update(over)
    inp, unknown = pa.estimate_input(setup)
    assert unknown == []
    est = estimate(inp)
    assert est.ok
    return est


def test_checkpointed_activations_are_both_towers_layer_inputs():
    # ViT-B/32 at 224 px: 7 x 7 patches + the class token = 50 tokens of width 768, 12 blocks;
    # text: 77 tokens of width 512, 12 blocks; amp: fp32 residual stream, fp16 matmul inputs
    b = 2048
    text = 12 * b * 77 * 512 * 4
    vision = 12 * b * 50 * 768 * 4
    final_norm = b * 77 * 512 * (4 + 4 + 2)     # ln_final input, normed value, its fp16 cast
    pixels = b * 3 * 224 * 224
    fixed = pixels * 4 + pixels * 2 + b * 50 * 768 * 4   # image batch, conv1's cast input, ln_pre in
    est = _estimate()
    assert est.phases["forward"]["activations"] == text + vision + final_norm + fixed


def test_no_vocabulary_logits_only_the_similarity_matrices():
    b = 2048
    n = b * b
    est = _estimate()
    # two batch x batch matrices: fp16 matmul output + fp32 log-softmax each, plus the last
    # one's transient fp32 cast; a 49,408-token head would be 2048 x 77 x 49408 x >= 2 bytes
    assert est.phases["forward"]["logits_loss"] == 2 * n * (2 + 4) + n * 4
    assert est.phases["forward"]["logits_loss"] < 0.1 * GiB
    # it grows with the square of the batch (and with the gathered world under DDP)
    half = _estimate(micro_batch=1024)
    assert half.phases["forward"]["logits_loss"] * 4 == est.phases["forward"]["logits_loss"]
    ddp = _estimate(world_size=4)
    assert ddp.phases["forward"]["logits_loss"] == 4 * est.phases["forward"]["logits_loss"]


def test_vision_tokens_follow_image_and_patch_size():
    # 336 px on /32 patches: 10 x 10 + 1 = 101 tokens instead of 50; only the vision terms move
    small, large = _estimate(), _estimate(image_size=336)
    b = 2048
    per_token = 12 * 768 * 4 + 768 * 4          # a checkpointed block input + ln_pre's input
    pixels = b * 3 * (336 ** 2 - 224 ** 2) * (4 + 2)
    delta = large.phases["forward"]["activations"] - small.phases["forward"]["activations"]
    assert delta == b * (101 - 50) * per_token + pixels


def test_checkpointing_reaches_the_vision_tower():
    # without checkpointing every vision block keeps far more than its input
    ckpt, full = _estimate(micro_batch=512), _estimate(micro_batch=512, grad_ckpt=False)
    assert full.phases["forward"]["activations"] > 3 * ckpt.phases["forward"]["activations"]


@pytest.mark.parametrize("grad_ckpt,batch,fits", [(True, 2048, True), (False, 512, False)])
def test_open_clip_pr85_rtx3090_verdicts(grad_ckpt, batch, fits):
    # open_clip PR #85: B/32 on one RTX 3090 ran past batch 2,048 with checkpointing
    # (20 GB of 24 used) and stopped short of 512 without (~416)
    from preflight import hardware  # type: ignore[attr-defined]
    from preflight.estimate import verdict

    gpu = hardware.find("RTX-3090-24GB")
    inp, _ = pa.estimate_input(dict(mode="train", model="CLIP-ViT-B-32", precision="amp-fp16",
                                    optimizer="adamw", micro_batch=batch, seq_len=77,
                                    image_size=224, grad_ckpt=grad_ckpt, attention="eager",
                                    torch_version="1.11.0"), gpu)
    v = verdict(estimate(inp), gpu)
    assert (v in ("fits", "tight")) == fits


def test_inference_has_no_vocabulary_logits():
    # fp16 inference, SDPA: a layer's transient is tokens x (3 x MLP width x 2 + 2 x width x 2
    # + 2 x width) bytes; the towers run one after the other, the fp32 image batch is held, and
    # the output is two batch x batch fp16 similarity matrices
    b = 1024
    est = _estimate(mode="infer", precision="fp16", micro_batch=b, grad_ckpt=False, attention="sdpa")
    text = b * 77 * (3 * 2048 * 2 + 2 * 512 * 2 + 2 * 512)
    vision = b * 50 * (3 * 3072 * 2 + 2 * 768 * 2 + 2 * 768)
    pixels = b * 3 * 224 * 224 * 4
    assert est.phases["forward"]["prefill_transient"] == max(text, vision) + pixels
    assert est.phases["forward"]["logits_loss"] == 2 * b * b * 2
