"""Score every case of the pytorch, accelerate and deepspeed families of held-out-20..30 (bugs, twins and
tricky-correct programs), the way score.py scores a whole set (same variants, same check + audit + validate
runs, same counting), one table per set.

det71 (issue 18) works on the bug classes of these three families that were missed blind in two or more of
the eleven sets; this script is its before/after measurement. Every figure it prints is **in-sample**: the
cases were read before the rules were written.

Usage::

    python bench/bugs/det71_families.py [--sets 20 21 ...] [--preflight "env PYTHONPATH=/tmp/base python -m preflight"]
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import score

FAMILIES = ("pytorch", "accelerate", "deepspeed")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", nargs="*", type=int, default=list(range(20, 31)))
    ap.add_argument("--preflight", default=None)
    args = ap.parse_args(argv)
    exe = shlex.split(args.preflight) if args.preflight else [sys.executable, "-m", "preflight"]
    for n in args.sets:
        cases = [c for c in score.load_cases(None, f"held-out-{n}") if c.family in FAMILIES]
        print(f"== held-out-{n}: {len(cases)} cases of {', '.join(FAMILIES)}", flush=True)
        print(score.table(score.score(cases, exe, True, False, 1)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
