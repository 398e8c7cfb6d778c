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

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import reach_gates
import score
from reach_gates import reach_main

_FREEZERS = ("freeze_bn", "freeze_batchnorm", "fix_bn", "set_bn_eval")
GATES = {
    "PF474": (("lr_scheduler", "OneCycleLR", "_schedule_with_warmup", "get_scheduler"), (".step()",)),
    "PF368": ((".train(",), ("BatchNorm", *_FREEZERS), (".eval()", *_FREEZERS)),
}


def reachable(case: score.Case) -> bool:
    return reach_gates.reachable(case, GATES)


def main(argv: list[str] | None = None) -> int:
    return reach_main(GATES, __doc__.split("\n")[0], 32, argv, listing=True)


if __name__ == "__main__":
    sys.exit(main())
