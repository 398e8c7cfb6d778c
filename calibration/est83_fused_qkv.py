"""What autocast saves of an fp32 input read by three q / k / v Linears against one fused ``qkv`` Linear (est83).

transformers' ViT (``ViTSelfAttention``: ``query``, ``key``, ``value``) projects the fp32 residual stream with three
``nn.Linear``; timm's ``Attention`` (0.4.12 ``timm/models/vision_transformer.py`` line 179, and ``timm/layers/
attention.py`` today: ``self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)``) with one. Under autocast each ``linear``
call casts its input to the lower precision (``cached_cast`` caches only leaf weights, not activations), and the
linear's backward keeps its cast input. This script counts, with ``torch.autograd.graph.saved_tensors_hooks``, the
distinct bf16 storages saved for backward that have the input's shape (tokens x width), in bytes per token, under CPU
autocast (bf16: the same casting rule as CUDA's fp16 / bf16 lists for ``linear``). The estimator's
``activations.transformer_layer`` charges ``len(names)`` cast copies for separate projections and one for a packed
projection (``packed_in_proj``, from ``EstimateInput.packed_qkv`` or ``torch_mha``).

    python calibration/est83_fused_qkv.py     # writes calibration/data/est83_fused_qkv.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import torch
from torch import nn

OUT = Path(__file__).resolve().parent / "data" / "est83_fused_qkv.json"
TOKENS, WIDTH = 2 * 197, 256


def input_sized_saved_bytes(project) -> int:
    """Bytes of the distinct saved storages holding tokens x width elements while ``project`` runs."""
    kept: dict[int, int] = {}

    def pack(t):
        if t.numel() == TOKENS * WIDTH and t.dtype == torch.bfloat16:
            s = t.untyped_storage()
            kept[s.data_ptr()] = s.nbytes()
        return t

    leaf = torch.randn(2, 197, WIDTH, requires_grad=True)
    # the input is a LayerNorm's output, as in the block (autocast caches the casts of a leaf that requires
    # grad -- ``cached_cast``'s ``arg.is_leaf()`` -- but not of an activation)
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t), torch.autocast("cpu", dtype=torch.bfloat16):
        out = project(nn.functional.layer_norm(leaf, (WIDTH,)))
    sum(o.float().sum() for o in out).backward()
    return sum(kept.values())


def main() -> int:
    torch.manual_seed(0)
    q, k, v = (nn.Linear(WIDTH, WIDTH) for _ in range(3))
    fused = nn.Linear(WIDTH, 3 * WIDTH)
    separate = input_sized_saved_bytes(lambda x: (q(x), k(x), v(x)))
    packed = input_sized_saved_bytes(lambda x: fused(x).chunk(3, dim=-1))
    result = {"torch": torch.__version__, "tokens": TOKENS, "width": WIDTH, "autocast": "cpu bfloat16",
              "separate_qkv_bytes_per_token": separate / TOKENS, "fused_qkv_bytes_per_token": packed / TOKENS,
              "separate_copies": separate / (TOKENS * WIDTH * 2), "fused_copies": packed / (TOKENS * WIDTH * 2)}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
