"""det94 gate: run only PF378, PF379, PF660 and PF675 over the fix and bug variants of every case of the
given bug sets (never held-out-38 or later) and print each finding with its case and variant.

    python bench/bugs/det94_gates.py OUTDIR in-sample held-out held-out-2 ... held-out-37

A finding on a ``fix`` variant (twin or tricky-correct) is a false positive of these rules on that set."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from score import load_cases

CODES = "PF378,PF379,PF660,PF675"


def main(argv: list[str]) -> int:
    out, sets = Path(argv[0]), argv[1:]
    for which in sets:
        if which.startswith("held-out-") and int(which.rsplit("-", 1)[1]) >= 38:
            raise SystemExit(f"{which}: blind sets are not read here")
        for case in load_cases(None, which):
            for variant in ("fix", "bug"):
                for name, text in case.files.get(variant, {}).items():
                    path = out / which / case.id / variant / name
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_text(text, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "preflight", "check", str(out), "--select", CODES, "--format",
                           "json", "--no-cache", "-j", "1", "--exit-zero"], capture_output=True, text=True)
    findings = json.loads(proc.stdout).get("findings", []) if proc.stdout.strip() else []
    for f in sorted(findings, key=lambda f: (f.get("path") or "", f.get("line") or 0)):
        rel = Path(f["path"]).resolve().relative_to(out.resolve()) if f.get("path") else Path("?")
        print(f["code"], rel, f.get("line"), sep="\t")
    print(f"{len(findings)} findings", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
