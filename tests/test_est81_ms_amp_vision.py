"""est81 (issue 17; docs/calibration.md "est81"): held-out-38's two MS-AMP vision rows (a 1.0B Swin and a 1.2B ViT,
FP16 AMP under 8-GPU DDP, nvidia-smi).

- The Swin block is counted right: the estimator's fp32 activations of two Swin blocks (an unshifted and a shifted
  one with its mask) are within 0.5% of the bytes the reference implementation (microsoft/Swin-Transformer f92123a)
  keeps at the loss, measured on CPU (``calibration/est81_swin_block.py`` -> ``calibration/data/est81_swin_block.json``;
  torch 2.13.0+cpu): the window partition, shifts, masks and relative-position gather add nothing autograd keeps.
- The rows' torch is before 2.0 (MS-AMP's CI images 22.09 / 22.12 and no PyTorch 2.0 build before 95442e4), so the
  bare ``optimizer.zero_grad()`` of Swin's and DeiT's loops keeps zeroed fp32 gradients: 4 bytes per parameter.
- The ViT row's batch is the run script's 64: at the table's 128 the tensors autograd must save (by hand, below)
  already exceed the reading.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "calibration" / "data" / "est81_swin_block.json"
MS = "ms-amp-readme-fp16-amp-vision-memory"
GIB = 2 ** 30


def _swin_acts(depth: int, image: int, m: dict) -> float:
    cfg = {"model_type": "swin", "architectures": ["SwinForImageClassification"], "embed_dim": m["embed_dim"],
           "depths": [depth], "num_heads": [m["heads"]], "window_size": m["window"], "image_size": image,
           "patch_size": m["patch"], "num_channels": 3, "mlp_ratio": 4.0, "qkv_bias": True, "hidden_act": "gelu",
           "hidden_dropout_prob": 0.0, "attention_probs_dropout_prob": 0.0, "drop_path_rate": 0.5,
           "layer_norm_eps": 1e-5, "use_absolute_embeddings": False, "num_labels": 10}
    inp = EstimateInput(arch=from_hf_config(cfg, name="swin"), mode="train", precision="fp32", optimizer="adamw",
                        foreach=False, micro_batch=m["batch"], image_size=image, grad_ckpt=False, attention="eager",
                        torch_version="2.1.0")
    return estimate(inp).phases["forward"]["activations"]


def test_two_swin_blocks_match_the_reference_code_in_fp32():
    m = json.loads(DATA.read_text(encoding="utf-8"))
    assert m["source"] == "microsoft/Swin-Transformer f92123a" and m["torch"].startswith("2.13.0")
    for image, got in m["two_blocks_by_image"].items():
        est = _swin_acts(4, int(image), m) - _swin_acts(2, int(image), m)
        assert est == pytest.approx(got["alive_at_loss"], rel=5e-3)
    # by hand, per token of one block (width C = 64, 4C MLP, 2 heads x 49 keys, fp32): the two LayerNorm inputs,
    # the qkv input, q, k, v, the softmax output, the proj input, fc1's input, GELU's input and fc2's input
    c, scores = m["embed_dim"], m["heads"] * m["window"] ** 2
    per_token = 4 * (2 * c + c + 3 * c + scores + c + c + 4 * c + 4 * c)
    run = m["runs"][0]
    assert m["two_blocks_by_image"]["56"]["alive_at_loss"] == pytest.approx(2 * per_token * run["tokens"], rel=5e-3)


def _ms_rows():
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    rows = json.loads((REPO / "calibration" / "public" / "heldout38.json").read_text(encoding="utf-8"))["rows"]
    return pa, {r["setup"]["hf_config"]["model_type"]: r for r in rows if r["source"] == MS}


def test_ms_amp_rows_keep_zeroed_gradients_of_a_torch_before_2():
    pa, rows = _ms_rows()
    assert {r["setup"]["torch_version"] for r in rows.values()} == {"1.13.0"}
    for row in rows.values():
        inp, _ = pa.estimate_input(row["setup"])
        params = inp.arch.params_total
        phase = estimate(inp).phases["backward"]
        # fp32 gradients kept by zero_grad() (set_to_none=False before 2.0): 4 bytes per parameter, beside the
        # fp32 weights and DDP's fp32 buckets of the same size
        assert phase["gradients"] == pytest.approx(4 * params, rel=1e-6)
        assert phase["weights"] == pytest.approx(4 * params, rel=1e-6)
        assert phase["ddp_buckets"] == pytest.approx(4 * params, rel=1e-6)


def test_vit_row_batch_128_cannot_have_produced_the_reading():
    pa, rows = _ms_rows()
    vit = rows["vit"]
    s, h = vit["setup"], vit["setup"]["hf_config"]
    assert s["micro_batch"] == 64 and "-b128-" in vit["id"]
    width, heads, mlp, layers = h["hidden_size"], h["num_attention_heads"], h["intermediate_size"], h["num_hidden_layers"]
    tokens = (s["image_size"] // h["patch_size"]) ** 2 + 1          # 196 patches + the class token
    # per token and layer under autocast: LayerNorm inputs fp32 (2), the qkv input fp16, q, k, v, the fp32 softmax
    # and its fp16 copy, the proj input, fc1's input, GELU's input and fc2's input
    per = 2 * width * 4 + width * 2 + 3 * width * 2 + heads * tokens * (4 + 2) + width * 2 + width * 2 + 2 * mlp * 2
    assert per == 111_552
    inp, _ = pa.estimate_input(s)
    states = 16 * inp.arch.params_total           # fp32 weights, two AdamW moments, DDP buckets
    floor_128 = per * tokens * 128 * layers + states
    assert floor_128 / GIB > 80 > vit["peak_bytes"] / GIB       # above the reading and an 80 GB card
    assert per * tokens * 64 * layers + states < vit["peak_bytes"]
    res = pa.evaluate(vit)
    assert res.error is not None and abs(res.error) < 0.10
