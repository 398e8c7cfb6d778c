"""Bytes alive at the loss per Swin block of the reference implementation (microsoft/Swin-Transformer at f92123a,
``models/swin_transformer.py``, the code of held-out-17's and held-out-38's Swin rows), measured on CPU with torch's
profiler (``profile_memory=True``); writes ``calibration/data/est81_swin_block.json`` (est81, issue 17).

The model file is read from a local git mirror of the repository at that commit (``--mirror``; nothing of it is
committed here) and imported beside a stub of the three names it takes from timm (``DropPath``, ``to_2tuple``,
``trunc_normal_``): the stub's ``DropPath`` is timm 0.4.12's ``drop_path`` (``x.div(keep_prob) * random_tensor``,
the release Swin's ``requirements`` name). One stage (no patch merging), ``depth`` 2 and 4 (an unshifted and a
shifted block each, the shifted one with its attention mask), fp32, train mode, ``drop_path_rate`` 0.5 as the
Swin-giant config writes; the figure per two blocks is the 4-block model's bytes alive at the loss less the 2-block
model's. Two window geometries tell the per-token and the per-score bytes apart: a 14 x 14 patch map of 4 windows
(image 56) and a 28 x 28 map of 16 (image 112).

Run: ``python -m calibration.est81_swin_block [--mirror GITDIR] [--out PATH]`` (needs torch; not run by the tests,
which read the committed JSON). torch's autograd frees and keeps the same tensors on CPU and CUDA, so the counts carry
to GPU jobs in fp32; what autocast adds on CUDA (the fp32 softmax and its cast copy) is the estimator's own term.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict

from calibration.est79_loop_logits import _memory  # the profiler trace reading, shared

OUT = Path(__file__).resolve().parent / "data" / "est81_swin_block.json"
MIRROR = "/work/.mirror/microsoft+Swin-Transformer/repo"
COMMIT = "f92123a"
BATCH, EMBED, HEADS, WINDOW, PATCH, CLASSES = 2, 64, 2, 7, 4, 10

TIMM_STUB = '''
import torch
import torch.nn as nn


def to_2tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x, x)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0):
    return nn.init.trunc_normal_(tensor, mean, std, a, b)


def drop_path(x, drop_prob=0.0, training=False):
    # timm 0.4.12 timm/models/layers/drop.py drop_path
    if drop_prob == 0.0 or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = keep_prob + torch.rand(shape, dtype=x.dtype, device=x.device)
    random_tensor.floor_()
    return x.div(keep_prob) * random_tensor


class DropPath(nn.Module):
    def __init__(self, drop_prob=None):
        super().__init__()
        self.drop_prob = drop_prob

    def forward(self, x):
        return drop_path(x, self.drop_prob, self.training)
'''


def _load(mirror: str, tmp: Path) -> Any:
    src = subprocess.run(["git", "--git-dir", mirror, "show", f"{COMMIT}:models/swin_transformer.py"],
                         check=True, capture_output=True, text=True).stdout
    (tmp / "timm" / "models").mkdir(parents=True)
    (tmp / "timm" / "__init__.py").write_text("", encoding="utf-8")
    (tmp / "timm" / "models" / "__init__.py").write_text("", encoding="utf-8")
    (tmp / "timm" / "models" / "layers.py").write_text(TIMM_STUB, encoding="utf-8")
    (tmp / "swin_transformer.py").write_text(src, encoding="utf-8")
    sys.path.insert(0, str(tmp))
    spec = importlib.util.spec_from_file_location("swin_transformer", tmp / "swin_transformer.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def measure(mod: Any, depth: int, image: int) -> Dict[str, Any]:
    import torch
    from torch.profiler import ProfilerActivity, profile

    torch.manual_seed(0)
    model = mod.SwinTransformer(img_size=image, patch_size=PATCH, in_chans=3, num_classes=CLASSES,
                                embed_dim=EMBED, depths=[depth], num_heads=[HEADS], window_size=WINDOW,
                                mlp_ratio=4.0, qkv_bias=True, drop_rate=0.0, attn_drop_rate=0.0,
                                drop_path_rate=0.5, ape=False, patch_norm=True).train()
    x = torch.randn(BATCH, 3, image, image)
    target = torch.randint(0, CLASSES, (BATCH,))
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        loss = torch.nn.functional.cross_entropy(model(x), target)
        marker = torch.empty(1)        # one 4-byte allocation: the running total at the loss
    base, totals = _memory(prof)
    del marker, loss
    side = image // PATCH
    return {"depth": depth, "image": image, "map_side": side, "windows": (side // WINDOW) ** 2,
            "tokens": BATCH * side * side, "peak_above_start": max(totals) - base,
            "alive_at_loss": totals[-1] - 4 - base}


def main(argv: Any = None) -> int:
    import torch

    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", default=MIRROR, help="git dir of microsoft/Swin-Transformer")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        mod = _load(args.mirror, Path(tmp))
        runs = [measure(mod, depth, image) for image in (56, 112) for depth in (2, 4)]
    two_blocks = {str(runs[i]["image"]): {k: runs[i + 1][k] - runs[i][k] for k in ("peak_above_start", "alive_at_loss")}
                  for i in (0, 2)}
    out = {"about": __doc__.split("\n\n")[0], "torch": torch.__version__, "source": f"microsoft/Swin-Transformer {COMMIT}",
           "batch": BATCH, "embed_dim": EMBED, "heads": HEADS, "window": WINDOW, "patch": PATCH, "runs": runs,
           "two_blocks_by_image": two_blocks}
    args.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
