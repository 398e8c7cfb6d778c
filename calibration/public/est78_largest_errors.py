"""The largest absolute errors of the public rows, each with the terms of the phase it was compared in (est78, issue 17).

Every row of the given splits is scored exactly as ``bench/public_accuracy.py`` scores it (its ``evaluate``: card-full
readings and ``not_scored`` rows carry no error). The ``--top`` rows with the largest absolute error are printed with
the measured and estimated GiB, the gap in GiB (estimate less measured: what a term or an input would have to move),
and the terms of the phase the verdict and the comparison use (``Estimate.phase``), largest first. It changes nothing.

Usage::

    .venv/bin/python calibration/public/est78_largest_errors.py --top 15 fit held-out $(seq -f "held-out-%g" 2 35)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

REPO = Path(__file__).resolve().parents[2]
GIB = 2 ** 30


def scored(splits: List[str]) -> List[Tuple[Dict[str, Any], Any]]:
    """(row, public_accuracy Result) for every row of ``splits`` that has an error."""
    sys.path.insert(0, str(REPO))
    sys.path.insert(0, str(REPO / "bench"))
    from public_groups import scored_rows

    return scored_rows(splits)


def phase_terms(row: Dict[str, Any]) -> str:
    """The terms (GiB) of the phase the estimate peaks in, largest first."""
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    from preflight import hardware
    from preflight.estimate import estimate

    inp, _ = pa.estimate_input(row["setup"], hardware.find(row["gpu"]))
    est = estimate(inp)
    terms = est.phases[est.phase or ""]
    shown = ", ".join(f"{t} {b / GIB:.2f}" for t, b in sorted(terms.items(), key=lambda kv: -kv[1]) if b >= GIB / 100)
    return f"phase {est.phase}: {shown}"


def report(splits: List[str], top: int) -> List[str]:
    rows = sorted(scored(splits), key=lambda rr: -abs(rr[1].error))[:top]
    lines = []
    for i, (row, res) in enumerate(rows, 1):
        peak = row["peak_bytes"]
        lines.append(f"{i:2d}. {row['id']} [{row['split']}] {row['measured']} on {row['gpu']}: measured "
                     f"{peak / GIB:.2f}, estimated {res.estimate / GIB:.2f} GiB ({res.error:+.1%}, gap "
                     f"{(res.estimate - peak) / GIB:+.2f} GiB), inside {'y' if res.inside else 'n'}")
        lines.append(f"    {phase_terms(row)}")
    return lines


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("splits", nargs="+", help="split names as bench/public_accuracy.py --split takes them")
    parser.add_argument("--top", type=int, default=15, help="how many rows (default 15)")
    args = parser.parse_args(argv)
    print("\n".join(report(args.splits, args.top)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
