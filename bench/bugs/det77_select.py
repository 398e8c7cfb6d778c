"""Run preflight keeping only det77's rule codes: ``check``/``audit`` get ``--select``, ``validate``'s
problems are dropped. Used as ``bench/bugs/score.py --preflight "python bench/bugs/det77_select.py"`` to
score what the new rules alone find (bench/bugs/det77_scores.txt)."""

from __future__ import annotations

import json
import subprocess
import sys

CODES = ("PF691", "PF692", "PF693")


def main() -> int:
    args = sys.argv[1:]
    sub = args[0] if args else ""
    if sub in ("check", "audit"):
        args = [sub, "--select", ",".join(CODES), *args[1:]]
    proc = subprocess.run([sys.executable, "-m", "preflight", *args], capture_output=True, text=True)
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError:
        sys.stdout.write(proc.stdout)
        sys.stderr.write(proc.stderr)
        return proc.returncode
    if sub == "validate":
        for entry in data.get("files", []):
            entry["problems"] = []
    else:
        data["findings"] = [f for f in data.get("findings", []) if f.get("code") in CODES]
    print(json.dumps(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
