"""det138: score.py restricted to the cases of the sets named that det138's changes could reach: every
Lightning, Hydra and Accelerate case (PF307, PF617, PF626, PF689 extensions), and any other case whose files mention
``num_processes`` or ``total_limit`` (PF689's one-process extension and PF100). Same scoring as score.py (bug, fix and tricky-correct variants through the CLI).

    python bench/bugs/det138_families.py held-out-41 held-out-42 ...
    PYTHONPATH=<base checkout> python bench/bugs/det138_families.py ...   # the base's preflight
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from score import load_cases, score, table


def _reachable(case) -> bool:
    if case.family in ("lightning", "hydra", "accelerate"):
        return True
    text = repr(vars(case))
    return "num_processes" in text or "total_limit" in text


def main() -> None:
    exe = [sys.executable, "-m", "preflight"]
    for which in sys.argv[1:]:
        cases = [c for c in load_cases(None, which) if _reachable(c)]
        print(f"## {which}: {len(cases)} cases (lightning/hydra/accelerate, or mentioning num_processes/total_limit)", flush=True)
        print(table(score(cases, exe, True, False, 1)), flush=True)


if __name__ == "__main__":
    main()
