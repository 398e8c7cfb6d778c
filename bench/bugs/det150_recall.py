"""det150: audit each repro job of bench/bugs/det150_repros.txt (one per surveyed report class, written and
labelled by det150 from the public report) and print the codes preflight reports against the expected one.
A job is written to a temporary folder; its launch script (``run.sh``) is audited when it has one, else
``train.py``; every ``.json`` file is passed with ``--config``. Own labelling: the figure is not a blind score.

    python bench/bugs/det150_recall.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def jobs(text: str) -> list[tuple[str, str, str, dict[str, str]]]:
    out: list[tuple[str, str, str, dict[str, str]]] = []
    files: dict[str, list[str]] = {}
    current = ""
    for line in text.splitlines():
        if line.startswith("=== "):
            name, url, expected = (part.strip() for part in line[4:].split("|", 2))
            files = {}
            out.append((name, url, expected, files))  # type: ignore[arg-type]
        elif line.startswith("# --- ") and out:
            current = line[6:].strip()
            files[current] = []
        elif out and current in files:
            files[current].append(line)
    return [(n, u, e, {k: "\n".join(v) + "\n" for k, v in f.items()}) for n, u, e, f in out]  # type: ignore


def audit(files: dict[str, str]) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="det150-recall-") as tmp:
        root = Path(tmp) / "example" / "project"
        root.mkdir(parents=True)
        for name, body in files.items():
            (root / name).write_text(body, encoding="utf-8")
        target = "run.sh" if "run.sh" in files else "train.py" if "train.py" in files else \
            next(n for n in files if n.endswith(".py"))
        cmd = [sys.executable, "-m", "preflight", "audit", target, "--no-cache", "--format", "json", "--exit-zero"]
        for name in files:
            if name.endswith(".json"):
                cmd += ["--config", name]
        done = subprocess.run(cmd, cwd=root, capture_output=True, text=True, timeout=300)
        try:
            data = json.loads(done.stdout)
        except ValueError:
            return ["<no json: " + done.stderr.strip()[-200:] + ">"]
        found = data if isinstance(data, list) else data.get("findings", [])
        return sorted({f.get("code", "?") for f in found if f.get("severity") in ("error", "warning")})


def main() -> None:
    text = (HERE / "det150_repros.txt").read_text(encoding="utf-8")
    caught = decidable = 0
    for name, url, expected, files in jobs(text):
        codes = audit(files)
        hit = expected.startswith("PF") and expected.split()[0] in codes
        if not expected.startswith("missed"):
            decidable += 1
            caught += hit
        print(f"{name:18} expected {expected:70.70} got {', '.join(codes) or '-'}  {'CAUGHT' if hit else ''}")
        print(f"{'':18} {url}")
    total = len(jobs(text))
    print(f"repros {total}; with an expected code {decidable}; caught {caught}; "
          f"labelled missed {total - decidable} (own labelling, in-sample)")


if __name__ == "__main__":
    main()
