"""The verdict band against the public rows' outcomes (est93, issue 17).

``remedy.verdict`` says ``fits`` when the interval's top (less what the allocator releases before an out-of-memory
error) is under the card, ``tight`` when only the held point is, ``likely-oom`` when only the bottom is, ``oom``
otherwise. This script scores every row with an outcome (``ran``: measured or card-full; ``oom``) and a catalogued GPU
through ``bench/public_accuracy.py``'s own inputs and ``verdict``, and prints:

* one line a row: split, outcome, verdict, the three compared figures and the card (GiB) and the ratios point/card and
  top/card (``--rows``);
* the count of rows per verdict x outcome, for all the splits given and for the even- and odd-numbered held-out
  splits apart (the brief's split discipline: choose on the even, check on the odd);
* for ``--what-if R``: the verdicts that change when a ``tight`` row whose held point is at or above ``R`` x card is
  called ``likely-oom`` instead (a band narrower at the top), with the same table; for ``--top-scale S``: when a
  ``fits`` row whose top x ``S`` is over the card is called ``tight`` (a band wider at the bottom). Nothing in the
  estimator changes.

Usage::

    .venv/bin/python calibration/public/est93_verdict_band.py --rows fit held-out $(seq -f "held-out-%g" 2 44)
    .venv/bin/python calibration/public/est93_verdict_band.py --what-if 0.95 fit held-out $(seq -f "held-out-%g" 2 44)
    .venv/bin/python calibration/public/est93_verdict_band.py --top-scale 1.07 fit held-out $(seq -f "held-out-%g" 2 44)
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

REPO = Path(__file__).resolve().parents[2]
GIB = 2 ** 30
VERDICTS = ("fits", "tight", "likely-oom", "oom")


def split_number(split: str) -> Optional[int]:
    """held-out -> 1, held-out-N -> N, fit -> None."""
    if split == "held-out":
        return 1
    m = re.fullmatch(r"held-out-(\d+)", split)
    return int(m.group(1)) if m else None


def score(row: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    import public_accuracy as pa

    from preflight import hardware
    from preflight.estimate import estimate, verdict
    from preflight.estimate.remedy import held_point, target_memory

    outcome = row.get("outcome")
    gpu = hardware.find(row.get("gpu", ""))
    if outcome not in ("ran", "oom") or gpu is None or row.get("not_scored"):
        return None
    try:
        inp, _ = pa.estimate_input(row["setup"], gpu)
    except Exception:  # the bench skips such rows too
        return None
    est = estimate(inp)
    if not est.ok or est.interval_bytes is None:
        return None
    card = int(target_memory(gpu))
    lo, hi = est.interval_bytes
    r_lo, _, r_hi = est.reclaimable
    point = held_point(est)
    return {"id": row["id"], "split": row["split"], "outcome": outcome, "verdict": verdict(est, gpu),
            "bottom": (lo - r_lo) / GIB, "point": point / GIB, "top": max(hi - r_hi, point) / GIB,
            "card": card / GIB, "measured": row.get("measured"), "gpu": row.get("gpu")}


#: ``--top-scale``: the top is multiplied by this before the comparison (a wider band at the bottom)
TOP_SCALE = [1.0]


def what_if(r: Dict[str, Any], ratio: Optional[float]) -> str:
    if ratio is not None and r["verdict"] == "tight" and r["point"] >= ratio * r["card"]:
        return "likely-oom"
    if r["verdict"] == "fits" and r["top"] * TOP_SCALE[0] > r["card"]:
        return "tight"
    return str(r["verdict"])


def table(rows: List[Dict[str, Any]], ratio: Optional[float]) -> Tuple[str, int, int]:
    c = Counter((r["outcome"], what_if(r, ratio)) for r in rows)
    ff = c[("oom", "fits")]
    foom = c[("ran", "likely-oom")] + c[("ran", "oom")]
    lines = [f"    {'outcome':8s} " + " ".join(f"{v:>10s}" for v in VERDICTS)]
    for o in ("ran", "oom"):
        lines.append(f"    {o:8s} " + " ".join(f"{c[(o, v)]:10d}" for v in VERDICTS))
    return "\n".join(lines), ff, foom


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("splits", nargs="+")
    parser.add_argument("--rows", action="store_true", help="print one line a row")
    parser.add_argument("--what-if", type=float, default=None, dest="ratio",
                        help="call a tight row likely-oom when its held point >= RATIO x card")
    parser.add_argument("--top-scale", type=float, default=1.0,
                        help="call a fits row tight when its top x TOP_SCALE is over the card")
    args = parser.parse_args(argv)
    TOP_SCALE[0] = args.top_scale
    sys.path.insert(0, str(REPO))
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    scored: List[Dict[str, Any]] = []
    for split in args.splits:
        n = split_number(split)
        if n is not None and n >= 45:
            raise SystemExit(f"{split}: not read here (held-out-45 and later are blind for est93)")
        doc = pa.load(pa.SPLIT_FILES.get(split, pa.DEVSET))
        for row in doc["rows"]:
            if row["split"] != split:
                continue
            r = score(row)
            if r is not None:
                scored.append(r)
    if args.rows:
        for r in sorted(scored, key=lambda r: (r["outcome"], r["verdict"], r["point"] / r["card"])):
            new = what_if(r, args.ratio)
            print(f"{r['split']:12s} {r['outcome']:4s} {r['verdict']:10s}"
                  f"{' -> ' + new if new != r['verdict'] else '':14s} bottom {r['bottom']:7.2f} point "
                  f"{r['point']:7.2f} top {r['top']:7.2f} card {r['card']:6.2f}  point/card "
                  f"{r['point'] / r['card']:5.3f} top/card {r['top'] / r['card']:5.3f} {r['measured']:>12s}  "
                  f"{r['id']}")
    groups = [("all given", scored),
              ("even held-out", [r for r in scored if (split_number(r["split"]) or 1) % 2 == 0]),
              ("odd held-out (incl. held-out)", [r for r in scored if split_number(r["split"]) is not None
                                                  and (split_number(r["split"]) or 0) % 2 == 1]),
              ("odd held-out-31..43", [r for r in scored if 31 <= (split_number(r["split"]) or 0) <= 43
                                       and (split_number(r["split"]) or 0) % 2 == 1])]
    label = "as shipped" if args.ratio is None else f"what-if: tight with point >= {args.ratio} x card -> likely-oom"
    if args.top_scale != 1.0:
        label += f"; what-if: fits with top x {args.top_scale} over the card -> tight"
    print(f"verdict x outcome ({label}); rows with an outcome and a catalogued GPU")
    for name, rows in groups:
        text, ff, foom = table(rows, args.ratio)
        oom_called = sum(1 for r in rows if r["outcome"] == "oom" and what_if(r, args.ratio) in ("oom", "likely-oom"))
        n_oom = sum(1 for r in rows if r["outcome"] == "oom")
        ran_fits = sum(1 for r in rows if r["outcome"] == "ran" and what_if(r, args.ratio) == "fits")
        n_ran = sum(1 for r in rows if r["outcome"] == "ran")
        print(f"  {name}: {len(rows)} rows; false fits {ff}; false OOMs {foom}; OOM rows called oom/likely-oom "
              f"{oom_called} of {n_oom}; rows that ran called fits {ran_fits} of {n_ran}")
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
