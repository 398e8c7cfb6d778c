"""est36: count the tensors ``AutoencoderKL.encode`` keeps alive at once (CPU, under no_grad).

Not part of the package or the tests (diffusers is no dependency of preflight). It checks the
arithmetic of ``preflight/estimate/vae_encode.py`` against the library itself: a
``TorchDispatchMode`` records each op's output storage and drops it when the last tensor on it
is collected, so its peak is the largest set of tensors the encode holds at once (the input
images excluded). Run with diffusers installed::

    python calibration/public/est36_vae_encode_live.py

Output with diffusers 0.30.3 and torch 2.13.0 (CPU), batch 2 at 64x64 px, SD's VAE layout
(block_out_channels 128/256/512/512): 4.000 maps with layers_per_block 1, 5.000 with 2 and 3.
"""

from __future__ import annotations

import weakref

import torch
from diffusers.models import AutoencoderKL
from torch.utils._python_dispatch import TorchDispatchMode


class LiveBytes(TorchDispatchMode):
    """Peak bytes of distinct output storages alive at once."""

    def __init__(self) -> None:
        super().__init__()
        self.refs: dict[int, int] = {}
        self.size: dict[int, int] = {}
        self.cur = self.peak = 0

    def _drop(self, ptr: int) -> None:
        self.refs[ptr] -= 1
        if self.refs[ptr] == 0:
            self.cur -= self.size.pop(ptr)
            del self.refs[ptr]

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for t in out if isinstance(out, (tuple, list)) else [out]:
            if isinstance(t, torch.Tensor):
                ptr = t.untyped_storage().data_ptr()
                if ptr not in self.refs:
                    self.refs[ptr] = 0
                    self.size[ptr] = t.untyped_storage().nbytes()
                    self.cur += self.size[ptr]
                    self.peak = max(self.peak, self.cur)
                self.refs[ptr] += 1
                weakref.finalize(t, self._drop, ptr)
        return out


def main() -> None:
    batch, res, ch = 2, 64, 128
    one_map = batch * ch * res * res * 4
    for lpb in (1, 2, 3):
        torch.manual_seed(0)
        vae = AutoencoderKL(block_out_channels=[ch, 256, 512, 512], layers_per_block=lpb, latent_channels=4,
                            down_block_types=["DownEncoderBlock2D"] * 4,
                            up_block_types=["UpDecoderBlock2D"] * 4).eval()
        x = torch.randn(batch, 3, res, res)
        mode = LiveBytes()
        with torch.no_grad(), mode:
            vae.encode(x)
        print(f"layers_per_block={lpb}: peak {mode.peak} bytes = {mode.peak / one_map:.3f} full-resolution "
              f"maps of {ch} channels")


if __name__ == "__main__":
    main()
