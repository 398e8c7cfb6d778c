"""A `preflight` stand-in for bench/bugs/score.py that runs only the det90 rules (PF372-PF376), as
det79_only_rules.py does: a variant none of whose files holds any of the words the rules need, and no YAML
file of which has a ``group@package`` defaults key (PF375), cannot get a finding from them, so preflight is
not started for it. ``score.py --preflight "python bench/bugs/det90_only_rules.py PF372,... WORD,..."``;
``det75_combine.py BEFORE.txt ONLY.txt`` joins the outputs (see det75_only_rules.py)."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from det75_only_rules import run_only

_PACKAGED_KEY = re.compile(r"^\s*-\s*(?:optional\s+|override\s+)?/?[\w/.-]+@[\w.]+\s*:", re.MULTILINE)


def _holds_any(words: list[str]) -> bool:
    for folder, _dirs, files in os.walk("."):
        for name in files:
            try:
                with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as handle:
                    text = handle.read()
            except OSError:
                continue
            if any(w in text for w in words):
                return True
            if name.endswith((".yaml", ".yml")) and _PACKAGED_KEY.search(text):
                return True
    return False


def main() -> int:
    rules, words, command, rest = sys.argv[1], sys.argv[2].split(","), sys.argv[3], sys.argv[4:]
    if command not in ("check", "validate") and not _holds_any(words):
        print(json.dumps({"findings": []}))
        return 0
    return run_only(rules, command, rest)


if __name__ == "__main__":
    sys.exit(main())
