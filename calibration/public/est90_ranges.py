"""Pooled figures of a saved all-splits ``bench/public_accuracy.py --rows`` run over split ranges (est90).

As ``est62_pool.py`` pools (each held-out split's printed MAE, signed error and inside share weighted by its measured
peaks; false fits and false OOMs added), over held-out .. held-out-30 (where est90's term was chosen), held-out-31 ..
held-out-43 (the check) and the whole pool.

Usage::

    python3 calibration/public/est90_ranges.py RUN.txt [RUN2.txt ...]
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent))
from est62_pool import parse

RANGES = (("held-out .. held-out-30", 1, 30), ("held-out-31 .. held-out-43", 31, 43), ("pool of 43 splits", 1, 43))


def _number(split: str) -> int:
    if split == "held-out":
        return 1
    return int(split.rsplit("-", 1)[1]) if split.startswith("held-out-") else -1


def ranges(text: str) -> List[str]:
    rows: List[Dict[str, float]] = parse(text)
    out = []
    for name, lo, hi in RANGES:
        sel = [r for r in rows if lo <= _number(str(r["split"])) <= hi]
        n = sum(r["n"] for r in sel)
        if not n:
            continue
        mae, signed, inside = (sum(r[k] * r["n"] for r in sel) / n for k in ("mae", "signed", "inside"))
        out.append(f"{name:26s} {int(n):4d} peaks | MAE {mae:.2f}% | signed {signed:+.2f}% | inside {inside:.1f}% | "
                   f"false fits {int(sum(r['ff'] for r in sel))} | false OOMs {int(sum(r['foom'] for r in sel))}")
    return out


def main(argv: List[str]) -> int:
    for path in argv:
        print(path)
        print("\n".join("  " + line for line in ranges(Path(path).read_text(encoding="utf-8"))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
