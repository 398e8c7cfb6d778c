"""det142: the in-process sweep for PF1041 (concurrent-launches-share-rendezvous-port, new): the rule's core
(`_concurrent_pairs`) over every shell file of every bug/fix/tricky-correct variant of every bug set named
(default: all sets score.py knows). A row on a fix/correct variant is a flagged twin or tricky-correct program
(must be none); rows on bug variants are the bug programs the rule reaches.

    python bench/bugs/det142_twins_shell.py [SET ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from score import SETS
from twins_sweep import variants

from preflight.rules.plan.pf1041_concurrent_launches_share_rendezvous_port import _concurrent_pairs

SUFFIXES = (".sh", ".slurm", ".sbatch", ".bash", ".job", ".pbs")


def main() -> None:
    chosen = sys.argv[1:] or [s for s in SETS if s != "all"]
    n = shells = 0
    rows = []
    for which, case_id, label, files in variants(chosen):
        n += 1
        for name, body in files.items():
            if not name.endswith(SUFFIXES):
                continue
            shells += 1
            for _earlier, later in _concurrent_pairs(body):
                rows.append((which, case_id, label, "PF1041", name, later.line))
    print(f"PF1041 over {len(chosen)} sets: variants read {n}, shell files {shells}, "
          f"bug-variant findings {len([r for r in rows if r[2] == 'bug'])}, "
          f"fix/correct findings {len([r for r in rows if r[2] != 'bug'])}")
    for r in rows:
        print("  ", *r)


if __name__ == "__main__":
    main()
