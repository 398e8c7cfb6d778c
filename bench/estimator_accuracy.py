"""The estimator against every committed measurement, side by side with torch-preflight.

For each record of ``calibration/data/*.json`` it builds the estimator's input from the
recorded case (``preflight.estimate.inputs.from_calibration_case``), estimates, and prints
the reference peak, the estimate and the signed error, then the mean and worst absolute
error. Against the CPU reference (tensors only) the estimate is compared without the CUDA
context, cuBLAS workspace and fragmentation terms (``Estimate.tensor_peak()``); against GPU
data (``max_memory_allocated``) likewise.

With ``--torch-preflight PATH`` (the ``torch-preflight`` console script of a separate venv)
the same configurations go through ``torch-preflight estimate`` where it can express them:
the model is given as an entry point (this file's :func:`torch_preflight_model`, built on
the meta device) so it measures the real architecture; LoRA cases are skipped (it has no
LoRA), and its CUDA context and fragmentation terms are left out the same way.
``PYTHONPATH`` gives its interpreter this interpreter's torch and transformers.

Usage::

    python bench/estimator_accuracy.py [--torch-preflight /tmp/tpvenv/bin/torch-preflight]
    python bench/estimator_accuracy.py --public [--split held-out|fit|all] [--rows] [--torch-preflight PATH]

``--public`` runs ``bench/public_accuracy.py``: the same estimator against published GPU
measurements (``calibration/public/devset.json``), per half of its split.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "calibration" / "data"
MIB = 2 ** 20

_TP_DTYPE = {"fp32": "fp32", "amp-bf16": "amp", "bf16": "pure-bf16"}


def torch_preflight_model(case: str) -> Any:
    """Entry point for torch-preflight: the fp32, adapter-free model of a matrix case."""
    import dataclasses

    import torch

    sys.path.insert(0, str(REPO))
    from calibration.build import build_model
    from calibration.matrix import by_name

    spec = dataclasses.replace(by_name(case), precision="fp32", lora_r=None, grad_ckpt=False)
    return build_model(spec, torch.device("meta"))


def load_records() -> List[Dict[str, Any]]:
    out = []
    for path in sorted(DATA.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        for rec in doc.get("configs", []):
            measured = rec.get("peak_bytes", rec.get("peak_allocated"))
            out.append({**rec, "source": path.name, "measured": measured})
    return out


def preflight_estimate(rec: Dict[str, Any]) -> Optional[int]:
    from preflight.estimate import estimate
    from preflight.estimate.inputs import from_calibration_case

    est = estimate(from_calibration_case(rec["case"], rec["hf_config"]))
    if not est.ok:
        return None
    peak, _ = est.tensor_peak()
    return int(peak)


def torch_preflight_estimate(exe: str, rec: Dict[str, Any]) -> Optional[int]:
    case = rec["case"]
    if case.get("lora_r"):
        return None  # torch-preflight cannot express LoRA
    cmd = [exe, "estimate", "--model", f"{Path(__file__).resolve()}:torch_preflight_model",
           "--model-args", f"case={rec['name']}", "--batch-size", str(case["batch"]),
           "--dtype", _TP_DTYPE[case["precision"]], "--optimizer", case["optimizer"],
           "--gpu-memory", "1000GiB", "-f", "json"]
    if case.get("seq_len"):
        cmd += ["--seq-len", str(case["seq_len"])]
    if case.get("image_size"):
        cmd += ["--image-size", str(case["image_size"])]
    if case.get("grad_ckpt"):
        cmd.append("--checkpointing")
    if case.get("attention") == "sdpa":
        cmd.append("--flash")
    paths = [str(REPO), *[p for p in sys.path if p.endswith("site-packages")]]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    try:
        doc = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return None
    if not doc.get("resolved", True) or "total_bytes" not in doc:
        return None
    overhead = sum(int(doc.get("breakdown", {}).get(k, 0)) for k in ("CUDA_context",
                                                                         "fragmentation"))
    return int(doc["total_bytes"]) - overhead


def _summary(label: str, errors: List[float]) -> str:
    if not errors:
        return f"{label}: no comparable configurations"
    mean = sum(abs(e) for e in errors) / len(errors)
    worst = max(errors, key=abs)
    low = sum(1 for e in errors if e < 0)
    return (f"{label}: {len(errors)} configurations, mean |error| {mean:.1%}, worst "
            f"{worst:+.1%}, {low} below the measurement")


def main(argv: Optional[List[str]] = None) -> int:
    args_in = list(sys.argv[1:] if argv is None else argv)
    if args_in[:1] == ["--public"]:
        # the public GPU measurements (held-out half by default): bench/public_accuracy.py
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import public_accuracy

        return public_accuracy.main(args_in[1:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--torch-preflight", metavar="PATH",
                        help="torch-preflight console script (a separate venv) to compare")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO))
    records = load_records()
    if not records:
        print(f"no measurements under {DATA}")
        return 1
    head = f"{'configuration':40s} {'measured':>10s} {'preflight':>10s} {'error':>7s}"
    if args.torch_preflight:
        head += f" {'torch-pf':>10s} {'error':>7s}"
    print(head + "   (MiB, tensor-level)")
    ours: List[float] = []
    theirs: List[float] = []
    both_ours: List[float] = []
    for rec in records:
        measured = rec["measured"]
        est = preflight_estimate(rec)
        line = f"{rec['name']:40s} {measured / MIB:10.1f} "
        if est is None:
            line += f"{'-':>10s} {'-':>7s}"
        else:
            err = (est - measured) / measured
            ours.append(err)
            line += f"{est / MIB:10.1f} {err:+7.1%}"
        if args.torch_preflight:
            tp = torch_preflight_estimate(args.torch_preflight, rec)
            if tp is None:
                line += f" {'-':>10s} {'-':>7s}"
            else:
                terr = (tp - measured) / measured
                theirs.append(terr)
                if est is not None:
                    both_ours.append((est - measured) / measured)
                line += f" {tp / MIB:10.1f} {terr:+7.1%}"
        print(line, flush=True)
    print()
    print(_summary("preflight", ours))
    if args.torch_preflight:
        print(_summary("torch-preflight", theirs))
        print(_summary("preflight on the same configurations", both_ours))
    return 0


if __name__ == "__main__":
    sys.exit(main())
