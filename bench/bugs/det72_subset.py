"""Score the cases of one set that det72's rule changes can reach, the way score.py scores a whole set
(same variants, same check + audit + validate runs, same counting).

det72 changed PF627 (``Trainer(**data_module)``), PF616 (Hydra runs started in parallel) and added PF647
(ReduceLROnPlateau vs ``check_val_every_n_epoch``), PF648 (ModelCheckpoint without validation) and PF649 (a
later Hydra option undoing an earlier one's override). Each is gated: PF627 needs a transformers/TRL Trainer
and an evaluation strategy, PF616 and PF649 a Hydra app, PF647/PF648 a Lightning Trainer with
``check_val_every_n_epoch`` or ``val_check_interval``.
A case whose files never say ``eval_strategy``/``evaluation_strategy``, ``hydra``, ``check_val_every_n_epoch``
or ``val_check_interval`` cannot change between the base and this branch, so only the reachable cases run
(the 2-core machine cannot rerun eleven whole sets); their per-case lines and family table print as
score.py prints them, and the unreachable cases keep the base's result.

Usage::

    python bench/bugs/det72_subset.py --set held-out-30 [--preflight "env PYTHONPATH=/tmp/base python -m preflight"]
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import score

REACHABLE = re.compile(r"eval(uation)?_strategy|hydra|check_val_every_n_epoch|val_check_interval")


def reachable(case: score.Case) -> bool:
    return any(REACHABLE.search(text) for files in case.files.values() for text in files.values())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", dest="which", choices=sorted(score.SETS), required=True)
    ap.add_argument("--preflight", default=None)
    ap.add_argument("--match", default=None, help="only the reachable cases whose files match this regex too")
    args = ap.parse_args(argv)
    exe = shlex.split(args.preflight) if args.preflight else [sys.executable, "-m", "preflight"]
    cases = [c for c in score.load_cases(None, args.which) if reachable(c)]
    if args.match:
        extra = re.compile(args.match)
        cases = [c for c in cases if any(extra.search(t) for files in c.files.values() for t in files.values())]
    print(f"{len(cases)} reachable cases of {args.which}: {', '.join(c.id for c in cases)}")
    print(score.table(score.score(cases, exe, True, False, 1)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
