"""det140: recall before/after on the cases of bug sets that det140's rules can reach, scored the way score.py
scores them (preflight check/audit per variant), without rerunning every case of every set.

A case is read when its text could reach one of the changed rules: a Hydra config node with a whole-node
interpolation (PF1000), a random split (PF226), a loop over parameters/state (PF1001), a "best" name bound to
another name (PF188, extended to `best_model = model`). Every other case gets the same findings before and after
(the change only adds findings of these four codes), so the found/flagged
counts of the whole set move by exactly the delta printed here.

    python bench/bugs/det140_delta.py --before "/work/main/.venv/bin/python -m preflight" held-out-42 ...
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from score import load_cases, score

_INTERP = re.compile(r"(?m)^\s*[A-Za-z_][\w]*:\s*\$\{[A-Za-z_][\w.]*\}\s*$")
_PARAM_LOOP = re.compile(r"for .* in .*(parameters|params|state_dict|buffers|weights)")
_BEST_ALIAS = re.compile(r"(?m)^\s*best\w*\s*=\s*[A-Za-z_]\w*\s*$")


def reachable(text: str) -> bool:
    return (bool(_INTERP.search(text)) and "_target_" in text) or "random_split" in text \
        or "train_test_split" in text or bool(_PARAM_LOOP.search(text)) or bool(_BEST_ALIAS.search(text))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", required=True, help="the preflight command of the base")
    ap.add_argument("sets", nargs="+")
    args = ap.parse_args()
    after_exe = [sys.executable, "-m", "preflight"]
    before_exe = shlex.split(args.before)
    for which in args.sets:
        cases = [c for c in load_cases(None, which)
                 if reachable("\n".join(t for v in c.files.values() for t in v.values()) + "\n" + c.launch)]
        print(f"== {which}: {len(cases)} reachable cases")
        if not cases:
            continue
        res = {}
        for tag, exe in (("before", before_exe), ("after", after_exe)):
            res[tag] = {r["id"]: r for r in score(cases, exe, False, False)["cases"]}
        for case in cases:
            b, a = res["before"][case.id], res["after"][case.id]
            if case.kind == "correct":
                line = f"correct flagged before={b['fix_flagged']} after={a['fix_flagged']}"
            else:
                line = (f"{'hit ' if b['found_by'] else 'MISS'} -> {'hit ' if a['found_by'] else 'MISS'} "
                        f"by={a['found_by']} twin before={b['fix_flagged']} after={a['fix_flagged']}")
            changed = " CHANGED" if (b.get("found_by"), b["fix_flagged"]) != (a.get("found_by"), a["fix_flagged"]) \
                else ""
            print(f"  {case.family:12} {case.id:60} {line}{changed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
