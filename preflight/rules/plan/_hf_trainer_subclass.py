"""Whether a class of a script subclasses a Hugging Face Trainer (PF132, PF406)."""

from __future__ import annotations

import ast

from preflight.plan_rules import PlanContext
from preflight.rules._pf4_support import is_from
from preflight.sources import ParsedPython

_TRAINERS = ("Trainer", "Seq2SeqTrainer")


def hf_trainer_class(pctx: PlanContext, script: ParsedPython, cls: ast.ClassDef, depth: int = 0,
                     trl: bool = True) -> bool:
    """``cls`` subclasses transformers' Trainer or Seq2SeqTrainer (or, with ``trl``, a trl trainer), directly or
    through classes of the same file."""
    idx = pctx.index(script)
    for base in cls.bases:
        qual = idx.qualify(ast.unparse(base)) or ""
        if any(is_from(qual, "transformers", t) for t in _TRAINERS) or (
                trl and qual.startswith("trl.") and qual.endswith("Trainer")):
            return True
        local = idx.classes.get(ast.unparse(base))
        if local is not None and local is not cls and depth < 4 and hf_trainer_class(pctx, script, local, depth + 1, trl):
            return True
    return False
