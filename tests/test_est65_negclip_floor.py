"""est65: held-out-18's NegCLIP b256 row, counted from open_clip's code.

The README's command (mertyg/vision-language-models-are-bows, ``python -m training.main --batch-size=256
--pretrained="openai" --model="ViT-B-32"``, the fork vinid/open_clip at e680f8e) builds the OpenAI weights with
``build_model_from_openai_state_dict(..., quick_gelu=True)`` (``create_model`` passes ``jit=args.torchscript``,
False by default), casts the model to fp32 for ``--precision amp`` (the default) and runs 2B images and 4B captions
per step (``train.py``: ``images = torch.cat([images, new_images])``, texts concatenated four times). est63's QuickGELU
reading is right: ``x * torch.sigmoid(1.702 * x)`` keeps its input and the sigmoid's output for backward and
c_proj keeps the product (the scalar multiply keeps nothing), three MLP-wide tensors (``MLP_ACT_SAVED``).

What that setting must keep, counted per layer and token from the fork's ``ResidualAttentionBlock``
(lower bounds only: every attention kernel's backward reads q, k and v; LayerNorm keeps its input, which autocast
casts to fp32; a linear layer keeps its (fp16) input for the weight gradient), is above the 28 GiB the issue's
user read, and above the card: the row is ``not_scored`` (est51's rule), and the estimator's activations agree with
the count where both run on the same shapes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

import public_accuracy as pa  # noqa: E402

from preflight import hardware  # noqa: E402  # type: ignore[attr-defined]
from preflight.estimate import constants as C  # noqa: E402
from preflight.estimate import estimate  # noqa: E402

B256 = "negclip-issue-30/clip-vit-b32-negclip-b256-ampfp16-v100-32gb"
B32 = "negclip-issue-30/clip-vit-b32-negclip-b32-ampfp16-rtx3060"
GIB = 1 << 30


def _row(rid: str) -> dict:
    doc = json.loads((REPO / "calibration" / "public" / "heldout18.json").read_text(encoding="utf-8"))
    return next(r for r in doc["rows"] if r["id"] == rid)


def _per_token(tower: dict, mlp_saved: float) -> int:
    """Bytes one ResidualAttentionBlock keeps per token under fp16 autocast (lower bound)."""
    d, m = int(tower["hidden_size"]), int(tower["intermediate_size"])
    layer_norms = 2 * 4 * d            # ln_1 and ln_2 inputs, fp32
    linear_inputs = 3 * 2 * d          # in_proj, out_proj and c_fc inputs, fp16
    qkv = 3 * 2 * d                    # q, k, v
    mlp = int(mlp_saved) * 2 * m       # c_fc output, sigmoid output, product (QuickGELU)
    return layer_norms + linear_inputs + qkv + mlp


def _floor(pairs: int, mlp_saved: float) -> int:
    cfg, _ = pa._config({"model": "CLIP-ViT-B-32"})
    text, vision = cfg["text_config"], cfg["vision_config"]
    image_tokens = (int(vision["image_size"]) // int(vision["patch_size"])) ** 2 + 1
    acts = (4 * pairs * int(text["max_position_embeddings"]) * int(text["num_hidden_layers"]) * _per_token(text, mlp_saved)
            + 2 * pairs * image_tokens * int(vision["num_hidden_layers"]) * _per_token(vision, mlp_saved))
    inp, _ = pa.estimate_input(_row(B256)["setup"])
    params = int(estimate(inp).params_total)
    return acts + 16 * params          # fp32 weights, fp32 gradients, AdamW's two fp32 states


def test_quick_gelu_keeps_three_mlp_wide_tensors():
    assert C.MLP_ACT_SAVED["quick_gelu"] == 3.0
    assert C.MLP_ACT_SAVED["gelu"] == 2.0


def test_the_per_token_count_from_the_shapes():
    cfg, _ = pa._config({"model": "CLIP-ViT-B-32"})
    assert _per_token(cfg["text_config"], 3) == 20 * 512 + 6 * 2048 == 22_528
    assert _per_token(cfg["vision_config"], 3) == 20 * 768 + 6 * 3072 == 33_792


def test_the_b256_setting_needs_more_than_the_reading_and_the_card():
    row = _row(B256)
    floor = _floor(256, C.MLP_ACT_SAVED["quick_gelu"])
    card = hardware.find(row["gpu"]).memory_bytes
    assert round(floor / GIB, 2) == 31.77
    assert floor > card > row["peak_bytes"]
    assert "31.77 GiB" in row["not_scored"]
    # with nn.GELU's two MLP tensors the same count is under the reading: the run was likely not QuickGELU
    gelu = _floor(256, C.MLP_ACT_SAVED["gelu"])
    assert gelu < row["peak_bytes"]
    assert f"{gelu / GIB:.1f} GiB" in row["not_scored"]


def test_the_b32_row_passes_the_count_and_stays_scored():
    row = _row(B32)
    assert _floor(32, C.MLP_ACT_SAVED["quick_gelu"]) < row["peak_bytes"]
    assert not row.get("not_scored")
    assert pa.evaluate(row).error is not None


def test_the_estimators_activations_match_the_count_on_the_rows_shapes():
    """The row's one micro-batch of 768 runs both towers at 768: the count on those shapes."""
    row = _row(B256)
    inp, _ = pa.estimate_input(row["setup"], hardware.find(row["gpu"]))
    est = estimate(inp)
    acts = est.phases["backward"]["activations"]
    text = 768 * 77 * 12 * 22_528
    vision = 768 * 50 * 12 * 33_792
    # the count is a lower bound (the text tower's masked SDPA runs the math kernel and keeps its
    # probabilities and scaled q/k copies; outside the blocks: the images, ln_pre, embeddings)
    assert 0.95 * (text + vision) <= acts <= 1.10 * (text + vision)


def test_the_b256_row_is_not_scored_and_counts_for_no_false_oom():
    res = pa.evaluate(_row(B256))
    assert res.verdict in ("oom", "likely-oom")      # the stated setting does not fit the card
    assert res.not_scored and res.error is None
    s = pa.summary([res], "x")
    assert s["false_ooms"] == [] and s["not_scored"] == [B256]
    unmarked = pa.evaluate(dict(_row(B256), not_scored=""))
    assert pa.summary([unmarked], "x")["false_ooms"] == [B256]
