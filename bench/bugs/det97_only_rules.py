"""det97: the det97 rules run alone over the bug/fix/tricky-correct variants of held-out sets whose text holds
a gate of one of them (only those can fire). Each gated variant is written to WORK/<set>/<case>/<variant>/ and
audited as score.py audits it (the launch script first, the scripts, the configs, the case's ``launch:`` line
after ``--`` when there is no launch script), with ``--select`` the det97 codes. A finding on a fix variant or
a ``kind: correct`` case is a twin or tricky-correct program the rules flag.

    python bench/bugs/det97_only_rules.py WORK held-out-2 held-out-3 ... held-out-37

``--codes PF268,PF627,PF685`` (before the sets) runs those gated rules instead of det97's five (det99 reuses
the script for PF268's launch-line switch, PF627's launch-selected None branch, PF685, PF686 and PF595's Lightning ddp launcher).
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
from score import CONFIG_SUFFIXES, SETS, launch_script, parse_cases

GATES = {
    "PF395": lambda t, f: "DataCollatorWithPadding" in t and "ForTokenClassification" in t,
    "PF396": lambda t, f: "log_with" in t and any(Path(n).name.startswith("requirements") for n in f),
    "PF688": lambda t, f: "deepspeed" in t and re.search(r"--include|\s-i\s", t) is not None,
    "PF689": lambda t, f: "num_processes" in t and "CUDA_VISIBLE_DEVICES" in t,
    "PF690": lambda t, f: "--deepspeed" in t and "output_dir" in t and re.search(
        r"\"(train_micro_batch_size_per_gpu|gradient_accumulation_steps)\"\s*:\s*[0-9]", t) is not None,
    # det99
    "PF268": lambda t, f: "#SBATCH" in t and "bf16" in t,
    "PF685": lambda t, f: "ReduceLROnPlateau" in t and "monitor" in t,
    "PF595": lambda t, f: "${now:" in t and "ddp" in t,
    "PF686": lambda t, f: "instantiate" in t and "hydra-core" in t,
    "PF627": lambda t, f: "eval_dataset" in t and re.search(r"eval(uation)?_strategy", t) is not None,
}
DET97 = ("PF395", "PF396", "PF688", "PF689", "PF690")


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


def main(gates: Optional[dict] = None, default: tuple = DET97) -> None:
    """Run the rules of ``gates`` (det97's by default; det100_only_rules.py passes its own) alone."""
    gates = GATES if gates is None else gates
    work = Path(sys.argv[1])
    sets = sys.argv[2:]
    wanted: tuple = default
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
                        codes = [c for c, gate in gates.items() if c in wanted and c in known and gate(text, files)]
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
