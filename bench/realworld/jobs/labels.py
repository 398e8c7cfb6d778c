"""The expert truth of the real-jobs benchmark, written by hand (issue 15): each job, the
invocation a user types, and every knowable plan field with a file:line reason. Labelled
before looking at preflight's output for the job. Running this file writes manifest.json.

The truth lives in truth/, one module per set: truth/core.py holds T (one field), J (one job)
and the repository pins several sets share; truth/dev_and_held_out.py the dev and first
held-out jobs (labelled together, interleaved); truth/held_out_N.py the N-th held-out set.
This file imports them in the order of SETS, so the jobs of manifest.json keep that order.

Adding set 52: write truth/held_out_52.py like truth/held_out_51.py (`from .core import J, T`,
then `H52="fifty-second held-out set"` and one J(...) per job with held_out=True and a note
starting with H52), append "held_out_52" to SETS below and "fifty-second" to ORDINALS in run.py
(and in tests/test_jobs_sets.py), then run this file and commit manifest.json with the labels."""
import importlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from truth.core import jobs  # noqa: E402  (truth/ is found through HERE)

#: the set modules of truth/, in manifest order (each appends its jobs through J when imported)
SETS = ("dev_and_held_out", "held_out_2", "held_out_3", "held_out_4", "held_out_5", "held_out_6",
        "held_out_7", "held_out_8", "held_out_9", "held_out_10", "held_out_11", "held_out_12",
        "held_out_13", "held_out_14", "held_out_15", "held_out_16", "held_out_17", "held_out_18",
        "held_out_19", "held_out_20", "held_out_21", "held_out_22", "held_out_23", "held_out_24",
        "held_out_25", "held_out_26", "held_out_27", "held_out_28", "held_out_29", "held_out_30",
        "held_out_31", "held_out_32", "held_out_33", "held_out_34",
        "held_out_35", "held_out_36", "held_out_37", "held_out_38", "held_out_39",
        "held_out_40", "held_out_41", "held_out_42", "held_out_43", "held_out_44",
        "held_out_45", "held_out_46", "held_out_47", "held_out_48", "held_out_49",
        "held_out_50", "held_out_51")
for _name in SETS:
    importlib.import_module(f"truth.{_name}")

with open(HERE / "manifest.json", "w") as fh:
    json.dump({"version": 1, "gpu": "a100-80gb", "jobs": jobs}, fh, indent=1)
print(len(jobs), sum(len(j["truth"]) for j in jobs), sum(j["held_out"] for j in jobs), sum(len(j["truth"]) for j in jobs if j["held_out"]))
