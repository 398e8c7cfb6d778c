"""The missing fields of a real-jobs run, by field and by cause (docs/realworld.md, "jobs52").

    python bench/realworld/jobs/missing_by_cause.py bench/realworld/jobs/rescore_all_stop42.txt
    python bench/realworld/jobs/missing_by_cause.py results.json          # run.py --json output
    python bench/realworld/jobs/missing_by_cause.py results.json --list CODE

Each missing field is put under one cause from the reason of its expert truth (``why`` in
``manifest.json``): the first rule below that matches wins. The rules read words of the reason, so a
reason that fits two causes is counted once; the table is a map for choosing work, not a measurement.
A text file is read as ``run.py`` prints it (a job's last row wins, so a rerun appended below counts).
"""

from __future__ import annotations

import argparse
import collections
import json
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent

RULES: list[tuple[str, str, object]] = [
    ("M", "model / parameter count", lambda f, w: f in ("model.num_parameters", "model.ref")),
    ("LIB", "library default, release unknown", lambda f, w: re.search(
        r"TrainingArguments|Trainer default|optim default|DPOConfig|GRPOConfig|grpo_defaults", w)),
    ("ABS", "absence not stated", lambda f, w: re.search(
        r"^(no |not |nothing|training from scratch|full (fine|training|pre|fine-tun)|pre-?training|pretraining|"
        r"contrastive pretraining|finetune stage)|no torch.compile|no checkpointing|no (gradient|activation) "
        r"checkpointing|no PEFT|no LoRA|without pin_memory|DataLoader default|no autocast|from scratch|"
        r"trains the full model|all weights train|no torch_compile", w, re.I)),
    ("DER", "product of missing parts", lambda f, w: f == "batch.global" and re.match(r"^\d+ x \d+( x \d+)?", w)),
    ("COMP", "computed in code", lambda f, w: re.search(
        r" // |div_up| = \d+ // |int\(|\bsplit\b|/ NUM_GPUS|// world|divided", w)),
    ("LOOP1", "one step per batch", lambda f, w: f == "batch.grad_accum" and re.search(
        r"one (optimizer )?step|every batch|each batch|one backward|zero_grad/backward/step", w)),
    ("DEF", "project default not followed", lambda f, w: re.search(r"default", w)),
    ("CLI", "launch value not followed", lambda f, w: re.search(
        r"^(README(\.md)?:\d+ |[\w/.-]+\.(sh|slurm|sbatch|wilkes3):\d+|--\w)", w)),
    ("CFG", "config key not mapped", lambda f, w: re.search(r"^[\w/.+-]+\.(ya?ml|json|toml|ini|cfg):\d+", w)
     or re.search(r"^[\w/.+-]*(config|cfg|options|exps?/)[\w/.+-]*\.py:\d+", w)),
    ("CODE", "project code not reached", lambda f, w: re.search(r"^[\w/.+-]+\.py:\d+", w)),
]
ORDER = ["CFG", "CODE", "ABS", "DEF", "CLI", "COMP", "DER", "LOOP1", "LIB", "OTHER", "M"]
NAMES = {code: name for code, name, _rule in RULES} | {"OTHER": "other"}
_ROW = re.compile(r"^(\S+)\s+(yes|NO)\s+(\d+)\s+(\d+)\s+(\d+)\s*(.*)$")


def missing(path: Path) -> dict[str, list[str]]:
    """Job id -> its missing fields, from run.py's printed table or its --json output."""
    text = path.read_text()
    if path.suffix == ".json":
        rows = json.loads(text)
        rows = rows if isinstance(rows, list) else rows.get("jobs") or rows.get("results") or []
        return {r["id"]: [f for f, v in r["fields"].items() if v["status"] == "missing"] for r in rows}
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        m = _ROW.match(line)
        if m:
            out[m.group(1).rstrip("*")] = [w.rstrip("?") for w in m.group(6).split() if w.endswith("?")]
    return out


def cause(field: str, why: str) -> str:
    return next((code for code, _name, rule in RULES if rule(field, why)), "OTHER")  # type: ignore[operator]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", type=Path, help="run.py's printed table (.txt) or its --json output")
    ap.add_argument("--list", metavar="CAUSE", help="list the fields of one cause (CFG, CODE, ABS, ...)")
    args = ap.parse_args()
    jobs = {j["id"]: j for j in json.loads((HERE / "manifest.json").read_text())["jobs"]}
    cells: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    listed = []
    for job_id, fields in missing(args.results).items():
        for field in fields:
            why = jobs[job_id]["truth"][field]["why"] if job_id in jobs else ""
            code = cause(field, why)
            cells[field][code] += 1
            if code == args.list:
                listed.append(f"{job_id:50.50} {field:30} {why[:120]}")
    if args.list:
        print("\n".join(listed))
        return
    total: collections.Counter[str] = collections.Counter()
    for counts in cells.values():
        total.update(counts)
    print("| field | " + " | ".join(NAMES[c] for c in ORDER) + " | all |")
    print("|---|" + "---:|" * (len(ORDER) + 1))
    for field in sorted(cells, key=lambda f: (-sum(cells[f].values()), f)):
        print(f"| `{field}` | " + " | ".join(str(cells[field][c] or "") for c in ORDER)
              + f" | {sum(cells[field].values())} |")
    print("| **all** | " + " | ".join(f"**{total[c]}**" for c in ORDER) + f" | **{sum(total.values())}** |")


if __name__ == "__main__":
    main()
