"""det132: the in-process twins check for the rules det132 added or changed. Every bug/fix/tricky-correct variant of
every bug set is read:

* code rules PF300 (wandb run.config assigned), PF330 (submitit job without a time limit) and PF115 (changed: silent
  on an nn.Sequential of mode-free layers) run on each Python file of the variants whose text could let them fire;
* plan rules PF200 (load_from_checkpoint without map_location under multi-GPU Lightning) and PF307 (extended with
  the 1.1.x optimizer_step + accumulation defect) run on the plan `audit` builds (every Python file a script, every
  config a config, the case's launch line as argv), for the variants that mention `load_from_checkpoint` or
  `accumulate_grad_batches`.

Prints the findings on fix/correct variants (a finding there is a flagged twin or tricky-correct program) and the
bug variants hit, per rule.

    python bench/bugs/det132_twins_inprocess.py [SET ...]
"""

from __future__ import annotations

import shlex
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from score import SETS, parse_cases
from twins_sweep import sweep, variants

from preflight.plan_rules import PlanContext, build_files
from preflight.rules.plan.pf200_lightning_checkpoint_loaded_onto_saved_gpu_per_rank import (
    LightningCheckpointLoadedOntoSavedGpuPerRank,
)
from preflight.rules.plan.pf307_lightning_pinned_release_defect import LightningPinnedReleaseDefect

_CODE_GATES = {
    "PF300": lambda text, _f: "wandb" in text and ".config" in text,
    "PF330": lambda text, _f: "submitit" in text,
    "PF115": lambda text, _f: "Sequential" in text,
}


def plan_findings(files: dict, launch: str) -> list:
    with tempfile.TemporaryDirectory(prefix="det132-") as tmp:
        plan, project = build_files(files, shlex.split(launch) if launch else [], Path(tmp) / "example" / "project",
                                    strict=False)
        pctx = PlanContext(plan, project)
        out = []
        for rule in (LightningCheckpointLoadedOntoSavedGpuPerRank(), LightningPinnedReleaseDefect()):
            out += list(rule.check_plan(pctx))
        return out


def main() -> None:
    sets = sys.argv[1:] or [s for s in SETS if s != "all"]
    for code, gate in _CODE_GATES.items():
        n, rows = sweep([code], gate, sets)
        print(f"{code}: variants read {n}, bug-variant findings {len([r for r in rows if r[2] == 'bug'])}, "
              f"fix/correct findings {len([r for r in rows if r[2] != 'bug'])}")
        for r in rows:
            print("  ", *r)
    launches = {case.id: case.launch for which in sets for folder in SETS[which]
                for cases in sorted(folder.glob("*.cases")) for case in parse_cases(cases)}
    n = 0
    rows = []
    for which, case_id, label, files in variants(
            sets, lambda text, _f: "load_from_checkpoint" in text or "accumulate_grad_batches" in text):
        n += 1
        for f in plan_findings(files, launches.get(case_id, "")):
            rows.append((which, case_id, label, f.code, f.path, f.span.line))
    print(f"PF200+PF307 (plan): variants read {n}, bug-variant findings {len([r for r in rows if r[2] == 'bug'])}, "
          f"fix/correct findings {len([r for r in rows if r[2] != 'bug'])}")
    for r in rows:
        print("  ", *r)


if __name__ == "__main__":
    main()
