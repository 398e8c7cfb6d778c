"""Does autocast's weight cache keep the cast of a weight passed as a view (``x @ w.T``)? (est75)

torch's ``cached_cast`` (``aten/src/ATen/autocast_mode.cpp``) caches the lower-precision cast of an argument
only when ``arg.requires_grad() && arg.is_leaf() && !arg.is_view()``. A linear layer written by hand as
``x @ weight.T`` (or ``torch.matmul(x, weight.t())``) hands autocast the transpose, a view: the cast is made
for the call and freed after it, so a forward pass without backward holds no cast copies at its end. This
script measures it on the CPU (CPU autocast runs the same ``cached_cast``) with a ``TorchDispatchMode`` that
adds each new output storage and removes it when it is freed (``weakref.finalize``, as
``calibration/mlp_live_nograd.py`` does), for a stack of fp32 weight matrices under
``torch.autocast('cpu', torch.bfloat16)``:

- ``F.linear(x, w)`` (``nn.Linear``): the parameter itself;
- ``x @ w.T`` and ``torch.matmul(x, w.t())``: a transposed view;
- ``torch.einsum('...i,oi->...o', x, w)`` (the CS336 course ``Linear``): the parameter itself at the call, but
  ``einsum`` is on CUDA's lower-precision list only (``AT_FORALL_LOWER_PRECISION_FP``), not CPU autocast's: on the
  CPU it decomposes into ``bmm`` of reshaped views and nothing is cached (0.0 here); on CUDA it casts ``w`` itself
  and caches it (held-out-33's damek rows: 6.28 GiB measured for the 2.7B model's 6.30 GiB of bf16 copies);
- ``x @ w`` with the weight stored as (in, out): the parameter itself.

It reports, per way, the bytes still live at the end of the autocast region's forward (before it exits) and
their ratio to one bf16 copy of all weights (1.0: every weight's cast is cached; 0.0: none), in no-grad and in
grad mode (in grad mode autograd saves the view's cast for the backward anyway, so the live bytes are the
same either way). Run with any torch (no GPU):

    python calibration/autocast_view_cache.py       # writes calibration/data/autocast_view_cache.json
"""

from __future__ import annotations

import json
import sys
import weakref
from pathlib import Path
from typing import Any, Callable

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

OUT = Path(__file__).resolve().parent / "data" / "autocast_view_cache.json"


class Live(TorchDispatchMode):
    """Live bytes of the storages created inside the mode (each storage counted once)."""

    def __init__(self, before: set[int]) -> None:
        super().__init__()
        self.before = before
        self.cur = 0
        self.peak = 0
        self.seen: set[int] = set()

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        out = func(*args, **(kwargs or {}))
        for t in out if isinstance(out, (tuple, list)) else (out,):
            if not isinstance(t, torch.Tensor):
                continue
            st = t.untyped_storage()
            key = st.data_ptr()
            if key in self.seen or key in self.before or st.nbytes() == 0:
                continue
            self.seen.add(key)
            self.cur += st.nbytes()
            self.peak = max(self.peak, self.cur)
            weakref.finalize(st, self._free, st.nbytes(), key)
        return out

    def _free(self, n: int, key: int) -> None:
        self.cur -= n
        self.seen.discard(key)


WAYS: dict[str, Callable[[Any, Any], Any]] = {
    "F.linear(x, w)": lambda x, w: F.linear(x, w),
    "x @ w.T": lambda x, w: x @ w.T,
    "torch.matmul(x, w.t())": lambda x, w: torch.matmul(x, w.t()),
    "einsum(x, w)": lambda x, w: torch.einsum("...i,oi->...o", x, w),
    "x @ w (stored in x out)": lambda x, w: x @ w,
}


def measure(way: str, grad: bool, layers: int = 8, width: int = 256, tokens: int = 4) -> dict[str, float]:
    torch.manual_seed(0)
    ws = [torch.nn.Parameter(torch.randn(width, width) / width ** 0.5) for _ in range(layers)]
    x = torch.randn(tokens, width)
    before = {t.untyped_storage().data_ptr() for t in (*ws, x)}
    copy = sum(w.numel() for w in ws) * 2  # one bf16 copy of every weight
    fn = WAYS[way]
    mode = Live(before)
    ctx = torch.enable_grad() if grad else torch.no_grad()
    with ctx, mode:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            h = x
            for w in ws:
                h = fn(h, w)
            end = h.untyped_storage().nbytes()
            live_in_region = mode.cur - end  # what is held besides the output
        after_exit = mode.cur - end
    return {"live_before_exit_bytes": live_in_region, "live_after_exit_bytes": after_exit,
            "weights_bf16_bytes": copy, "cached_fraction": round(live_in_region / copy, 4)}


def main() -> int:
    res: dict[str, Any] = {"torch": torch.__version__, "device": "cpu", "dtype": "bfloat16",
                           "layers": 8, "width": 256, "tokens": 4, "no_grad": {}, "grad": {}}
    for grad in (False, True):
        for way in WAYS:
            r = measure(way, grad)
            res["grad" if grad else "no_grad"][way] = r
            print(f"{'grad   ' if grad else 'no_grad'} {way:26s} held at the region's end / one bf16 copy of the "
                  f"weights: {r['cached_fraction']:.3f}  (after exit {r['live_after_exit_bytes'] / r['weights_bf16_bytes']:.3f})")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(res, indent=1) + "\n")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
