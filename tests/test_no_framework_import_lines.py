"""The base package reads training code; it never imports a training framework at module level. Only the
runtime guard (preflight/guard/) may, and it does so lazily. A column-0 ``import torch`` anywhere else, even
inside an example string, reads as a module-level import to a reviewer's grep and to the project check, so example
projects are written as indented ``textwrap.dedent`` strings instead."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "preflight"
_FRAMEWORK_IMPORT = re.compile(
    r"^(?:import|from)\s+(?:torch|transformers|deepspeed|lightning|pytorch_lightning|accelerate|peft|trl"
    r"|torchvision|bitsandbytes)\b", re.MULTILINE)


def test_no_column_zero_framework_import_outside_the_guard() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "guard" in path.relative_to(PACKAGE).parts[:1]:
            continue
        text = path.read_text(encoding="utf-8")
        for m in _FRAMEWORK_IMPORT.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            offenders.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {m.group(0)}")
    assert offenders == []


def test_the_check_sees_a_column_zero_import_in_a_string() -> None:
    sample = 'EXAMPLE = """\nfrom transformers import HfArgumentParser\n"""\n'
    assert _FRAMEWORK_IMPORT.search(sample) is not None
    assert _FRAMEWORK_IMPORT.search('EXAMPLE = """\n    from transformers import X\n"""\n') is None
