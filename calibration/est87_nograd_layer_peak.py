"""est87: the no-grad forward's layer transient, attention and MLP in turn or together?

Records, with ``calibration/alloc_trace.py``'s recorder (every new storage and its death, in program
order), the live bytes of a no-grad forward on the CPU in fp32 (real tensors, small shapes), for
transformers' ``LlamaForCausalLM`` with eager attention (``use_cache=False``) and for a block written
as the Stanford CS336 course model writes it (einsum projections, RoPE, a causal ``torch.where``
mask, the softmax in Python ops ``x - max``, ``exp``, ``/ sum``, SwiGLU with ``x * sigmoid(x)``).
Prints, per case, the peak live bytes above the weights and the input ids, less the final logits,
and what est87's liveness argument and the estimator's earlier sum give for it per layer:

- sum (before est87): residual + normed input (2h) + attention output (h) + MLP (3 x width) + scores
- max (est87): 2h + max(3 x width, attention side), the attention side being q, k, v (3h) + scores
  (the attention's scores die when the attention returns, before the MLP makes its tensors)

Usage (imports torch and transformers; calibration only)::

    python -m calibration.est87_nograd_layer_peak --out calibration/data/est87_nograd_layer_peak.json
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any, Dict, List


def _peak(fn: Any, keep: List[Any]) -> int:
    """Largest live bytes of the storages ``fn`` allocates (the ones in ``keep`` excluded)."""
    import torch

    from calibration.alloc_trace import _recorder_cls

    rec = _recorder_cls()()
    with rec:
        for t in keep:
            rec.see(t)
        rec.events = []
        with torch.no_grad():
            out = fn()
        size = {}
        live = peak = 0
        for kind, key, nbytes in rec.events:
            if kind == "a":
                size[key] = nbytes
                live += nbytes
                peak = max(peak, live)
            else:
                live -= size.pop(key, 0)
        logits = int(out.untyped_storage().nbytes())
        rec.enabled = False
    return peak - logits


def _rope(x: Any, pos: Any, theta: float = 10000.0) -> Any:
    import torch

    d = x.shape[-1]
    inv = 1.0 / theta ** (torch.arange(0, d, 2, dtype=torch.float32) / d)
    ang = pos[:, None].float() * inv[None, :]
    cos, sin = ang.cos(), ang.sin()
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1)
    return out.flatten(-2)


def _course_softmax(x: Any, dim: int) -> Any:
    import torch

    shifted = x - torch.max(x, dim=dim, keepdim=True)[0]
    e = torch.exp(shifted)
    return e / torch.sum(e, dim=dim, keepdim=True)


def _silu(x: Any) -> Any:
    import torch

    return x * torch.sigmoid(x)


def course_model(h: int, width: int, heads: int, layers: int, vocab: int) -> Any:
    import torch
    from torch import nn

    class Block(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.q, self.k, self.v, self.o = (nn.Parameter(torch.randn(h, h) * 0.02) for _ in range(4))
            self.w1, self.w3 = nn.Parameter(torch.randn(width, h) * 0.02), nn.Parameter(torch.randn(width, h) * 0.02)
            self.w2 = nn.Parameter(torch.randn(h, width) * 0.02)
            self.g1, self.g2 = nn.Parameter(torch.ones(h)), nn.Parameter(torch.ones(h))

        @staticmethod
        def norm(x: Any, g: Any) -> Any:
            return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5) * g

        def attn(self, x: Any) -> Any:
            b, s, _ = x.shape
            pos = torch.arange(s)
            def split(t: Any) -> Any:
                return t.view(b, s, heads, h // heads).transpose(1, 2)
            Q = split(torch.einsum("bsd,ed->bse", x, self.q))
            K = split(torch.einsum("bsd,ed->bse", x, self.k))
            V = split(torch.einsum("bsd,ed->bse", x, self.v))
            Q, K = _rope(Q, pos), _rope(K, pos)
            scores = torch.einsum("bhqd,bhkd->bhqk", Q, K) / math.sqrt(h // heads)
            mask = torch.tril(torch.ones(s, s, dtype=torch.bool))
            scores = torch.where(mask, scores, float("-inf"))
            w = _course_softmax(scores, -1)
            out = torch.einsum("bhqk,bhkd->bhqd", w, V).transpose(1, 2).reshape(b, s, h)
            return torch.einsum("bsd,ed->bse", out, self.o)

        def ffn(self, x: Any) -> Any:
            # the course's silu(x) = x * sigmoid(x) as a call: its argument dies when it returns
            return torch.einsum("bse,de->bsd", _silu(torch.einsum("bsd,ed->bse", x, self.w1))
                                * torch.einsum("bsd,ed->bse", x, self.w3), self.w2)

        def forward(self, x: Any) -> Any:
            x = x + self.attn(self.norm(x, self.g1))
            return x + self.ffn(self.norm(x, self.g2))

    class LM(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.emb = nn.Parameter(torch.randn(vocab, h) * 0.02)
            self.blocks = nn.ModuleList(Block() for _ in range(layers))
            self.head = nn.Parameter(torch.randn(vocab, h) * 0.02)

        def forward(self, ids: Any) -> Any:
            x = self.emb[ids]
            for blk in self.blocks:
                x = blk(x)
            return torch.einsum("bsd,vd->bsv", Block.norm(x, 1.0), self.head)

    return LM()


def hf_llama(h: int, width: int, heads: int, layers: int, vocab: int) -> Any:
    from transformers import LlamaConfig, LlamaForCausalLM

    cfg = LlamaConfig(hidden_size=h, intermediate_size=width, num_attention_heads=heads,
                      num_key_value_heads=heads, num_hidden_layers=layers, vocab_size=vocab,
                      max_position_embeddings=4096, attn_implementation="eager")
    cfg._attn_implementation = "eager"
    return LlamaForCausalLM(cfg).eval()


def formulas(b: int, s: int, h: int, width: int, heads: int, score_bytes: float) -> Dict[str, int]:
    """The estimator's fp32 no-grad layer transient before est87 (``sum``: 2h + h + 3 x width +
    scores) and est87's for the hand-written attention (``max``: 2h + max(3 x width, q/k/v + scores))."""
    tokens, scores = b * s, b * heads * s * s * score_bytes
    mlp = tokens * 3 * width * 4
    return {"sum": int(tokens * 2 * h * 4 + mlp + tokens * h * 4 + scores),
            "max": int(tokens * 2 * h * 4 + max(mlp, tokens * 3 * h * 4 + scores))}


CASES = [  # (impl, batch, seq, hidden, MLP width, heads): scores-dominated and MLP-dominated shapes
    ("course", 2, 512, 256, 1024, 8), ("course", 2, 128, 256, 4096, 4),
    ("hf-llama-eager", 2, 512, 256, 1024, 8), ("hf-llama-eager", 2, 128, 256, 4096, 4),
]


def run() -> List[Dict[str, Any]]:
    import torch

    torch.manual_seed(0)
    rows = []
    for impl, b, s, h, width, heads in CASES:
        model = (course_model if impl == "course" else hf_llama)(h, width, heads, 2, 64)
        ids = torch.randint(0, 64, (b, s))
        keep = list(model.parameters()) + list(model.buffers()) + [ids]
        if impl == "course":
            measured = _peak(lambda m=model, i=ids: m(i), keep)
            score_bytes = 16.0     # python_ops.softmax_live_nograd(4, False, "cuda")
        else:
            measured = _peak(lambda m=model, i=ids: m(input_ids=i, use_cache=False).logits, keep)
            score_bytes = 6.0      # inference.eager_softmax_peak for an fp32 Llama
        f = formulas(b, s, h, width, heads, score_bytes)
        rows.append({"impl": impl, "batch": b, "seq": s, "hidden": h, "width": width, "heads": heads,
                     "measured_transient_bytes": measured, "sum_bytes": f["sum"], "max_bytes": f["max"]})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    args = ap.parse_args()
    import torch
    import transformers

    rows = run()
    for r in rows:
        print(r)
    if args.out:
        Path(args.out).write_text(json.dumps({"torch": torch.__version__, "transformers": transformers.__version__,
                                              "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
