"""Measured on a GPU (est44): a block freed on a side stream is not handed to the default stream.

The rule ``estimate/zero3_streams.py`` rests on (PyTorch's caching allocator files every block under
the stream current at its allocation and serves a request only from that stream's cached blocks),
checked on a real device: a 512 MiB buffer allocated and freed on a side stream (as DeepSpeed's
ZeRO-3 gathers are), then 512 MiB on the default stream (as the optimizer step), then 512 MiB on the
side stream again, then 256 MiB on the default stream. Output:
``calibration/data/est44_stream_pool_h200.json`` (one NVIDIA H200, torch 2.11.0+cu130; run on the
device machine lent to est44 as this file's body, ``python3 calibration/stream_pool_check.py``, which
writes ``$OUT/stream_pool.json``). Needs torch with CUDA.
"""

from __future__ import annotations

import json
import os

M = 2 ** 20


def main() -> None:
    import torch

    torch.cuda.init()
    torch.cuda.set_device(0)
    side = torch.cuda.Stream()
    out = {"torch": torch.__version__, "gpu": torch.cuda.get_device_name(0)}
    out["start"] = torch.cuda.memory_reserved()
    with torch.cuda.stream(side):
        a = torch.empty(512 * M, dtype=torch.uint8, device="cuda")   # a 'gathered' buffer on the side stream
        a.fill_(1)
    torch.cuda.synchronize()
    del a
    out["side_freed"] = torch.cuda.memory_reserved()
    b = torch.empty(512 * M, dtype=torch.uint8, device="cuda")       # the 'step' on the default stream
    b.fill_(2)
    out["default_same_size"] = torch.cuda.memory_reserved()
    del b
    with torch.cuda.stream(side):
        c = torch.empty(512 * M, dtype=torch.uint8, device="cuda")   # the next 'gather'
    out["side_again"] = torch.cuda.memory_reserved()
    del c
    d = torch.empty(256 * M, dtype=torch.uint8, device="cuda")       # default, smaller: reuses its own block
    out["default_smaller"] = torch.cuda.memory_reserved()
    out["allocated_end"] = torch.cuda.memory_allocated()
    del d
    print(json.dumps(out))
    with open(os.path.join(os.environ.get("OUT", "."), "stream_pool.json"), "w", encoding="utf-8") as f:
        f.write(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
