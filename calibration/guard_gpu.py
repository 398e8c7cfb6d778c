"""Device-machine check of the runtime guard: its projection against the real CUDA peak.

For each selected case of the calibration matrix (default: every case), in a fresh child
process: build the model with real weights on ``cuda:0``, let :class:`preflight.guard.VRAMGuard`
project the peak of the case's batch (fake step on CUDA kernels, nothing allocated), then
run the same two real training steps inside the guard. On exit the guard compares its
tensor-level projection with ``torch.cuda.max_memory_allocated()``; this script writes
every comparison to one JSON file (the guard's own ``record=`` format).

Usage on a device machine, from the repository root::

    python -m calibration.guard_gpu --out "$OUT/guard_gpu.json" [NAME ...]

Not run so far: no device machine was lent to the task that wrote it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import List, Optional

from calibration.matrix import by_name, select


def run_one(name: str, out: Path) -> None:
    import torch

    from calibration import build
    from preflight.guard import VRAMGuard

    case = by_name(name)
    device = torch.device("cuda", 0)
    torch.manual_seed(0)
    config = build.hf_config(case)
    model = build.build_model(case, device)
    optimizer = build.build_optimizer(case, model)
    batch = build.build_batch(case, config, device)
    autocast = torch.bfloat16 if case.precision == "amp-bf16" else None
    with VRAMGuard(model, optimizer, batch=batch, device=device, autocast_dtype=autocast,
                   raise_on="never", record=out):
        for _ in range(2):
            for _phase, run in build.phases(case, model, optimizer, batch, device):
                run()
        torch.cuda.synchronize(device)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        run_one(args.one, args.out)
        return 0
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    failed = 0
    for case in select(args.names):
        proc = subprocess.run([sys.executable, "-m", "calibration.guard_gpu", "--one",
                               case.name, "--out", str(args.out)],
                              capture_output=True, text=True, env=env, timeout=600)
        if proc.returncode != 0:
            failed += 1
            print(f"{case.name:40s} FAILED\n{proc.stderr[-1500:]}", flush=True)
            continue
        last = json.loads(args.out.read_text(encoding="utf-8"))["records"][-1]["measured"]
        err = last.get("error")
        print(f"{case.name:40s} projected {last['projected_tensor_peak'] / 2**20:9.1f} MiB  "
              f"max_allocated {(last['max_allocated'] or 0) / 2**20:9.1f} MiB  error "
              f"{'-' if err is None else f'{err:+.1%}'}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
