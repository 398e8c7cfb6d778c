"""det139: PF542 (extended to Accelerate DeepSpeed ZeRO-3 jobs on transformers pinned before 4.28) over every
bug-set variant that calls ``generate(`` and names a ZeRO stage 3 config, run as score.py runs a variant
(check + audit + validate); only PF542's findings are printed. A row on a fix/correct variant is a flagged twin.

    python bench/bugs/det139_pf542_sweep.py [SET ...]
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from score import SETS, parse_cases, run_variant

_ZERO3 = re.compile(r"zero_stage:\s*3|\"stage\":\s*3|stage:\s*3")


def main() -> None:
    sets = sys.argv[1:] or [s for s in SETS if s != "all"]
    exe = [sys.executable, "-m", "preflight"]
    read = 0
    rows = []
    with tempfile.TemporaryDirectory(prefix="det139-") as tmp:
        for which in sets:
            for path in (c for folder in SETS[which] for c in sorted(folder.glob("*.cases"))):
                for case in parse_cases(path):
                    for label, files in case.files.items():
                        if label == "both":
                            continue
                        joined = "\n".join(files.values())
                        if ".generate(" not in joined or not _ZERO3.search(joined):
                            continue
                        read += 1
                        root = Path(tmp) / case.id / label
                        for f in run_variant(exe, root, files, case.launch):
                            if f[0] == "PF542":
                                rows.append((which, case.id, "correct" if case.kind == "correct" else label, f[1], f[2]))
    print(f"PF542 over {len(sets)} sets: variants read {read}, bug-variant findings "
          f"{len([r for r in rows if r[2] == 'bug'])}, fix/correct findings {len([r for r in rows if r[2] != 'bug'])}")
    for r in rows:
        print("  ", *r)


if __name__ == "__main__":
    main()
