"""det127: the in-process twins check for the extended plan rule PF174 (an entry file whose run dir needs an env
var that another entry file sets in code). Every bug/fix/tricky-correct variant of every bug set whose text holds
`oc.env` (PF174 cannot fire without it) is written to a temporary project and its plan built as `audit` builds it
(every Python file a script, every config file a config, the case's launch line as argv); PF174 runs on the plan.
Prints the findings on fix/correct variants (a finding there is a newly flagged twin or tricky-correct program)
and the bug variants hit.

    python bench/bugs/det127_twins_inprocess.py [SET ...]
"""

from __future__ import annotations

import shlex
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from score import SETS
from twins_sweep import variants

from preflight.plan_rules import PlanContext, build_files
from preflight.rules.plan.pf174_hydra_run_dir_env_var_never_set import HydraRunDirEnvVarNeverSet


def run(files: dict, launch: str) -> list:
    with tempfile.TemporaryDirectory(prefix="det127-") as tmp:
        plan, project = build_files(files, shlex.split(launch) if launch else [], Path(tmp) / "example" / "project",
                                    strict=False)
        return list(HydraRunDirEnvVarNeverSet().check_plan(PlanContext(plan, project)))


def main() -> None:
    sets = sys.argv[1:] or [s for s in SETS if s != "all"]
    from score import parse_cases

    launches = {case.id: case.launch for which in sets for folder in SETS[which]
                for cases in sorted(folder.glob("*.cases")) for case in parse_cases(cases)}
    n = 0
    rows = []
    for which, case_id, label, files in variants(sets, lambda text, _files: "oc.env" in text):
        n += 1
        for f in run(files, launches.get(case_id, "")):
            rows.append((which, case_id, label, f.code, f.path, f.span.line))
    print("sets", len(sets), "variants with oc.env", n)
    print("PF174 bug-variant findings", len([r for r in rows if r[2] == "bug"]),
          "fix/correct findings", len([r for r in rows if r[2] != "bug"]))
    for r in rows:
        print("  ", *r)


if __name__ == "__main__":
    main()
