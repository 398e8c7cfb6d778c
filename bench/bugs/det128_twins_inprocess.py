"""det128: the in-process twins check for PF199's DataLoader form (a custom OmegaConf resolver registered only in
the parent, the unresolved config read in spawned DataLoader workers). Every bug/fix/tricky-correct variant whose
text registers a resolver or reads Hydra's runtime state is run through PF199 (twins_sweep); prints the findings
on fix/correct variants (each would be a newly flagged twin or tricky-correct program) and the bug variants hit.
Run it on this branch and on its base (PYTHONPATH=<base checkout>) to compare.

    python bench/bugs/det128_twins_inprocess.py [SET ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from score import SETS
from twins_sweep import sweep

_NEEDLES = ("register_new_resolver", "register_resolver", "get_original_cwd", "HydraConfig")


def main() -> None:
    sets = sys.argv[1:] or [s for s in SETS if s != "all"]
    n, rows = sweep(("PF199",), lambda text, _files: any(w in text for w in _NEEDLES), sets)
    print("sets", len(sets), "variants read", n)
    print("PF199 bug-variant findings", len([r for r in rows if r[2] == "bug"]),
          "fix/correct findings", len([r for r in rows if r[2] != "bug"]))
    for r in rows:
        print("  ", *r)


if __name__ == "__main__":
    main()
