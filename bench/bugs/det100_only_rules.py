"""det100: PF397, PF398, PF399, PF619 and PF687 run alone over the bug/fix/tricky-correct variants of the
bug sets whose text holds a gate of one of them (only those can fire); each gated variant is written to
WORK/<set>/<case>/<variant>/ and audited as score.py audits it, with ``--select`` the gated codes (the
det97_only_rules.py machinery with det100's gates). A finding on a fix variant or a ``kind: correct`` case
is a twin or tricky-correct program the rules flag.

    python bench/bugs/det100_only_rules.py WORK in-sample held-out held-out-2 ... held-out-39
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from score import CONFIG_SUFFIXES, SETS, launch_script, parse_cases

GATES = {
    "PF397": lambda t, f: "max_steps" in t and "gradient_accumulation_steps" in t,
    "PF398": lambda t, f: "CosineAnnealingLR" in t and "T_max" in t and "hydra" in t,
    "PF399": lambda t, f: "num_processes" in t and "accelerate" in t and re.search(r"accelerate\s*==", t) is not None,
    "PF619": lambda t, f: "deepspeed" in t and "#SBATCH" in t,
    "PF687": lambda t, f: re.search(r"visible_?dev|cuda_?vis", t, re.I) is not None,
}
DET100 = ("PF397", "PF398", "PF399", "PF619", "PF687")


def _known() -> set:
    from preflight.rules import _index

    return {code for name in dir(_index) if name.isupper() for code in getattr(_index, name)}


def audit(root: Path, files: dict, launch: str, codes: str) -> list:
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    scripts = sorted(n for n in files if n.endswith((".py", ".ipynb")))
    if not scripts:
        return []
    script = launch_script(files)
    argv = [sys.executable, "-m", "preflight", "audit", *([script] if script else []), *scripts]
    given: list = []
    for c in sorted(n for n in files if Path(n).suffix in CONFIG_SUFFIXES):
        top = Path(c).parts[0] if len(Path(c).parts) > 1 else c
        if top not in given:
            given.append(top)
    for c in given:
        argv += ["--config", c]
    argv += ["--select", codes, "--format", "json", "--no-cache", "-j", "1", "--exit-zero"]
    if launch and not script:
        argv += ["--", *shlex.split(launch)]
    done = subprocess.run(argv, cwd=root, capture_output=True, text=True, check=False, timeout=300)
    try:
        return json.loads(done.stdout).get("findings", [])
    except json.JSONDecodeError:
        print("audit failed", root, done.stderr[-300:])
        return []


def main() -> None:
    work = Path(sys.argv[1])
    sets = sys.argv[2:]
    wanted: tuple = DET100
    if sets[:1] == ["--codes"]:
        wanted, sets = tuple(sets[1].split(",")), sets[2:]
    total = audited = 0
    known = _known()
    for which in sets:
        for folder in SETS[which]:
            for cases in sorted(folder.glob("*.cases")):
                for case in parse_cases(cases):
                    for variant, files in case.files.items():
                        if not files:
                            continue
                        text = "\n".join(files.values()) + "\n" + case.launch
                        codes = [c for c, gate in GATES.items() if c in wanted and c in known and gate(text, files)]
                        if not codes:
                            continue
                        label = "correct" if case.kind == "correct" else variant
                        audited += 1
                        for f in audit(work / which / case.id / label, files, case.launch, ",".join(codes)):
                            total += 1
                            print(f"{which} {case.id} {label} {f['code']} {f.get('path')}:{f.get('line')} "
                                  f"{f['severity']}")
    print(f"variants audited: {audited}; findings: {total}")


if __name__ == "__main__":
    main()
