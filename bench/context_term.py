"""The ``cuda_context`` term against public figures (calibration/public/context_measurements.json), est30.

Fits the lazy-loading term (base + bytes per resident thread, resident threads = SMs x the most threads
an SM keeps resident) on the fitting rows with a Theil-Sen line (the median of the pairwise slopes: a few
jobs hold memory of their own outside PyTorch, and one such row must not set the slope), then scores the
held-out rows against the term before est30 (one 253.75 MiB context for every GPU) and after.

Run: python bench/context_term.py [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from itertools import combinations
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "calibration" / "public" / "context_measurements.json"
MIB = 2 ** 20
#: GPUs of the rows that are not in the catalog (NVIDIA's specification: 20 SMs, sm_89).
EXTRA_SMS = ((r"^rtx-4050-laptop", 20, 1536),)


def resident_threads(gpu: str) -> Optional[int]:
    """SMs x resident threads per SM for a row's GPU, None when the row does not name it."""
    from preflight.estimate import constants as C

    for pattern, sms, per_sm in (*C.GPU_SMS, *EXTRA_SMS):
        if re.match(pattern, gpu.replace(" ", "-") + "-"):
            return sms * per_sm
    return None


def rows() -> List[Dict[str, Any]]:
    data: List[Dict[str, Any]] = json.loads(DATA.read_text())["rows"]
    return [r for r in data if r["value_bytes"] is not None and not r.get("excluded")]


def lazy_one_gpu(r: Dict[str, Any]) -> bool:
    return (r["loading"] == "lazy" and r["world_size"] == 1
            and r["quantity"] in ("bare_context", "in_step"))


def theil_sen(points: List[Tuple[float, float]]) -> Tuple[float, float]:
    """(intercept, slope): the median pairwise slope and the median intercept under it."""
    slopes = [(y2 - y1) / (x2 - x1) for (x1, y1), (x2, y2) in combinations(points, 2) if x2 != x1]
    slope = statistics.median(slopes)
    return statistics.median(y - slope * x for x, y in points), slope


def fit() -> Tuple[float, float, List[Dict[str, Any]]]:
    used = [r for r in rows() if r["split"] == "fit" and lazy_one_gpu(r) and resident_threads(r["gpu"])]
    base, per_thread = theil_sen([(float(resident_threads(r["gpu"]) or 0), float(r["value_bytes"]))
                                  for r in used])
    return base, per_thread, used


def term_after(gpu: str) -> int:
    """The estimator's lazy-loading context for a row's GPU (preflight.estimate.gpu_facts.lazy_context)."""
    from preflight.estimate.gpu_facts import lazy_context

    return lazy_context(resident_threads(gpu))[0]


def term_before() -> int:
    from preflight.estimate import constants as C

    return int(C.CUDA_CONTEXT_BYTES)


def _summary(errs: List[float]) -> Dict[str, Any]:
    return {"n": len(errs), "mean_abs": statistics.mean(abs(e) for e in errs),
            "mean_signed": statistics.mean(errs), "worst": max(errs, key=abs)}


def score(split: str) -> Dict[str, Any]:
    scored = [r for r in rows() if r["split"] == split and lazy_one_gpu(r)]
    named = [r for r in scored if resident_threads(r["gpu"])]
    out: Dict[str, Any] = {"rows": []}
    for name, term in (("before", lambda r: term_before()), ("after", lambda r: term_after(r["gpu"]))):
        out[name] = _summary([(term(r) - r["value_bytes"]) / r["value_bytes"] for r in scored])
        # the rows whose GPU is named: the only ones where the term differs from before
        out[name + "_named_gpu"] = _summary([(term(r) - r["value_bytes"]) / r["value_bytes"] for r in named])
    from preflight.estimate.gpu_facts import lazy_context

    out["after_named_gpu"]["inside"] = sum(
        1 for r in named
        if lazy_context(resident_threads(r["gpu"]))[1][0] <= r["value_bytes"] <= lazy_context(resident_threads(r["gpu"]))[1][1])
    for r in scored:
        out["rows"].append({"id": r["id"], "gpu": r["gpu"], "measured_mib": r["value_bytes"] / MIB,
                            "before_mib": term_before() / MIB, "after_mib": term_after(r["gpu"]) / MIB})
    return out


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="write the fit and the scores as JSON")
    args = ap.parse_args(argv)
    base, per_thread, used = fit()
    print(f"fit (Theil-Sen, {len(used)} rows): base {base / MIB:.1f} MiB + {per_thread:.0f} B x resident threads")
    result = {"line": {"base_bytes": base, "per_thread_bytes": per_thread, "rows": [r["id"] for r in used]}}
    for split in ("fit", "held-out"):
        s = score(split)
        result[split] = s
        print(f"\n{split} ({s['after']['n']} one-GPU lazy rows):")
        for r in s["rows"]:
            print(f"  {r['id']:16} {r['gpu'][:26]:26} measured {r['measured_mib']:7.0f} MiB  "
                  f"before {r['before_mib']:6.0f}  after {r['after_mib']:6.0f}")
        for name in ("before", "after", "before_named_gpu", "after_named_gpu"):
            m = s[name]
            print(f"  {name:16}: n {m['n']:2}  mean abs {m['mean_abs']:.1%}  mean signed {m['mean_signed']:+.1%}  "
                  f"worst {m['worst']:+.1%}" + (f"  inside interval {m['inside']}/{m['n']}" if "inside" in m else ""))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
