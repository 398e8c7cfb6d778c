"""det109: PF170 (a step-count schedule sized with ``len(dataset)``, the number of samples, while a DataLoader
batches that dataset) and PF171 (``trainer.test(ckpt_path="best")`` on a Trainer that never runs ``fit``) run
alone over the bug/fix/tricky-correct variants of the bug sets whose text holds a gate of one of them. A finding
on a fix variant or a ``kind: correct`` case is a twin or tricky-correct program the rules flag.

    python bench/bugs/det109_only_rules.py WORK [--codes PF170] in-sample held-out held-out-2 ... held-out-42

Both are file rules (``preflight check`` reports them as ``audit`` does), so ``--check`` (first) writes every gated
variant to WORK/<set>/<case>/<variant>/ and runs one ``preflight check --select`` over them all instead of one
``audit`` per variant (the det97_only_rules.py machinery, kept as the default).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

_SCHEDULES = ("OneCycleLR", "num_training_steps", "get_scheduler")
GATES = {
    "PF170": lambda t, f: "DataLoader" in t and "len(" in t and any(s in t for s in _SCHEDULES),
    "PF171": lambda t, f: "ckpt_path" in t and "best" in t,
}
DET109 = ("PF170", "PF171")


def check_all(work: Path, sets: list) -> None:
    """Write the gated variants' Python files under ``work`` and check them in one run."""
    from score import SETS, parse_cases

    audited = 0  # gated variants written
    for which in sets:
        for folder in SETS[which]:
            for cases in sorted(folder.glob("*.cases")):
                for case in parse_cases(cases):
                    for variant, files in case.files.items():
                        text = "\n".join(files.values()) + "\n" + case.launch
                        if not files or not any(gate(text, files) for gate in GATES.values()):
                            continue
                        audited += 1
                        label = "correct" if case.kind == "correct" else variant
                        for name, body in files.items():
                            if name.endswith(".py"):
                                p = work / which / case.id / label / name
                                p.parent.mkdir(parents=True, exist_ok=True)
                                p.write_text(body, encoding="utf-8")
    argv = [sys.executable, "-m", "preflight", "check", str(work), "--select", ",".join(DET109), "--format",
            "json", "--no-cache", "-j", "1", "--exit-zero"]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    found = json.loads(done.stdout or "[]")
    found = found.get("findings", found) if isinstance(found, dict) else found
    for f in found:
        print(f"{f.get('path')}:{f.get('line')} {f['code']} {f['severity']}")
    print(f"variants checked: {audited}; findings: {len(found)}")


if __name__ == "__main__":
    if sys.argv[2:3] == ["--check"]:
        check_all(Path(sys.argv[1]), sys.argv[3:])
    else:
        from det97_only_rules import main

        main(GATES, DET109)
