"""GPU harness: the calibration matrix on a real CUDA device, as one prepared command.

Runs every case of `calibration.matrix` with real weights on the GPU, each in a fresh child
process (so allocator state and the CUDA context of one case do not leak into the next),
two training steps each, exactly the loop of the CPU reference (`calibration/build.py`).
Per phase it records `torch.cuda.max_memory_allocated()` and `max_memory_reserved()`
(peak statistics reset at the start of every phase) and the allocated/reserved bytes at
the end of the phase. Per case it records the CUDA context: device memory in use by the
driver before the child touches CUDA (nvidia-smi / NVML) and after `torch.cuda.init()`
plus one tiny allocation (`torch.cuda.mem_get_info()`), minus what the caching allocator
reserved; and the device memory in use at the end of the case (context + reserved +
library workspaces allocated outside the caching allocator).

Usage on a device machine, from the repository root (writes one JSON file)::

    python -m calibration.gpu --out "$OUT/gpu_reference.json" [NAME ...] [--part K/N]

Needs torch with CUDA, transformers and peft. Not run so far: no device machine was lent to
the task that wrote it (see calibration/README.md).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

from calibration.matrix import by_name, select

CASE_TIMEOUT_S = 600


def _driver_used_bytes(index: int) -> Optional[int]:
    """Device memory in use as the driver reports it, without creating a CUDA context."""
    smi = shutil.which("nvidia-smi")
    if smi:
        try:
            out = subprocess.run(
                [smi, f"--id={index}", "--query-gpu=memory.used", "--format=csv,noheader,nounits"],
                capture_output=True, text=True, timeout=30, check=True).stdout.strip()
            return int(float(out.splitlines()[0])) * 2**20  # MiB
        except (subprocess.SubprocessError, ValueError, IndexError, OSError):
            pass
    try:
        import pynvml  # type: ignore[import-not-found]

        pynvml.nvmlInit()
        handle = pynvml.nvmlDeviceGetHandleByIndex(index)
        return int(pynvml.nvmlDeviceGetMemoryInfo(handle).used)
    except Exception:
        return None


def measure_one(name: str, index: int = 0) -> Dict[str, Any]:
    """Child process: one case on cuda:`index`. Imports torch here, after the driver read."""
    before = _driver_used_bytes(index)
    import torch

    from calibration import build

    case = by_name(name)
    device = torch.device("cuda", index)
    torch.cuda.init()
    torch.empty(1, device=device)
    torch.cuda.synchronize(device)
    free, total = torch.cuda.mem_get_info(device)
    used_after_init = total - free
    reserved_init = torch.cuda.memory_reserved(device)
    context = None if before is None else used_after_init - before - reserved_init

    torch.manual_seed(0)
    started = time.perf_counter()
    config = build.hf_config(case)
    model = build.build_model(case, device)
    optimizer = build.build_optimizer(case, model)
    batch = build.build_batch(case, config, device)
    params = build.param_summary(model)
    torch.cuda.synchronize(device)
    start_alloc = torch.cuda.memory_allocated(device)
    steps: List[Dict[str, Any]] = []
    overall_alloc = overall_reserved = 0
    for _ in range(2):
        record: Dict[str, Any] = {}
        for phase, run in build.phases(case, model, optimizer, batch, device):
            torch.cuda.reset_peak_memory_stats(device)
            run()
            torch.cuda.synchronize(device)
            rec = {
                "max_allocated": torch.cuda.max_memory_allocated(device),
                "max_reserved": torch.cuda.max_memory_reserved(device),
                "end_allocated": torch.cuda.memory_allocated(device),
                "end_reserved": torch.cuda.memory_reserved(device),
            }
            overall_alloc = max(overall_alloc, rec["max_allocated"])
            overall_reserved = max(overall_reserved, rec["max_reserved"])
            record[phase] = rec
        steps.append(record)
    free_end, _ = torch.cuda.mem_get_info(device)
    props = torch.cuda.get_device_properties(device)
    return {
        "name": case.name,
        "case": case.describe(),
        "model_class": type(model).__name__,
        "hf_config": build.config_dict(config),
        "params": params,
        "start_allocated": start_alloc,
        "peak_allocated": overall_alloc,
        "peak_reserved": overall_reserved,
        "steps": steps,
        "cuda": {
            "driver_used_before_init": before,
            "used_after_init": used_after_init,
            "reserved_after_init": reserved_init,
            "context_bytes": context,
            "used_at_end": total - free_end,
            "reserved_at_end": torch.cuda.memory_reserved(device),
            "device_total": total,
            "device_name": props.name,
            "capability": f"{props.major}.{props.minor}",
        },
        "seconds": round(time.perf_counter() - started, 2),
    }


def _versions() -> Dict[str, Any]:
    code = ("import json, torch, transformers\n"
            "try:\n import peft; pv = peft.__version__\nexcept ImportError:\n pv = None\n"
            "print(json.dumps({'torch': torch.__version__, 'cuda': torch.version.cuda,"
            " 'cudnn': torch.backends.cudnn.version(), 'transformers':"
            " transformers.__version__, 'peft': pv}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    return {"python": platform.python_version(), **json.loads(out)}


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="run only cases whose name contains one")
    parser.add_argument("--out", type=Path, required=False)
    parser.add_argument("--device-index", type=int, default=0)
    parser.add_argument("--part", default="1/1", metavar="K/N",
                        help="run the K-th of N equal slices of the selected cases (split a "
                             "long run over several device calls)")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # child mode: one case, JSON on stdout
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(measure_one(args.one, args.device_index)))
        return 0
    if args.out is None:
        parser.error("--out is required")
    cases = select(args.names)
    k, n = (int(x) for x in args.part.split("/"))
    cases = cases[(k - 1) * len(cases) // n: k * len(cases) // n]
    records, failed = [], []
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    for case in cases:
        proc = subprocess.run(
            [sys.executable, "-m", "calibration.gpu", "--one", case.name,
             "--device-index", str(args.device_index)],
            capture_output=True, text=True, env=env, timeout=CASE_TIMEOUT_S)
        if proc.returncode != 0:
            failed.append({"name": case.name, "error": proc.stderr[-2000:]})
            print(f"{case.name:40s} FAILED (exit {proc.returncode})", flush=True)
            continue
        rec = json.loads(proc.stdout.strip().splitlines()[-1])
        records.append(rec)
        print(f"{case.name:40s} max_allocated {rec['peak_allocated'] / 2**20:9.1f} MiB  "
              f"max_reserved {rec['peak_reserved'] / 2**20:9.1f} MiB  "
              f"context {(rec['cuda']['context_bytes'] or 0) / 2**20:7.1f} MiB", flush=True)
    doc = {
        "version": 1,
        "kind": "gpu-measurement",
        "tool": "torch.cuda.max_memory_allocated / max_memory_reserved per phase, "
                "torch.cuda.mem_get_info and nvidia-smi for the context",
        "units": "bytes",
        "steps_per_case": 2,
        "versions": _versions(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "command": "python -m calibration.gpu " + " ".join(
            sys.argv[1:] if argv is None else argv),
        "configs": records,
        "failed": failed,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(records)} cases to {args.out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
