"""What autograd saves for attention and a gated MLP written in Python ops, against torch's own kernels (est73).

Measures, with ``torch.autograd.graph.saved_tensors_hooks``, the distinct storages autograd keeps for backward
(by data pointer, each counted once) in fp32 on the CPU for:

- attention: scores ``q @ k^T / sqrt(d)``, a causal ``torch.where(mask, scores, -inf)``, then either
  torch's ``softmax`` (the eager attention the estimator models) or the softmax written in Python
  (``x - x.max(-1, keepdim=True)[0]``, ``exp``, ``/ exp.sum(-1, keepdim=True)``: the shape the Stanford
  CS336 course model uses), then ``probs @ v``;
- a gated MLP ``w2(act(w1(x)) * w3(x))`` with torch's ``F.silu`` or ``x * torch.sigmoid(x)``.

It reports the saved bytes per score element (attention) and per MLP-width element (MLP) that are not
the inputs, and the peak of the storages the attention's backward allocates (a ``TorchDispatchMode`` that adds
each new output storage and removes it when it is freed, ``weakref.finalize``, as ``calibration/mlp_live_nograd.py``
does), in fp32 score tensors: the figures ``preflight/estimate/python_ops.py`` uses. Run with any torch (no GPU):

    python calibration/python_ops_saved.py            # writes calibration/data/python_ops_saved.json
"""

from __future__ import annotations

import json
import math
import sys
import weakref
from pathlib import Path

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

OUT = Path(__file__).resolve().parent / "data" / "python_ops_saved.json"


def saved_storages(fn, *inputs) -> dict[int, int]:
    """Distinct storages autograd saves while ``fn(*inputs)`` runs: {data_ptr: nbytes}."""
    kept: dict[int, int] = {}

    def pack(t):
        s = t.untyped_storage()
        kept[s.data_ptr()] = s.nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = fn(*inputs)
    out.sum().backward()
    return kept


def python_softmax(x):
    shifted = x - torch.max(x, dim=-1, keepdim=True)[0]
    e = torch.exp(shifted)
    return e / torch.sum(e, dim=-1, keepdim=True)


def attention(softmax):
    def run(q, k, v):
        s = q.shape[-2]
        scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
        mask = torch.arange(s)[:, None] >= torch.arange(s)[None, :]
        scores = torch.where(mask, scores, float("-inf"))
        return softmax(scores) @ v
    return run


class LivePeak(TorchDispatchMode):
    """The peak of the storages made inside the mode that are still alive (bytes)."""

    def __init__(self):
        super().__init__()
        self.live = 0
        self.peak = 0
        self.seen: set[int] = set()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for t in out if isinstance(out, (tuple, list)) else (out,):
            if isinstance(t, torch.Tensor):
                storage = t.untyped_storage()
                ptr = storage.data_ptr()
                if ptr and ptr not in self.seen:
                    self.seen.add(ptr)
                    self.live += storage.nbytes()
                    self.peak = max(self.peak, self.live)
                    weakref.finalize(storage, self._free, ptr, storage.nbytes())
        return out

    def _free(self, ptr, nbytes):
        self.seen.discard(ptr)
        self.live -= nbytes


def backward_peak(fn, *inputs) -> int:
    out = fn(*inputs)
    grad = torch.ones_like(out)
    mode = LivePeak()
    with mode:
        out.backward(grad)
    return mode.peak


def python_silu(x):
    return x * torch.sigmoid(x)


def mlp(act, w1, w2, w3):
    def run(x):
        return F.linear(act(F.linear(x, w1)) * F.linear(x, w3), w2)
    return run


def main() -> int:
    torch.manual_seed(0)
    b, h, s, d = 2, 4, 64, 16
    q, k, v = (torch.randn(b, h, s, d, requires_grad=True) for _ in range(3))
    inputs = {t.untyped_storage().data_ptr() for t in (q, k, v)}
    score_elems = b * h * s * s
    result: dict = {"torch": torch.__version__, "shapes": {"batch": b, "heads": h, "seq": s, "head_dim": d}}
    per = {}
    for name, sm in (("torch_softmax", lambda x: torch.softmax(x, dim=-1)), ("python_softmax", python_softmax)):
        kept = saved_storages(attention(sm), q, k, v)
        score_bytes = sum(n for p, n in kept.items() if p not in inputs and n >= score_elems)
        small = sum(n for p, n in kept.items() if p not in inputs and n < score_elems)
        per[name] = {"score_bytes_per_element": score_bytes / score_elems,
                     "other_bytes_per_query_row": small / (b * h * s)}
    result["attention_fp32"] = per
    for name, sm in (("torch_softmax", lambda x: torch.softmax(x, dim=-1)), ("python_softmax", python_softmax)):
        q, k, v = (torch.randn(b, h, s, d, requires_grad=True) for _ in range(3))
        per[name]["backward_peak_score_tensors"] = round(backward_peak(attention(sm), q, k, v) / (score_elems * 4), 2)
    tokens, hid, width = 128, 32, 96
    x = torch.randn(tokens, hid, requires_grad=True)
    w1, w3 = torch.randn(width, hid, requires_grad=True), torch.randn(width, hid, requires_grad=True)
    w2 = torch.randn(hid, width, requires_grad=True)
    fixed = {t.untyped_storage().data_ptr() for t in (x, w1, w2, w3)}
    per = {}
    for name, act in (("torch_silu", F.silu), ("python_silu", python_silu)):
        kept = saved_storages(mlp(act, w1, w2, w3), x)
        per[name] = {"width_tensors_saved": sum(n for p, n in kept.items() if p not in fixed) / (tokens * width * 4)}
    result["gated_mlp_fp32"] = per
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
