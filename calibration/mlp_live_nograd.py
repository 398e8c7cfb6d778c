"""MLP-width tensors alive at once in a no-grad MLP forward, by activation (CPU, random weights).

Inference and generation have no saved tensors: an MLP's transient is what is alive at the same
time while it runs. This script runs ``fc -> act -> proj`` under ``torch.no_grad()`` inside a
``TorchDispatchMode`` that adds every new output storage when an op returns it and removes it when
the storage is freed (``weakref.finalize``), and reports the peak in units of one MLP-width tensor
(tokens x width x element size), the MLP's input, weights and the ``proj`` output's width excluded
(the caller counts them). The activations are written as the libraries write them:

- ``gelu``: ``torch.nn.functional.gelu`` (one kernel: transformers' ``GELUActivation``);
- ``gelu_new``: transformers 4.57.1 ``activations.py`` line 62, ``NewGELUActivation.forward``:
  ``0.5 * input * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (input + 0.044715 *
  torch.pow(input, 3.0))))`` (GPT-2's default ``activation_function``; the same line in 5.14.1);
- ``swiglu``: transformers' Llama MLP, ``down_proj(act_fn(gate_proj(x)) * up_proj(x))``
  (``modeling_llama.py`` ``LlamaMLP.forward``, 4.57.1 and 5.14.1) with ``F.silu``.

The estimator's prefill / inference transient (``preflight/estimate/inference.py``) charges
``constants.MLP_LIVE_NOGRAD`` MLP-width tensors per token: ``PY_GELU_MLP_LIVE`` (4) for the
Python-written tanh GELU, 3 otherwise (a gated MLP's gate-activation, up and product).

Run with any torch (no GPU, no transformers needed)::

    python calibration/mlp_live_nograd.py --out calibration/data/mlp_live_nograd.json
"""

from __future__ import annotations

import argparse
import json
import math
import weakref
from pathlib import Path
from typing import Any


def measure(act: str, tokens: int = 64, hidden: int = 32, width: int = 128) -> float:
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode

    torch.manual_seed(0)
    x = torch.randn(1, tokens, hidden)
    fc = torch.nn.Linear(hidden, width)
    up = torch.nn.Linear(hidden, width)
    proj = torch.nn.Linear(width, hidden)
    before = {t.untyped_storage().data_ptr() for t in (*fc.parameters(), *up.parameters(),
                                                       *proj.parameters(), x)}

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

    def gelu_new(input: Any) -> Any:
        return 0.5 * input * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (input + 0.044715 * torch.pow(input, 3.0))))

    mode = Live()
    with torch.no_grad(), mode:
        if act == "swiglu":
            h = proj(torch.nn.functional.silu(fc(x)) * up(x))
        else:
            h = fc(x)
            h = (torch.nn.functional.gelu if act == "gelu" else gelu_new)(h)
            h = proj(h)
    del h
    return mode.peak / (tokens * width * 4)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    import torch

    result = {"torch": torch.__version__, "unit": "MLP-width tensors (tokens x width x element size)",
              "live_peak": {act: measure(act) for act in ("gelu", "gelu_new", "swiglu")}}
    text = json.dumps(result, indent=1, sort_keys=True)
    if args.out:
        args.out.write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
