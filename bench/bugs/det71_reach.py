"""Score the cases of the OTHER families (lightning, transformers, hydra) of held-out-20..30 that det71's rule
changes can reach, the way score.py scores a set (same variants, same runs, same counting), to show that no
recall is lost and no twin newly flagged outside det71's own families.

det71 changed PF201 (a loader returned through iter()/a re-yielding generator, a loop drawing with next()),
PF260 (a step parsed from the loaded checkpoint's path, a weights load in the same block), PF341 (the
save_checkpoint directory), PF468 (an imported dataset class, args.num_workers) and added PF364 (ZeRO-3
resize_token_embeddings on transformers 4.32.0-4.33.3). A case whose files never say any of
the words of a changed rule's gate (``GATES``: all of them, in one variant's files) cannot change.
``--families own`` selects the reachable cases of det71's own families instead.

Usage::

    python bench/bugs/det71_reach.py [--sets 20 21 ...] [--preflight "env PYTHONPATH=/tmp/base python -m preflight"]
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import score

# each changed rule, the words its change needs together in one variant's files (all of them)
GATES = {
    "PF364": (r"resize_token_embeddings", r"transformers\s*==\s*4\.3[23]\."),
    "PF341": (r"save_checkpoint\(", r"uuid|time\.|datetime|getpid|mkdtemp|secrets\."),
    "PF468": (r"torch\s*==\s*(0\.|1\.[0-8]\.)", r"np\.random|numpy"),
    "PF260": (r"torch\.load\(", r"load_state_dict", r"optim\."),
    "PF201": (r"next\(", r"DistributedDataParallel|DDP\(|fully_shard|FullyShardedDataParallel|deepspeed\.initialize"),
    "PF365": (r"\.grad\b", r"deepspeed\.initialize", r"stage"),
}
OWN = ("pytorch", "accelerate", "deepspeed")


def reachable(case: score.Case, families: str = "other") -> bool:
    if (case.family in OWN) != (families == "own"):
        return False
    for variant in ("bug", "fix"):
        text = "\n".join([*case.files.get("both", {}).values(), *case.files.get(variant, {}).values()])
        if any(all(re.search(g, text) for g in gates) for gates in GATES.values()):
            return True
    return False


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", nargs="*", type=int, default=list(range(20, 31)))
    ap.add_argument("--preflight", default=None)
    ap.add_argument("--families", choices=("own", "other", "both"), default="other",
                    help="own: pytorch, accelerate, deepspeed; other: lightning, transformers, hydra; both")
    ap.add_argument("--older", action="store_true",
                    help="the sets before held-out-20 (held-out, held-out-2..19, in-sample) instead of --sets")
    args = ap.parse_args(argv)
    exe = shlex.split(args.preflight) if args.preflight else [sys.executable, "-m", "preflight"]
    names = ([s for s in sorted(score.SETS) if s == "in-sample" or s == "held-out"
              or (s.startswith("held-out-") and int(s.rsplit("-", 1)[1]) < 20)]
             if args.older else [f"held-out-{n}" for n in args.sets])
    fams = ("own", "other") if args.families == "both" else (args.families,)
    for name in names:
        cases = [c for c in score.load_cases(None, name) if any(reachable(c, f) for f in fams)]
        print(f"== {name}: {len(cases)} reachable cases ({args.families} families)", flush=True)
        if cases:
            print(score.table(score.score(cases, exe, True, False, 1)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
