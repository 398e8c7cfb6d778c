"""est63: before torch 1.11 a CUDA fp16 softmax keeps the fp16 scores as its input, not an fp32 copy
(issue 17; traced on held-out-29's Chinese-CLIP rows, so in-sample there).

torch 1.10.1's ``nn.MultiheadAttention`` (Chinese-CLIP's ``ResidualAttentionBlock``) runs
``attn = softmax(bmm(q, k^T), dim=-1)`` and ``bmm(attn, v)`` under ``torch.cuda.amp.autocast``.
Autocast's ``fp32_set_opt_dtype`` policy turns the softmax into ``softmax(x, dim, dtype=float32)`` on
the fp16 scores, and ``at::softmax`` runs ``_softmax(x, dim, half_to_float=true)`` for a CUDA half
input: no fp32 copy is made. Saved per score element: the fp16 scores (``SoftmaxBackward``'s ``self``
before pytorch#65242), the fp32 probabilities and their fp16 cast for the second bmm: 2 + 4 + 2 =
8 bytes (10 were charged). The tests recompute the eager attention term from the shapes of the three
vision towers of held-out-29 (197, 257 and 577 tokens).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from preflight import hardware  # type: ignore[attr-defined]
from preflight.estimate import EstimateInput, estimate, verdict
from preflight.estimate.arch import from_hf_config

ROOT = Path(__file__).resolve().parents[1]


def _clip(v_hidden, v_layers, v_heads, patch, image):
    text = {"hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,
            "intermediate_size": 3072, "vocab_size": 21128, "max_position_embeddings": 512}
    vision = {"hidden_size": v_hidden, "num_hidden_layers": v_layers, "num_attention_heads": v_heads,
              "intermediate_size": 4 * v_hidden, "patch_size": patch, "image_size": image, "num_channels": 3}
    return from_hf_config({"model_type": "clip", "architectures": ["CLIPModel"], "projection_dim": 512,
                           "text_config": text, "vision_config": vision}, name="cn-clip-like")


# (vision width, layers, heads, patch, image, per-GPU batch, tokens): ViT-B/16, ViT-L/14, ViT-L/14@336px
TOWERS = [(768, 12, 12, 16, 224, 450, 197), (1024, 24, 16, 14, 224, 128, 257), (1024, 24, 16, 14, 336, 40, 577)]
TEXT = (12, 12, 52)   # text layers, heads, tokens


def _acts(arch, **changes):
    base = dict(arch=arch, mode="train", precision="amp-fp16", optimizer="adamw", grad_accum=1, seq_len=52,
                padding="max_length", grad_ckpt=False, world_size=8, devices_per_node=8, torch_version="1.10.1",
                attention="eager", torch_mha=True)
    base.update(changes)
    return estimate(EstimateInput(**base)).phases["forward"]["activations"]


@pytest.mark.parametrize("width,layers,heads,patch,image,batch,tokens", TOWERS)
def test_the_saved_softmax_input_is_the_fp16_scores(width, layers, heads, patch, image, batch, tokens):
    arch = _clip(width, layers, heads, patch, image)
    t_layers, t_heads, t_tokens = TEXT
    elements = layers * batch * heads * tokens ** 2 + t_layers * batch * t_heads * t_tokens ** 2
    kw = dict(micro_batch=batch, image_size=image)
    # torch 1.11 stopped saving the input: the difference is the input alone, 2 bytes a score
    assert _acts(arch, **kw) - _acts(arch, **kw, torch_version="1.11.0") == elements * 2


@pytest.mark.parametrize("width,layers,heads,patch,image,batch,tokens", TOWERS)
def test_eager_minus_flash_is_eight_bytes_a_score(width, layers, heads, patch, image, batch, tokens):
    arch = _clip(width, layers, heads, patch, image)
    t_layers, t_heads, t_tokens = TEXT
    kw = dict(micro_batch=batch, image_size=image)
    eager = _acts(arch, **kw)
    flash = _acts(arch, **kw, attention="flash", torch_mha=False, packed_qkv=True)
    # per token and layer: eager keeps q, k, v, the scores (2 + 4 + 2 bytes a key and head) and
    # the output's contiguous copy that out_proj reads; flash keeps q, k, v (the packed qkv), its
    # output (= out_proj's input) and a 4-byte logsumexp per head
    vision = layers * batch * tokens * (8 * heads * tokens - 4 * heads)
    text = t_layers * batch * t_tokens * (8 * t_heads * t_tokens - 4 * t_heads)
    assert eager - flash == vision + text


@pytest.mark.parametrize("changes", [dict(precision="amp-bf16"), dict(device="cpu"), dict(amp_impl="apex")])
def test_an_fp32_copy_stays_where_there_is_one(changes):
    # bf16 has no half_to_float kernel (the input is converted first), CPU neither, and apex O1's
    # patched softmax receives x.float(): 4 bytes a score, as before
    width, layers, heads, patch, image, batch, tokens = TOWERS[0]
    arch = _clip(width, layers, heads, patch, image)
    t_layers, t_heads, t_tokens = TEXT
    elements = layers * batch * heads * tokens ** 2 + t_layers * batch * t_heads * t_tokens ** 2
    kw = dict(micro_batch=batch, image_size=image, **changes)
    assert _acts(arch, **kw) - _acts(arch, **kw, torch_version="1.11.0") == elements * 4


def test_recent_torch_does_not_move():
    width, layers, heads, patch, image, batch, _ = TOWERS[2]
    arch = _clip(width, layers, heads, patch, image)
    kw = dict(micro_batch=batch, image_size=image)
    assert _acts(arch, **kw, torch_version="2.1.0") == _acts(arch, **kw, torch_version="1.11.0")


def test_the_336px_row_without_flash_attention_is_no_longer_a_false_oom():
    sys.path.insert(0, str(ROOT / "bench"))
    import public_accuracy as P

    rows = json.loads((ROOT / "calibration/public/heldout29.json").read_text())["rows"]
    row = next(r for r in rows if r["id"].endswith("vitl14-336px-ampfp16-ddp-b40-noflash-8xa100-80g"))
    gpu = hardware.find(row["gpu"])
    inp, _ = P.estimate_input(row["setup"], gpu)
    est = estimate(inp)
    # the job ran on an 80 GB A100 (the page: 78 GB); it was likely-oom at 80.63 GiB
    assert verdict(est, gpu) in ("fits", "tight")
    assert est.peak_bytes < gpu.memory_bytes


def _encoder(model_type, **extra):
    cfg = {"model_type": model_type, "architectures": ["BertForMaskedLM"], "hidden_size": 256,
           "num_hidden_layers": 4, "num_attention_heads": 4, "intermediate_size": 1024, "vocab_size": 1000,
           "hidden_dropout_prob": 0.0, "attention_probs_dropout_prob": 0.0, **extra}
    if model_type == "distilbert":
        cfg = {"model_type": "distilbert", "architectures": ["DistilBertForMaskedLM"], "dim": 256, "n_layers": 4,
               "n_heads": 4, "hidden_dim": 1024, "vocab_size": 1000, "dropout": 0.0, "attention_dropout": 0.0}
    return from_hf_config(cfg, name=model_type)


def _enc_acts(arch, **kw):
    base = dict(arch=arch, mode="train", precision="amp-fp16", optimizer="adamw", micro_batch=2, seq_len=128,
                grad_ckpt=False, attention="eager", torch_version="1.10.1", world_size=1)
    base.update(kw)
    return estimate(EstimateInput(**base)).phases["forward"]["activations"]


def test_an_fp32_mask_added_to_the_scores_keeps_four_bytes():
    # BERT adds get_extended_attention_mask(...).to(self.dtype), fp32 under autocast: scores + mask is an fp32
    # tensor, and that is the softmax's saved input; DistilBERT's masked_fill keeps the fp16 scores
    # (4 layers x batch 2 x 4 heads x 128 x 128 scores)
    scores = 4 * 2 * 4 * 128 * 128
    bert = _encoder("bert")
    assert _enc_acts(bert) - _enc_acts(bert, torch_version="1.11.0") == scores * 4
    distil = _encoder("distilbert")
    assert _enc_acts(distil) - _enc_acts(distil, torch_version="1.11.0") == scores * 2


def test_a_clip_text_tower_with_its_causal_mask_keeps_four_bytes():
    # transformers' CLIP (no torch_mha): the text tower adds its fp32 causal mask, the vision tower has none
    width, layers, heads, patch, image, batch, tokens = TOWERS[0]
    arch = _clip(width, layers, heads, patch, image)
    t_layers, t_heads, t_tokens = TEXT
    kw = dict(micro_batch=batch, image_size=image, torch_mha=False)
    vision, text = layers * batch * heads * tokens ** 2, t_layers * batch * t_heads * t_tokens ** 2
    assert _acts(arch, **kw) - _acts(arch, **kw, torch_version="1.11.0") == vision * 2 + text * 4
