"""How far each scored verdict of the public rows is from its other side (est74, issue 17).

``remedy.verdict`` compares three figures with the card's memory: the interval's bottom, the point and the interval's
top, each less what the caching allocator releases before an out-of-memory error (``Estimate.reclaimable``; the point
is ``remedy.held_point``, the largest phase less what that phase releases, and the top is at least that point). A row
that ran (``outcome: ran``, measured or card-full) is a false OOM when the point (less its reclaimable part) is over the
card; a row that ran out of memory (``outcome: oom``) is a false fit when even the top (less its reclaimable part) is
under it. This script prints, for every row with an outcome and a catalogued GPU, the three figures, the card, the
verdict and the margin that decides it; for the false verdicts also the terms of the peak phase, largest first. It
reads the rows through ``bench/public_accuracy.py`` (the same inputs and the same ``verdict``), changes nothing.

Usage::

    .venv/bin/python calibration/public/est74_verdict_margins.py held-out-13 held-out-16 held-out-18
    .venv/bin/python calibration/public/est74_verdict_margins.py --false-only $(seq -f "held-out-%g" 2 33) held-out
    .venv/bin/python calibration/public/est74_verdict_margins.py --changed fit held-out $(seq -f "held-out-%g" 2 33)

``--changed`` prints only the rows whose verdict differs from the rule before est74 (the peak phase less the peak
phase's released blocks as the point; ``before_est74``), and how many rows were compared.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

REPO = Path(__file__).resolve().parents[2]
GIB = 2 ** 30


def margins(est: Any, memory: int) -> Dict[str, float]:
    """The verdict's three compared figures (GiB), each less what the allocator releases, and the card."""
    from preflight.estimate.remedy import held_point

    lo, hi = est.interval_bytes
    r_lo, _, r_hi = est.reclaimable
    point = held_point(est)
    return {"bottom": (lo - r_lo) / GIB, "point": point / GIB,
            "top": max(hi - r_hi, point) / GIB, "card": memory / GIB}


def before_est74(est: Any, memory: int) -> str:
    """The verdict as ``remedy.verdict`` decided it before est74: the peak phase less its own released blocks."""
    lo, hi = est.interval_bytes
    r_lo, r_point, r_hi = est.reclaimable
    lo, hi, peak = lo - r_lo, hi - r_hi, est.peak_bytes - r_point
    return ("fits" if hi <= memory else "tight" if peak <= memory else "likely-oom" if lo <= memory else "oom")


def row_report(row: Dict[str, Any], show_terms: bool, changed_only: bool = False) -> Optional[List[str]]:
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    from preflight import hardware
    from preflight.estimate import estimate, verdict
    from preflight.estimate.remedy import target_memory

    outcome = row.get("outcome")
    gpu = hardware.find(row.get("gpu", ""))
    if outcome not in ("ran", "oom") or gpu is None or row.get("not_scored"):
        return None
    inp, _ = pa.estimate_input(row["setup"], gpu)
    est = estimate(inp)
    if not est.ok:
        return None
    m = margins(est, int(target_memory(gpu)))
    v = verdict(est, gpu)
    if changed_only:
        old = before_est74(est, int(target_memory(gpu)))
        return [f"{row['id']} [{row['split']}] {outcome}: {old} -> {v}" if old != v else ""]
    false = (outcome == "oom" and v == "fits") or (outcome == "ran" and v in ("oom", "likely-oom"))
    if outcome == "oom":
        # a fit is decided by the top: how far under the card it stays
        decide = f"top {m['top'] - m['card']:+.2f} GiB vs card"
    else:
        # an OOM verdict is decided by the point: how far over the card it goes
        decide = f"point {m['point'] - m['card']:+.2f} GiB vs card"
    lines = [f"{'FALSE ' if false else ''}{row['id']} [{row['split']}] {outcome} -> {v}: bottom {m['bottom']:.2f} "
             f"point {m['point']:.2f} top {m['top']:.2f} card {m['card']:.2f} GiB; {decide}"]
    if show_terms and false:
        phase = est.phases[est.phase or ""]
        terms = ", ".join(f"{t} {b / GIB:.2f}" for t, b in sorted(phase.items(), key=lambda kv: -kv[1]) if b)
        lines.append(f"    peak phase {est.phase}: {terms}; reclaimable (bottom, point, top) "
                     f"{', '.join(f'{r / GIB:.2f}' for r in est.reclaimable)}")
    return lines


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("splits", nargs="+", help="split names as bench/public_accuracy.py --split takes them")
    parser.add_argument("--false-only", action="store_true", help="print only the false verdicts")
    parser.add_argument("--changed", action="store_true",
                        help="print only the verdicts that differ from the rule before est74")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO))
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    n_false = n_rows = 0
    for split in args.splits:
        doc = pa.load(pa.SPLIT_FILES.get(split, pa.DEVSET))
        for row in doc["rows"]:
            if row["split"] != split:
                continue
            lines = row_report(row, show_terms=True, changed_only=args.changed)
            if not lines:
                continue
            n_rows += 1
            if args.changed:
                if lines[0]:
                    print(lines[0])
                continue
            if lines[0].startswith("FALSE"):
                n_false += 1
            elif args.false_only:
                continue
            print("\n".join(lines))
    print(f"rows with a verdict: {n_rows}" if args.changed else f"false verdicts: {n_false}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
