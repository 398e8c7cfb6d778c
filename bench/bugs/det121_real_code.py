"""det121: PF183/PF184 over real launch scripts. Every shell script under ROOT that runs ``python X.py`` with
``--lr_scheduler_type``/``--warmup_steps``/``--max_steps`` flags is audited as ``preflight audit X.py
--select PF183,PF184 -- <its flags>``, and every YAML/JSON file naming ``lr_scheduler_type`` as a config of the
scripts beside it; the findings are printed for reading (bench/bugs/det121_real_code.txt).

    python bench/bugs/det121_real_code.py ROOT [ROOT ...]
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

_RUN = re.compile(r"(?:python3?|torchrun|deepspeed|accelerate\s+launch)\s+(?:\S+\s+)*?([\w./-]+\.py)\s+(.*)", re.S)


def _launches(path: Path) -> list[tuple[Path, list[str]]]:
    text = path.read_text(errors="replace").replace("\\\n", " ")
    out = []
    for line in text.splitlines():
        m = _RUN.search(line)
        if not m or not re.search(r"--(lr_scheduler_type|warmup_steps|max_steps)\b", line):
            continue
        for base in (path.parent, path.parent.parent, path.parent.parent.parent):
            script = base / m.group(1)
            if script.is_file():
                with contextlib.suppress(ValueError):
                    out.append((script, shlex.split(m.group(2).split("#")[0])))
                break
    return out


def main() -> None:
    for root in map(Path, sys.argv[1:]):
        for dirpath, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            for name in files:
                if not name.endswith((".sh", ".bash", ".slurm")):
                    continue
                for script, args in _launches(Path(dirpath) / name):
                    cmd = [sys.executable, "-m", "preflight", "audit", str(script), "--select", "PF183,PF184",
                           "--format", "text", "-q", "--", *args]
                    try:
                        res = subprocess.run(cmd, capture_output=True, text=True, timeout=400)
                    except subprocess.TimeoutExpired:
                        print("TIMEOUT", Path(dirpath) / name)
                        continue
                    hits = [ln for ln in res.stdout.splitlines() if re.search(r"PF18[34]\b", ln)]
                    print(f"{Path(dirpath) / name} -> {script.name}: {len(hits)} finding(s)")
                    for ln in hits:
                        print("   ", ln[:300])


if __name__ == "__main__":
    main()
