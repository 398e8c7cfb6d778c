"""Score the cases of one set that det69's rule changes can reach, before and after, the way score.py scores
a whole set (same variants, same check + audit + validate runs, same counting).

det69 changed PF307 (pinned Lightning releases), PF446 (manual-optimization clipping under fp16 AMP) and added
PF380/PF381 (Hydra apps) and PF382 (deepspeed pins). Each of them is gated: PF307 needs a Lightning
Trainer and a pinned Lightning release, PF446 a ``manual_backward`` call, PF380/PF381 a Hydra app, PF382
``training_data=`` with ``mpu=``. A case whose files never say ``lightning``, ``manual_backward``, ``hydra`` or
``training_data`` cannot change between the two commits, so only the reachable cases are run (the 2-core machine cannot rerun six whole sets
twice in a session); their per-case lines and family table print as score.py prints them.

Usage::

    python bench/bugs/det69_subset.py --set held-out-29 [--preflight "env PYTHONPATH=/tmp/base python -m preflight"]
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import score

REACHABLE = re.compile(r"lightning|manual_backward|hydra|training_data")


def reachable(case: score.Case) -> bool:
    return any(REACHABLE.search(text) for files in case.files.values() for text in files.values())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", dest="which", choices=sorted(score.SETS), required=True)
    ap.add_argument("--preflight", default=None)
    args = ap.parse_args(argv)
    exe = shlex.split(args.preflight) if args.preflight else [sys.executable, "-m", "preflight"]
    cases = [c for c in score.load_cases(None, args.which) if reachable(c)]
    print(f"{len(cases)} reachable cases of {args.which}: {', '.join(c.id for c in cases)}")
    print(score.table(score.score(cases, exe, True, False, 1)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
