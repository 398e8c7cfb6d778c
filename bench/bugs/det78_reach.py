"""Score the cases of held-out-20..32 that det78's rule changes can reach, before and after, the way
score.py scores a set (same variants, same runs, same counting).

det78 chose its rules from public bug reports (docs/corpus.md 'det78') before reading any set: PF474
extended (a OneCycleLR or transformers warm-up schedule sized in batches and stepped once per epoch; the
epoch loop must say so; a schedule name rebound to another constructor is left alone) and PF368 new (a
BatchNorm freezer called once, undone by the training loop's ``model.train()``). Each rule runs only on
a file whose text holds one string of its ``needs_text``; ``GATES`` are the strings one file must hold
for the rule to fire before or after the change (every entry, one of its alternatives). A case none of
whose variants' files (with the ``both`` files) passes a gate cannot change, so its before and after
are the same.

Usage::

    python bench/bugs/det78_reach.py [--sets 20 21 ...] [--list] [--preflight "env PYTHONPATH=/tmp/base python -m preflight"]
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import score

_FREEZERS = ("freeze_bn", "freeze_batchnorm", "fix_bn", "set_bn_eval")
GATES = {
    "PF474": (("lr_scheduler", "OneCycleLR", "_schedule_with_warmup", "get_scheduler"), (".step()",)),
    "PF368": ((".train(",), ("BatchNorm", *_FREEZERS), (".eval()", *_FREEZERS)),
}


def reachable(case: score.Case) -> bool:
    for variant in ("bug", "fix"):
        texts = [*case.files.get("both", {}).values(), *case.files.get(variant, {}).values()]
        if any(all(any(alt in t for alt in entry) for entry in gates) for t in texts for gates in GATES.values()):
            return True
    return False


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", nargs="*", type=int, default=list(range(20, 33)))
    ap.add_argument("--preflight", default=None)
    ap.add_argument("--list", action="store_true", help="only count the reachable cases")
    args = ap.parse_args(argv)
    exe = shlex.split(args.preflight) if args.preflight else [sys.executable, "-m", "preflight"]
    for n in args.sets:
        name = f"held-out-{n}"
        every = score.load_cases(None, name)
        cases = [c for c in every if reachable(c)]
        print(f"== {name}: {len(cases)} reachable cases of {len(every)}", flush=True)
        if cases and not args.list:
            print(score.table(score.score(cases, exe, True, False, 1)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
