"""The real-jobs benchmark (``run.py``, same arguments) that also records, per job, the winning
fact of plan fields no job labels yet (``--field``, repeatable; default the est61 facts
``memory.keeps_outputs`` and ``precision.autocast``), with its source, to ``--marks FILE``
(JSON). Used to count how many jobs a new reading marks and to read them by hand (precision),
since an unlabelled field cannot be scored right or wrong.

    PREFLIGHT_REALJOBS_WORK=DIR python bench/realworld/jobs/field_marks.py --set all --no-fetch \
        --json OUT.json --marks MARKS.json
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run

DEFAULT_FIELDS = ("memory.keeps_outputs", "precision.autocast")


def main(argv: list[str]) -> int:
    fields: list[str] = []
    marks_path = None
    rest: list[str] = []
    it = iter(argv)
    for arg in it:
        if arg == "--field":
            fields.append(next(it))
        elif arg == "--marks":
            marks_path = Path(next(it))
        else:
            rest.append(arg)
    fields = fields or list(DEFAULT_FIELDS)
    marks: dict[str, dict] = {}
    real_run = subprocess.run
    real_job = run.run_job
    current = {"id": ""}

    def job(j, *args, **kwargs):  # type: ignore[no-untyped-def]
        current["id"] = j["id"]
        return real_job(j, *args, **kwargs)

    def capture(cmd, *args, **kwargs):  # type: ignore[no-untyped-def]
        proc = real_run(cmd, *args, **kwargs)
        if "--emit-plan" in cmd:
            try:
                plan = json.loads(proc.stdout)
            except (ValueError, TypeError):
                plan = None
            got = {}
            for field in fields:
                facts = ((plan or {}).get("fields") or {}).get(field) or []
                if facts:
                    f = facts[0]
                    got[field] = {"value": f["value"], "path": f["source"].get("path"),
                                  "line": f["source"].get("line"), "detail": f["source"].get("detail"),
                                  "confidence": f.get("confidence")}
            marks[current["id"]] = got
        return proc

    run.subprocess.run = capture  # type: ignore[assignment]
    run.run_job = job  # type: ignore[assignment]
    code = run.main(rest)
    if marks_path is not None:
        marks_path.write_text(json.dumps(marks, indent=1, sort_keys=True))
        for field in fields:
            values = [m[field]["value"] for m in marks.values() if field in m]
            print(f"{field}: {len(values)} of {len(marks)} jobs marked "
                  f"({sum(1 for v in values if v is True)} true, {sum(1 for v in values if v is False)} false)")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
