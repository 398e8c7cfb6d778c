"""det129: bench/bugs/score.py restricted to the Hydra and Lightning cases of the sets named (the families det129
worked on), so that before (``--preflight "env PYTHONPATH=<base checkout> python -m preflight"``) and after can be
measured in the time a helper has. Same scoring as score.py (found: a (code, file) pair the fix removes; a twin
or tricky-correct program flagged: any warning+ finding on it).

    python bench/bugs/det129_families.py [--preflight CMD] SET ...
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import score

FAMILIES = ("hydra", "lightning")


def main(argv: list) -> int:
    exe = [sys.executable, "-m", "preflight"]
    if argv[:1] == ["--preflight"]:
        exe, argv = shlex.split(argv[1]), argv[2:]
    for which in argv:
        cases = [c for c in score.load_cases(which=which) if c.family in FAMILIES]
        print(f"## {which} ({len(cases)} hydra/lightning cases)")
        result = score.score(cases, exe, verbose=True, show=False, jobs=1)
        print(score.table(result))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
