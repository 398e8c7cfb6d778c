"""det136: score.py restricted to the Lightning and Hydra cases of the sets named (the families det136
worked on), so that before/after runs fit the time a helper has. Same scoring as score.py.

    python bench/bugs/det136_families.py held-out-41 held-out-42 ...
    PYTHONPATH=<base checkout> python bench/bugs/det136_families.py ...   # the base's preflight
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from score import load_cases, score, table

FAMILIES = ("lightning", "hydra")


def main() -> None:
    exe = [sys.executable, "-m", "preflight"]
    for which in sys.argv[1:]:
        cases = [c for c in load_cases(None, which) if c.family in FAMILIES]
        print(f"## {which}: {len(cases)} lightning/hydra cases", flush=True)
        print(table(score(cases, exe, True, False, 1)), flush=True)


if __name__ == "__main__":
    main()
