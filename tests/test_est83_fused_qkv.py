"""timm's ViT projects q, k and v with one fused Linear (est83): under autocast one cast copy of the fp32 input is
saved where transformers' three ``query`` / ``key`` / ``value`` Linears save three. The rows written from timm
(held-out-38's MS-AMP DeiT-large, held-out-2's torchao ViT-H and DINOv2-g) carry ``packed_qkv``; checked on the
ViT-1.2B row's configuration by hand and against the CPU measurement ``calibration/data/est83_fused_qkv.json``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from preflight.estimate import estimate

ROOT = Path(__file__).resolve().parents[1]
PUBLIC = ROOT / "calibration" / "public"


def _setup(split, row_id):
    rows = json.loads((PUBLIC / f"{split}.json").read_text())["rows"]
    return next(r for r in rows if r["id"].endswith(row_id))["setup"]


def _inp(setup, **kw):
    sys.path.insert(0, str(ROOT / "bench"))
    import public_accuracy as pa

    inp, _ = pa.estimate_input(dict(setup, **kw))
    return inp


VIT = "vit-1.2b-deit-large-ampfp16-ddp8-b128-224"


def test_the_rows_written_from_timm_carry_the_fused_layout():
    assert _setup("heldout38", VIT)["packed_qkv"] is True
    for rid in ("vit-h-adamw-fused", "dinov2-g-amp-ao-offload"):
        assert _setup("heldout2", rid)["packed_qkv"] is True


def test_the_vit_row_saves_one_cast_copy_instead_of_three():
    setup = _setup("heldout38", VIT)
    fused = estimate(_inp(setup)).phases["backward"]["activations"]
    separate = estimate(_inp(setup, packed_qkv=False)).phases["backward"]["activations"]
    tokens = 64 * 197   # batch 64, 196 patches + the class token
    # two fp16 copies of the 2,048-wide input fewer per token and layer (24 layers)
    assert separate - fused == pytest.approx(tokens * 24 * 2 * 2048 * 2, rel=1e-9)


def test_the_cpu_measurement_counts_one_and_three_copies():
    data = json.loads((ROOT / "calibration" / "data" / "est83_fused_qkv.json").read_text())
    assert data["separate_copies"] == 3 and data["fused_copies"] == 1


def test_fp32_is_unchanged():
    setup = dict(_setup("heldout38", VIT), precision="fp32")
    assert estimate(_inp(setup)).phases == estimate(_inp(setup, packed_qkv=False)).phases
