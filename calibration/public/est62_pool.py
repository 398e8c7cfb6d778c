"""Per-split summaries and the pooled figure of a saved ``bench/public_accuracy.py --rows`` run over every split (est62).

The pooled figure weights each held-out split's printed mean absolute error, mean signed error and inside share by its
measured peaks and adds its false fits and false OOMs (the fitting half is listed, not pooled), as docs/calibration.md's
earlier pooled rows did.

Usage::

    for S in fit held-out $(seq -f "held-out-%g" 2 28); do
        .venv/bin/python bench/public_accuracy.py --split $S --rows; done > RUN.txt
    python calibration/public/est62_pool.py RUN.txt
"""

from __future__ import annotations

import re
import sys
from typing import Dict, List

LINE = re.compile(r"^preflight, (?P<split>[^:(]+?)(?: \([^)]*\))?: (?P<n>\d+) measured peaks .*?mean \|error\| "
                  r"(?P<mae>[-+\d.]+)% \| mean signed (?P<signed>[-+\d.]+)% .*?inside interval (?P<inside>\d+)% .*?"
                  r"false fits (?P<ff>\d+) \| false OOMs (?P<foom>\d+)")


def parse(text: str) -> List[Dict[str, float]]:
    out = []
    for line in text.splitlines():
        m = LINE.match(line)
        if m:
            d: Dict[str, float] = {k: float(v) for k, v in m.groupdict().items() if k != "split"}
            d["split"] = m.group("split").replace("fitting half", "fit")  # type: ignore[assignment]
            out.append(d)
    return out


def main(argv: List[str]) -> int:
    with open(argv[0], encoding="utf-8") as f:
        rows = parse(f.read())
    print(f"{'split':14s} {'peaks':>5s} {'MAE':>6s} {'signed':>7s} {'inside':>6s} {'FF':>3s} {'FOOM':>4s}")
    for r in rows:
        print(f"{r['split']!s:14s} {int(r['n']):5d} {r['mae']:5.1f}% {r['signed']:+6.1f}% {r['inside']:5.0f}% "
              f"{int(r['ff']):3d} {int(r['foom']):4d}")
    held = [r for r in rows if str(r["split"]).startswith("held-out")]
    n = sum(r["n"] for r in held)
    pooled = {k: sum(r[k] * r["n"] for r in held) / n for k in ("mae", "signed", "inside")}
    print(f"pooled over {len(held)} held-out splits ({int(n)} peaks): MAE {pooled['mae']:.2f}% | signed "
          f"{pooled['signed']:+.2f}% | inside {pooled['inside']:.1f}% | false fits {int(sum(r['ff'] for r in held))} | "
          f"false OOMs {int(sum(r['foom'] for r in held))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
