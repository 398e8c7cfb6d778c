"""est94: the estimator's error on every measured row of a model under 1B parameters, all splits (IN-SAMPLE).

Is held-out-45's underestimate of its GPT-2 124M rows a small-model shortfall the other splits show too? This
evaluates every measured, scored row of the fitting half and every held-out split (``bench/public_accuracy.py``'s
``evaluate``), keeps the models under 1B parameters (``preflight.estimate.params.count_params``), and prints the
unweighted mean signed and absolute error: all of them, without held-out-45, and the fp32 ones without held-out-45,
then the fp32 rows one by one.

Usage::

    .venv/bin/python calibration/public/est94_small_rows.py
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any, List, Tuple

REPO = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(REPO / "bench"))

import public_accuracy as pa  # noqa: E402
import public_splits as ps  # noqa: E402

from preflight.estimate.params import count_params  # noqa: E402


def small_rows(limit: float = 1e9) -> List[Tuple[str, str, int, Any, float]]:
    rows = list(pa.load()["rows"])
    for path in ps.SPLIT_FILES.values():
        rows += json.loads(Path(path).read_text(encoding="utf-8"))["rows"]
    out = []
    for row in rows:
        if not row.get("peak_bytes"):
            continue
        inp, _ = pa.estimate_input(row["setup"], None)
        n = count_params(inp.arch).total
        res = pa.evaluate(row)
        if res.error is None or n >= limit:
            continue
        out.append((row["split"], row["id"], n, row["setup"].get("precision"), res.error))
    return out


def _line(name: str, sel: List[Tuple[str, str, int, Any, float]]) -> str:
    return (f"{name:34s} {len(sel):4d} rows | signed {100 * statistics.mean(r[4] for r in sel):+.2f}% | "
            f"MAE {100 * statistics.mean(abs(r[4]) for r in sel):.2f}%")


def main() -> int:
    rows = small_rows()
    rest = [r for r in rows if r[0] != "held-out-45"]
    fp32 = [r for r in rest if r[3] == "fp32"]
    print(_line("models < 1B, every split", rows))
    print(_line("  without held-out-45", rest))
    print(_line("  fp32, without held-out-45", fp32))
    for r in sorted(fp32, key=lambda r: r[4]):
        print(f"  {r[0]:12s} {r[1][:80]:80s} {r[2] / 1e6:5.0f}M {100 * r[4]:+6.1f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
