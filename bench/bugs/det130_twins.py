"""det130: PF697/PF698/PF699 on the variants of the bug sets, run as score.py runs them (the CLI's check +
audit + validate on the variant's files and launch), for the variants whose text one of the three rules could
fire on (the gates below). Prints every finding of the three codes with its label: on a "bug" variant it is a
hit, on a "fix"/"correct" variant a newly flagged twin / tricky-correct program.

    python bench/bugs/det130_twins.py held-out-40 held-out-41 ...
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from score import SETS, parse_cases, run_variant

CODES = ("PF697", "PF698", "PF699")
_POOLER = re.compile(r"(BertModel|RobertaModel|AlbertModel|MPNetModel|AutoModel)\.from_pretrained")


def gate(text: str) -> bool:
    if re.search(r"global_step\d", text) and "from_pretrained" in text:
        return True  # PF698
    if "deepspeed==" in text and "accelerate==" in text:
        return True  # PF699
    return bool(_POOLER.search(text)) and ("Accelerator(" in text or "DistributedDataParallel" in text
                                           or "DDP(" in text)  # PF697


def main() -> None:
    sets = sys.argv[1:]
    exe = [sys.executable, "-m", "preflight"]
    read = 0
    for which in sets:
        for folder in SETS[which]:
            for cases in sorted(folder.glob("*.cases")):
                for case in parse_cases(cases):
                    for variant, files in case.files.items():
                        if not files or not gate("\n".join(files.values()) + case.launch):
                            continue
                        read += 1
                        label = "correct" if case.kind == "correct" else variant
                        with tempfile.TemporaryDirectory() as tmp:
                            found = run_variant(exe, Path(tmp), files, case.launch)
                        codes = [(f[0], f[1], f[2]) for f in found if f[0] in CODES]
                        print(which, case.id, label, codes, flush=True)
    print("variants read", read)


if __name__ == "__main__":
    main()
