"""det136: the in-process twins check for the rules det136 added or extended: PF185 (submitit requeue without
resume), PF186 (interpolation key not composed), PF216 (resolver as a defaults entry), PF507 and PF595 (partial
compositions), PF543 (monitored key logged only under a config condition), PF626 (log_every_n_steps beyond the epoch).
Every bug/fix/tricky-correct variant whose text could make them fire (``hydra``, ``monitor`` or ``log_every_n_steps``)
is written to a temporary project and its plan built as ``audit`` builds it (every Python file a script, every config a
config); the launch line is the last command of the variant's shell script that runs a ``.py`` file (continuation
lines joined), else the case's ``launch:`` line. Prints the findings on fix/correct variants (each would be a newly
flagged twin or tricky-correct program) and the bug variants hit. Run it on this branch and on its base
(PYTHONPATH=<base checkout>) to compare.

    python bench/bugs/det136_twins_inprocess.py [SET ...]
"""

from __future__ import annotations

import shlex
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from score import SETS, parse_cases
from twins_sweep import variants

from preflight.plan_rules import PlanContext, build_files
from preflight.registry import all_rules

CODES = ("PF185", "PF186", "PF216", "PF507", "PF543", "PF595", "PF626")


def launch_line(files: dict, fallback: str) -> list:
    for name, text in sorted(files.items()):
        if not name.endswith((".sh", ".sbatch", ".bash")):
            continue
        joined = text.replace("\\\n", " ")
        runs = [ln.strip() for ln in joined.splitlines() if ".py" in ln and not ln.strip().startswith("#")]
        if runs:
            try:
                return shlex.split(runs[-1])
            except ValueError:
                break
    try:
        return shlex.split(fallback) if fallback else []
    except ValueError:
        return []


def run(files: dict, argv: list) -> list:
    out = []
    with tempfile.TemporaryDirectory(prefix="det136-") as tmp:
        plan, project = build_files(files, argv, Path(tmp) / "example" / "project", strict=False)
        pctx = PlanContext(plan, project)
        rules = all_rules(plugins=False)
        for code in CODES:
            if code in rules:  # PF185 and PF186 are absent on the base checkout
                out.extend(rules[code]().check_plan(pctx))  # type: ignore[attr-defined]
    return out


def _gate(text: str, _files: dict) -> bool:
    return "hydra" in text or "monitor" in text or "log_every_n_steps" in text


def main() -> None:
    sets = sys.argv[1:] or [s for s in SETS if s != "all"]
    launches = {case.id: case.launch for which in sets for folder in SETS[which]
                for cases in sorted(folder.glob("*.cases")) for case in parse_cases(cases)}
    n = 0
    rows = []
    for which, case_id, label, files in variants(sets, _gate):
        n += 1
        for f in run(files, launch_line(files, launches.get(case_id, ""))):
            rows.append((which, case_id, label, f.code, f.path, f.span.line))
    print("sets", len(sets), "variants read", n)
    for code in CODES:
        print(code, "bug-variant findings", len([r for r in rows if r[2] == "bug" and r[3] == code]),
              "fix/correct findings", len([r for r in rows if r[2] != "bug" and r[3] == code]))
    for r in rows:
        print("  ", *r)


if __name__ == "__main__":
    main()
