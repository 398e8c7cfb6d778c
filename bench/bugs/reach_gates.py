"""What det74_reach.py and det78_reach.py share: a case is reachable by a change when one file of a
variant (with the case's ``both`` files) holds, for one changed rule, every entry of its gate (one of
the entry's alternative strings); the reachable cases of each set are scored the way score.py scores a
set (same variants, same runs, same counting), so their before and after can be compared."""

from __future__ import annotations

import argparse
import shlex
import sys

import score

Gates = dict[str, tuple[tuple[str, ...], ...]]


def reachable(case: score.Case, gates: Gates) -> bool:
    for variant in ("bug", "fix"):
        texts = [*case.files.get("both", {}).values(), *case.files.get(variant, {}).values()]
        if any(all(any(alt in t for alt in entry) for entry in gate) for t in texts for gate in gates.values()):
            return True
    return False


def reach_main(gates: Gates, description: str, last_set: int, argv: list[str] | None = None,
               listing: bool = False) -> int:
    """Score held-out-20..``last_set`` (or ``--sets``) on their reachable cases; ``listing`` adds
    ``--list`` (only count them)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--sets", nargs="*", type=int, default=list(range(20, last_set + 1)))
    ap.add_argument("--preflight", default=None)
    if listing:
        ap.add_argument("--list", action="store_true", help="only count the reachable cases")
    args = ap.parse_args(argv)
    exe = shlex.split(args.preflight) if args.preflight else [sys.executable, "-m", "preflight"]
    for n in args.sets:
        name = f"held-out-{n}"
        every = score.load_cases(None, name)
        cases = [c for c in every if reachable(c, gates)]
        print(f"== {name}: {len(cases)} reachable cases of {len(every)}", flush=True)
        if cases and not getattr(args, "list", False):
            print(score.table(score.score(cases, exe, True, False, 1)), flush=True)
    return 0
