"""det133: the twins check for PF400 (new), PF500 (new), PF631 (new) and the changed PF326, PF344 on the bug
sets held-out-40..46 (held-out-46 was read: in-sample there).

PF400 is a file rule: it runs file by file in process. The plan rules run on each variant whose text could feed
them, written out as an example project with its launch line and planned as ``audit`` plans it. Prints the
findings on fix/tricky-correct variants (a finding there is a flagged twin) and the bug variants hit. Run it with
``PYTHONPATH=<another checkout>`` to get the same rows for that checkout (the baseline).

    python bench/bugs/det133_twins_inprocess.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from score import SETS, parse_cases
from twins_sweep import findings

from preflight.plan_rules import build_example, check_plan_rule
from preflight.registry import all_rules

WHICH = ("held-out-40", "held-out-41", "held-out-42", "held-out-43", "held-out-44", "held-out-45", "held-out-46")
FILE_CODES = ("PF400",)
PLAN_CODES = {"PF326": ("seed",), "PF344": ("dropout",), "PF500": ("auto",), "PF631": ("activation_checkpointing",)}


def _example(files: dict, launch: str) -> str:
    body = "".join(f"# --- {name}\n{text if text.endswith(chr(10)) else text + chr(10)}" for name, text in files.items())
    own = any(name.endswith((".sh", ".sbatch", ".slurm")) for name in files)  # the variant's own launch script
    return body + (f"# --- launch\n{launch}\n" if launch and not own else "")


def main() -> None:
    known = set(all_rules())
    rows = []
    n = planned = 0
    for which in WHICH:
        for folder in SETS[which]:
            for cases in sorted(folder.glob("*.cases")):
                for case in parse_cases(cases):
                    for variant, files in case.files.items():
                        if not files:
                            continue
                        n += 1
                        label = "correct" if case.kind == "correct" else variant
                        for name, body in files.items():
                            if name.endswith(".py"):
                                rows += [(which, case.id, label, f.code, name, f.span.line)
                                         for f in findings(body, name, [c for c in FILE_CODES if c in known])]
                        text = ("\n".join(files.values()) + case.launch).lower()
                        for code, needles in PLAN_CODES.items():
                            if code not in known or not any(w in text for w in needles):
                                continue
                            planned += 1
                            try:
                                with tempfile.TemporaryDirectory(prefix="det133-sweep-") as tmp:
                                    plan, project = build_example(_example(files, case.launch), Path(tmp))
                                    found = [f for f in check_plan_rule(code, plan, project) if f.code == code]
                            except Exception as exc:  # an unreadable case project: say so, do not stop
                                print("  skipped", which, case.id, label, code, type(exc).__name__, str(exc)[:120])
                                continue
                            rows += [(which, case.id, label, f.code, f.path, f.span.line) for f in found]
    print("variants", n, "plan-rule projects built", planned)
    for code in (*FILE_CODES, *PLAN_CODES):
        if code not in known:
            print(f"{code}: not in this checkout")
            continue
        mine = [r for r in rows if r[3] == code]
        print(f"{code}: bug-variant findings {len([r for r in mine if r[2] == 'bug'])}, "
              f"fix/correct findings {len([r for r in mine if r[2] != 'bug'])}")
        for r in mine:
            print("  ", *r)


if __name__ == "__main__":
    main()
