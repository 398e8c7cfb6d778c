"""det125: the twins check for PF195-PF199 on the bug sets held-out-40..44 (never held-out-45, kept blind).

PF197 and PF199 are file rules: they run file by file in process (twins_sweep). PF195, PF196 and PF198 are plan rules: each
variant whose text could feed them (a DeepSpeed optimizer block / an ``oc.env`` interpolation) is written out
as an example project and planned as ``audit`` plans it (plan_rules.example_findings), configs included.
Prints the findings on fix/tricky-correct variants (a finding there is a newly flagged twin) and the bug
variants hit.

    python bench/bugs/det125_twins_inprocess.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from twins_sweep import sweep, variants

from preflight.plan_rules import build_example, check_plan_rule


def example_findings(code: str, example: str) -> list:
    """The rule's findings on the project as audit plans it; unlike plan_rules.example_findings an input
    audit reports as unreadable (a ConfigStore-only app) does not stop the sweep."""
    with tempfile.TemporaryDirectory(prefix="det125-sweep-") as tmp:
        plan, project = build_example(example, Path(tmp))
        return [f for f in check_plan_rule(code, plan, project) if f.code == code]

SETS = ("held-out-40", "held-out-41", "held-out-42", "held-out-43", "held-out-44")
FILE_CODES = ("PF197", "PF199")
PLAN_CODES = {"PF195": ('"adam"', "'adam'", "adam"), "PF196": ("oc.env",), "PF198": ("fp16",)}


def _example(files: dict) -> str:
    return "".join(f"# --- {name}\n{body if body.endswith(chr(10)) else body + chr(10)}"
                   for name, body in files.items())


def main() -> None:
    n, rows = sweep(FILE_CODES, sets=SETS)
    plan_rows = []
    planned = 0
    for which, case_id, label, files in variants(SETS):
        text = "\n".join(files.values()).lower()
        for code, needles in PLAN_CODES.items():
            if not any(w in text for w in needles):
                continue
            planned += 1
            try:
                found = example_findings(code, _example(files))
            except Exception as exc:  # an unreadable case project: say so, do not stop the sweep
                print("  skipped", which, case_id, label, code, type(exc).__name__, str(exc)[:150])
                continue
            plan_rows += [(which, case_id, label, f.code, f.path, f.span.line) for f in found]
    print("variants", n, "plan-rule projects built", planned)
    for code in (*FILE_CODES, *PLAN_CODES):
        mine = [r for r in (*rows, *plan_rows) if r[3] == code]
        print(f"{code}: bug-variant findings {len([r for r in mine if r[2] == 'bug'])}, "
              f"fix/correct findings {len([r for r in mine if r[2] != 'bug'])}")
        for r in mine:
            print("  ", *r)


if __name__ == "__main__":
    main()
