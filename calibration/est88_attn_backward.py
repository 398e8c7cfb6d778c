"""est88: the net growth of a materialised (eager / math) attention's backward, bytes per score.

Records, with ``calibration/alloc_trace.py``'s recorder (every new storage and its death, in
program order), the live bytes while autograd runs the backward of one attention core written
as transformers' eager attention writes it (real tensors on the CPU, small shapes in which the
scores dominate: q, k, v of (2, 4, 256, 8)), and prints the peak live bytes above what is live
when ``backward`` starts, per score, less the gradient of v (made first, by the probability
matmul's backward; q's and k's come after the peak). The estimator
charges this growth as ``activations.transformer_layer``'s ``backward`` term
(``batch x heads x seq x seq x`` :func:`preflight.estimate.activations.math_attention_backward_bytes`).

The op sequences (the autocast one written out as the casts CUDA autocast inserts: the matmuls
in 16-bit, softmax in fp32, the 16-bit copy the probability matmul reads):

- ``fp32``: scores / sqrt(d) + mask, softmax, (dropout p), probs @ v (Llama's or BERT's eager in
  fp32: the explicit fp32 upcast and ``.to(fp32)`` are no-ops)
- ``bf16-upcast``: 16-bit scores, ``softmax(dtype=float32).to(bf16)`` (Llama family)
- ``bf16-implicit``: 16-bit scores, softmax in 16-bit (BERT, GPT-NeoX 4.42 in pure 16-bit)
- ``autocast``: 16-bit scores, softmax of their fp32 cast, dropout in fp32, its 16-bit cast @ v
  (BERT under autocast)

CPU caveats, both checked by hand against the CUDA kernels: CPU dropout saves a noise tensor in
the input's dtype where CUDA's fused ``native_dropout`` saves a 1-byte mask (the growth is the
same: both die before the peak), and CPU's softmax backward for a 16-bit input with an fp32
output (``bf16-upcast``) allocates more than CUDA's ``half_to_float`` kernel, which writes the
16-bit gradient directly (so that case is not used for a constant).

Usage (imports torch; calibration only)::

    python -m calibration.est88_attn_backward --out calibration/data/est88_attn_backward.json
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any, Dict, List, Tuple

SHAPE = (2, 4, 256, 8)


def _attention(case: str, q: Any, k: Any, v: Any, mask: Any, p: float) -> Any:
    import torch
    import torch.nn.functional as F

    d = q.shape[-1]
    scores = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(d)
    scores = scores + mask
    if case == "fp32":
        probs = F.softmax(scores, dim=-1, dtype=torch.float32)
        probs = F.dropout(probs, p=p, training=True)
        return torch.matmul(probs, v)
    if case == "bf16-upcast":
        probs = F.softmax(scores, dim=-1, dtype=torch.float32).to(q.dtype)
        probs = F.dropout(probs, p=p, training=True)
        return torch.matmul(probs, v)
    if case == "bf16-implicit":
        probs = F.softmax(scores, dim=-1)
        probs = F.dropout(probs, p=p, training=True)
        return torch.matmul(probs, v)
    if case == "autocast":
        probs = F.softmax(scores.float(), dim=-1)
        probs = F.dropout(probs, p=p, training=True)
        return torch.matmul(probs.to(q.dtype), v)
    raise ValueError(case)


def measure(case: str, p: float) -> Dict[str, Any]:
    """Peak live bytes during the core's backward above the bytes live when it starts, per score
    (the q/k/v gradients, which stay, left out)."""
    import torch

    from calibration.alloc_trace import _recorder_cls

    torch.manual_seed(0)
    dtype = torch.float32 if case == "fp32" else torch.bfloat16
    b, h, s, d = SHAPE
    q, k, v = (torch.randn(b, h, s, d, dtype=dtype).requires_grad_() for _ in range(3))
    mask = torch.zeros(1, 1, s, s, dtype=dtype)
    rec = _recorder_cls()()
    with rec:
        for t in (q, k, v, mask):
            rec.see(t)
        out = _attention(case, q, k, v, mask, p)
        grad = torch.ones_like(out)
        start = len(rec.events)
        out.backward(grad)
        size: Dict[int, int] = {}
        live = live0 = peak = 0
        for i, (kind, key, nbytes) in enumerate(rec.events):
            if i == start:
                live0 = peak = live
            if kind == "a":
                size[key] = nbytes
                live += nbytes
                peak = max(peak, live)
            else:
                live -= size.pop(key, 0)
        peak -= live0
        rec.enabled = False
    # the probability matmul's backward makes v's gradient first; q's and k's come after the peak
    v_grad = b * h * s * d * (4 if dtype == torch.float32 else 2)
    scores = b * h * s * s
    return {"case": case, "dropout": p, "shape": list(SHAPE), "peak_growth_bytes": peak,
            "v_grad_bytes": v_grad, "per_score": round((peak - v_grad) / scores, 3)}


CASES: List[Tuple[str, float]] = [("fp32", 0.0), ("fp32", 0.1), ("bf16-upcast", 0.0),
                                  ("bf16-upcast", 0.1), ("bf16-implicit", 0.0),
                                  ("bf16-implicit", 0.1), ("autocast", 0.0), ("autocast", 0.1)]


def main(argv: Any = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    import torch

    rows = [measure(c, p) for c, p in CASES]
    for r in rows:
        print(f"{r['case']:14s} p={r['dropout']:.1f}  {r['per_score']:6.2f} B/score above the start")
    if args.out:
        args.out.write_text(json.dumps({"torch": torch.__version__, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
