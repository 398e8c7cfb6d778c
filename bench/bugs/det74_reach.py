"""Score the cases of held-out-20..31 that det74's rule changes can reach, before and after, the way
score.py scores a set (same variants, same runs, same counting).

det74 chose its rules from public bug reports (docs/corpus.md 'det74') before reading any set: PF125
extended (labels padded with the pad id given as ``labels=`` to a transformers model), PF366 (a padded
batch without its attention_mask), PF367 (a causal LM's logits scored against its own unshifted input
ids). Each changed rule runs only on a file whose text holds every string of its ``needs_text``
(preflight/rules/_needs.py); a case none of whose variants' files (with the ``both`` files) hold all of
one rule's gate words cannot change, so its before and after are the same. ``GATES`` are those strings
and the others each rule's code requires in the same file (a transformers ``from_pretrained``, a
cross-entropy for PF367, ``labels`` for PF125's new site; PF125's old sites are unchanged).

Usage::

    python bench/bugs/det74_reach.py [--sets 20 21 ...] [--preflight "/tmp/base/venv/bin/python -m preflight"]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import reach_gates
import score
from reach_gates import reach_main

# each changed rule, the strings one file must hold for it to fire: every entry, one of its alternatives
GATES = {
    "PF125": (("pad_sequence",), ("labels",), ("from_pretrained",)),
    "PF366": (("input_ids",), ("padding",), ("from_pretrained",)),
    "PF367": (("logits",), ("from_pretrained",), ("cross_entropy", "CrossEntropyLoss")),
}


def reachable(case: score.Case) -> bool:
    return reach_gates.reachable(case, GATES)


def main(argv: list[str] | None = None) -> int:
    return reach_main(GATES, __doc__.split("\n")[0], 31, argv)


if __name__ == "__main__":
    sys.exit(main())
