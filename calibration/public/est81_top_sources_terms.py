"""Which terms the most negative sources share (est81, issue 17): the ``--top`` sources with the most negative share
of the pooled signed error over the given splits (scored as ``bench/public_accuracy.py`` scores them, through
``est79_bias_by_term.scored``), each with its rows, share, mean signed error, reading, the dominant terms and peak
phases of its rows; then, per term, in how many of those sources some row has it at >= 15% of the estimate.

It changes nothing and fits nothing; every split it is run on has been read, so its figures are IN-SAMPLE.

Usage::

    .venv/bin/python calibration/public/est81_top_sources_terms.py held-out $(seq -f "held-out-%g" 2 38) [--top 20]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
import est79_bias_by_term as b


def report(splits: List[str], top: int) -> List[str]:
    recs = b.scored(splits)
    n = len(recs)
    by_source = b.groups(recs, "source")
    share: Dict[str, float] = {k: 100 * sum(r["error"] for r in v) / n for k, v in by_source.items()}
    worst = sorted(share, key=lambda k: share[k])[:top]
    out = [f"{n} scored rows, pooled signed {100 * sum(r['error'] for r in recs) / n:+.2f}% (IN-SAMPLE)",
           f"the {top} most negative sources: {sum(len(by_source[k]) for k in worst)} rows, "
           f"{sum(share[k] for k in worst):+.2f}pt of the pooled signed error", ""]
    terms: Counter = Counter()
    for k in worst:
        v = by_source[k]
        kinds = sorted({str(r["row"]["measured"]) for r in v})
        dom = sorted({b._dominant(r) for r in v})
        phases = sorted({r["phase"] for r in v})
        out.append(f"{k[:44]:44s} {len(v):3d} {share[k]:+.2f}pt {100 * sum(r['error'] for r in v) / len(v):+6.1f}% "
                   f"{','.join(kinds)[:24]:24s} dominant {','.join(dom)}; phase {','.join(phases)}")
        terms.update({t for r in v for t, x in r["terms"].items() if r["estimate"] and x >= b.SHARE * r["estimate"]})
    out += ["", f"terms at >= 15% of the estimate in some row, counted by source (of {top}):",
            "  " + ", ".join(f"{t} {c}" for t, c in terms.most_common())]
    return out


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("splits", nargs="+")
    ap.add_argument("--top", type=int, default=20)
    args = ap.parse_args(argv)
    print("\n".join(report(args.splits, args.top)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
