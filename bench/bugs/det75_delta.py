"""What PF384/PF385 add to a bug set, fast: ``score.py`` run with ``det75_only_rules.py`` (only those
rules in ``audit``), skipping every variant whose files pin none of the table's libraries (the rules
need a pin: ``==``/``===`` in a requirements-like file or a README ``pip install`` line, or a lock
file), which therefore cannot draw a finding from them. Prints the same ``-v`` lines and table as
score.py; ``det75_combine.py`` joins them with a full run.

Usage: python bench/bugs/det75_delta.py held-out-20 [held-out-21 ...]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import score  # noqa: E402

_PIN = re.compile(r"(?<![\w.-])(transformers|accelerate|peft|trl|pytorch-lightning|pytorch_lightning|lightning|"
                  r"deepspeed|hydra-core)(\[[^\]]*\])?\s*===?\s*v?\d", re.IGNORECASE)
_LOCKS = ("poetry.lock", "uv.lock", "Pipfile.lock")
_full_run = score.run_variant


def _pins(files: dict) -> bool:
    return any(Path(n).name in _LOCKS or _PIN.search(t) for n, t in files.items())


def run_variant(exe, root, files, launch):  # type: ignore[no-untyped-def]
    return _full_run(exe, root, files, launch) if _pins(files) else []


def main() -> int:
    score.run_variant = run_variant  # type: ignore[assignment]
    exe = [sys.executable, str(HERE / "det75_only_rules.py"), "PF384,PF385"]
    for which in sys.argv[1:]:
        cases = score.load_cases(None, which)
        pinned = sum(_pins(c.files.get("bug", {})) or _pins(c.files.get("fix", {})) for c in cases)
        print(f"== {which}: {len(cases)} cases, {pinned} with a pin of a table library")
        result = score.score(cases, exe, True, False, 1)
        print(score.table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
