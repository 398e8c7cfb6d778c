"""det115: PF540 (now also: a client optimizer passed to deepspeed.initialize under optimizer offload even
with a config optimizer section), PF165 (`accelerate launch --mixed_precision` over a Trainer script without its own `--fp16`),
PF164 (a Seq2SeqTrainer script evaluated from the launch line without ``--predict_with_generate``),
PF565 (now also: labels decoded raw when only the predictions are cleaned of -100) and PF582 (now also: the
launch line's ``--gradient_checkpointing True`` and 5.0.0 pre-release pins) run alone over the
bug/fix/tricky-correct variants of the bug sets whose text holds their gate (the det97_only_rules.py
machinery with det115's gates). A finding on a fix variant or a ``kind: correct`` case is a twin or
tricky-correct program a rule flags.

    python bench/bugs/det115_only_rules.py WORK in-sample held-out held-out-2 ... held-out-43
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

# the gates hold what the new paths need: PF164 a launch-line parser, a seq2seq script that decodes; PF582's
# new paths a launch-line parser with --gradient_checkpointing, or a 5.0.0 pre-release pin (its literal
# ``gradient_checkpointing=True`` path is unchanged). PF565 is a file rule: it runs in process over every .py
# file of every variant (``--pf565``), 3,000+ files are too many for a subprocess each.
GATES = {
    "PF164": lambda t, f: "Seq2SeqTrainingArguments" in t and "batch_decode" in t
    and "parse_args_into_dataclasses" in t,
    "PF540": lambda t, f: "deepspeed.initialize" in t and "offload_optimizer" in t and "optimizer=" in t,
    "PF165": lambda t, f: "--mixed_precision" in t and "parse_args_into_dataclasses" in t,
    "PF582": lambda t, f: "get_peft_model" in t and (
        ("parse_args_into_dataclasses" in t and "--gradient_checkpointing" in t)
        or re.search(r"transformers\s*==\s*5\.0\.0\.?(dev|rc)", t) is not None),
}
DET115 = ("PF164", "PF165", "PF540", "PF582")


def pf565_in_process(sets: list[str]) -> None:
    """PF565 alone on every .py file of every variant of ``sets``."""
    from score import SETS, parse_cases

    from preflight.diagnostics import FileError
    from preflight.engine import Selection, analyse_parsed
    from preflight.sources import SourceText, parse_python

    files_seen = found = 0
    for which in sets:
        for folder in SETS[which]:
            for cases in sorted(folder.glob("*.cases")):
                for case in parse_cases(cases):
                    for variant, files in case.files.items():
                        label = "correct" if case.kind == "correct" else variant
                        for name, text in files.items():
                            if not name.endswith(".py") or "batch_decode" not in text:
                                continue
                            files_seen += 1
                            src = SourceText(path=Path(name), display=name, kind="python", raw=text.encode(),
                                             text=text)
                            parsed = parse_python(src)
                            if isinstance(parsed, FileError):
                                continue
                            for f in analyse_parsed(parsed, Selection(codes=("PF565",))):
                                if f.code == "PF565":
                                    found += 1
                                    print(f"{which} {case.id} {label} PF565 {name}:{f.span.line}")
    print(f"PF565 in process: py files with batch_decode {files_seen}, findings {found}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--pf565"]:
        pf565_in_process(sys.argv[2:])
    else:
        from det97_only_rules import main

        main(GATES, DET115)
