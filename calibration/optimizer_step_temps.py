"""The storages torch's AdamW step allocates beyond its parameters, gradients and states, by implementation (est77).

``preflight/estimate/terms_optim.optimizer_temporaries`` charges the step: the foreach path one fp32 list the
size of every trained parameter (two before torch 2.1), the for-loop two tensors the size of the largest
parameter, the fused kernel (``fused=True``, estimator optimizer ``adamw-fused``) none. This measures the three
on the CPU (torch's fused AdamW has a CPU kernel from 2.4), second step (states exist): a ``TorchDispatchMode``
adds each new output storage of an aten op and removes it when the storage is freed (``weakref.finalize``, as
``calibration/mlp_live_nograd.py`` does), and reports the peak of what is alive at once, in units of the largest
parameter and of the whole parameter list (fp32). Scratch a kernel allocates inside one aten op is not seen (the
CUDA fused kernel's ``multi_tensor_apply`` metadata is a few KiB). Run with torch >= 2.4 (no GPU):

    python calibration/optimizer_step_temps.py     # writes calibration/data/optimizer_step_temps.json
"""

from __future__ import annotations

import json
import sys
import weakref
from pathlib import Path
from typing import Any, Dict

OUT = Path(__file__).resolve().parent / "data" / "optimizer_step_temps.json"
SHAPES = ((512, 1024), (1024, 256), (256,), (300, 300))   # the largest: 512 x 1024


def measure(**kw: Any) -> Dict[str, float]:
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode

    torch.manual_seed(0)
    params = [torch.nn.Parameter(torch.randn(*s)) for s in SHAPES]
    opt = torch.optim.AdamW(params, lr=1e-3, **kw)

    def grads() -> None:
        for p in params:
            p.grad = torch.randn_like(p)

    grads()
    opt.step()   # the first step creates the states
    grads()
    before = {t.untyped_storage().data_ptr() for t in params}
    before |= {p.grad.untyped_storage().data_ptr() for p in params if p.grad is not None}
    for st in opt.state.values():
        before |= {v.untyped_storage().data_ptr() for v in st.values() if isinstance(v, torch.Tensor)}

    class Live(TorchDispatchMode):
        def __init__(self) -> None:
            super().__init__()
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
                if key in self.seen or key in before or st.nbytes() == 0:
                    continue
                self.seen.add(key)
                self.cur += st.nbytes()
                self.peak = max(self.peak, self.cur)
                weakref.finalize(st, self._free, st.nbytes(), key)
            return out

        def _free(self, n: int, key: int) -> None:
            self.cur -= n
            self.seen.discard(key)

    live = Live()
    with live:
        opt.step()
    largest = max(p.numel() for p in params) * 4
    total = sum(p.numel() for p in params) * 4
    return {"peak_bytes": float(live.peak), "largest_param_bytes": float(largest),
            "param_list_bytes": float(total), "in_largest": live.peak / largest, "in_list": live.peak / total}


def main() -> int:
    import torch

    got = {"torch": torch.__version__, "shapes": [list(s) for s in SHAPES],
           "foreach": measure(foreach=True), "for_loop": measure(foreach=False), "fused": measure(fused=True)}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(got, indent=1) + "\n", encoding="utf-8")
    for name in ("foreach", "for_loop", "fused"):
        r = got[name]
        print(f"{name:9s} peak {r['peak_bytes'] / 2**20:7.3f} MiB = {r['in_largest']:.3f} x largest parameter "
              f"= {r['in_list']:.3f} x the parameter list")
    return 0


if __name__ == "__main__":
    sys.exit(main())
