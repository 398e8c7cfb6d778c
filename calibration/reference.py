"""CPU reference harness: tensor-level peak memory of real training steps, without memory.

For every case of `calibration.matrix` it builds the real transformers model from its config
inside `torch._subclasses.fake_tensor.FakeTensorMode` (tensors carry shapes and dtypes, no
storage is allocated), then runs TWO training steps (forward, backward, optimizer step +
zero_grad each) inside `torch.distributed._tools.mem_tracker.MemTracker`, which attributes
every live tensor storage to a category (parameter, buffer, gradient, activation, temporary,
optimizer state) and keeps the peak. Two steps because the optimizer state is created
lazily during the first step, so the steady-state peak (states + activations + gradients)
only appears in the second.

Per phase it records the peak (bytes and the category split at that moment) and the bytes
live at the end of the phase. Bytes are exact storage sizes (CPU tensors: no allocator
rounding, no CUDA context, no fragmentation: those come from the GPU harness).

Usage (from the repository root)::

    python -m calibration.reference [--out calibration/data/cpu_reference.json] [NAME ...]
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

import torch
from torch._subclasses.fake_tensor import FakeTensorMode

from calibration import build
from calibration.matrix import MATRIX, Case, select
from preflight.guard.tracking import (
    CATEGORIES,
    FakeSwap,
    FrozenAwareMemTracker,
    ScalarStub,
    reset_peak,
    split,
)

DEFAULT_OUT = Path(__file__).resolve().parent / "data" / "cpu_reference.json"
STEPS = 2


def measure(case: Case) -> Dict[str, Any]:
    """Build and run one case under FakeTensorMode + MemTracker; the record for the data file."""
    device = torch.device("cpu")
    started = time.perf_counter()
    torch.manual_seed(0)
    config = build.hf_config(case)
    model = build.build_model(case, torch.device("meta"))
    fake_mode = FakeTensorMode()
    with FakeSwap(model, fake_mode, device), fake_mode, ScalarStub():
        optimizer = build.build_optimizer(case, model)
        batch = build.build_batch(case, config, device)
        params = build.param_summary(model)
        mt = FrozenAwareMemTracker()
        mt.track_external(model, optimizer, *batch.values())
        steps: List[Dict[str, Any]] = []
        with mt:
            start = split(mt.get_tracker_snapshot("current"))
            for _ in range(STEPS):
                record: Dict[str, Any] = {}
                mt.reset_mod_stats()  # per-module stats allow one iteration; totals go on
                for phase, run in build.phases(case, model, optimizer, batch, device):
                    reset_peak(mt)
                    run()
                    peak = split(mt.get_tracker_snapshot("peak"))
                    end = split(mt.get_tracker_snapshot("current"))
                    record[phase] = {"peak_bytes": peak["total"], "peak_by_category": peak,
                                     "end_bytes": end["total"], "end_by_category": end}
                steps.append(record)
    best_phase, best = "", {"peak_bytes": -1}
    for i, record in enumerate(steps, 1):
        for phase, figures in record.items():
            if figures["peak_bytes"] > best["peak_bytes"]:
                best_phase, best = f"step{i}.{phase}", figures
    return {
        "name": case.name,
        "case": case.describe(),
        "model_class": type(model).__name__,
        "hf_config": build.config_dict(config),
        "params": params,
        "start_bytes": start["total"],
        "start_by_category": start,
        "peak_bytes": best["peak_bytes"],
        "peak_phase": best_phase,
        "peak_by_category": best["peak_by_category"],
        "steps": steps,
        "seconds": round(time.perf_counter() - started, 2),
    }


def _versions() -> Dict[str, Optional[str]]:
    import transformers

    try:
        import peft

        peft_version: Optional[str] = peft.__version__
    except ImportError:
        peft_version = None
    return {"python": platform.python_version(), "torch": torch.__version__,
            "transformers": transformers.__version__, "peft": peft_version}


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="run only cases whose name contains one")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--merge", action="store_true",
                        help="keep the other cases already in --out (rerun a few cases)")
    args = parser.parse_args(argv)
    cases = select(args.names)
    if not cases:
        parser.error("no case matches")
    records, failed = [], []
    for case in cases:
        try:
            rec = measure(case)
        except Exception as exc:  # one broken case must not lose the others' figures
            failed.append(case.name)
            print(f"{case.name:40s} FAILED: {type(exc).__name__}: {exc}", flush=True)
            continue
        records.append(rec)
        print(f"{case.name:40s} peak {rec['peak_bytes'] / 2**20:9.1f} MiB at "
              f"{rec['peak_phase']:18s} ({rec['seconds']:.1f} s)", flush=True)
    command = "python -m calibration.reference " + " ".join(
        sys.argv[1:] if argv is None else argv)
    if args.merge and args.out.exists():
        fresh = {r["name"] for r in records}
        previous = json.loads(args.out.read_text(encoding="utf-8"))
        records += [r for r in previous["configs"] if r["name"] not in fresh]
        order = {c.name: i for i, c in enumerate(MATRIX)}
        records = [r for r in records if r["name"] in order]  # cases no longer in the matrix
        records.sort(key=lambda r: order[r["name"]])
        command = f"{previous['command'].strip()} && {command.strip()}"
    doc = {
        "version": 1,
        "kind": "cpu-fake-tensor-reference",
        "tool": "torch.distributed._tools.mem_tracker.MemTracker under "
                "torch._subclasses.fake_tensor.FakeTensorMode (CPU device)",
        "units": "bytes",
        "steps_per_case": STEPS,
        "versions": _versions(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "command": command.strip(),
        "categories": {v: k for k, v in CATEGORIES.items()},
        "configs": records,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(records)} cases to {args.out}")
    if failed:
        print(f"{len(failed)} case(s) failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
