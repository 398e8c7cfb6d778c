"""TrainingArguments used as a bag of options by a script that runs its own Accelerate loop: its
``fp16``/``bf16`` set no precision.

The Trainer turns ``fp16``/``bf16`` into autocast (through its Accelerator). A script that parses a
TrainingArguments subclass with ``HfArgumentParser`` but builds no Trainer and makes its own
``Accelerator(...)`` without ``mixed_precision`` runs at the precision accelerate takes from the
launch (``accelerate launch --mixed_precision``, its config, ``ACCELERATE_MIXED_PRECISION``), else
"no" (ylacombe/finetune-hf-vits ``run_vits_finetuning.py:529,560,874-879`` @ 6f3f51f:
``"fp16": true`` in ``training_config_examples/finetune_english.json:52`` is only written into a log
message). Read only when nothing else in the script reads the flag: a ``.fp16``/``.bf16`` outside
an f-string (``autocast(enabled=args.fp16)``, ``if args.bf16: model.to(torch.bfloat16)``,
``Accelerator(mixed_precision="fp16" if args.fp16 else "no")``) keeps the flag a fact.
"""

from __future__ import annotations

import ast
from typing import Any, Optional, Sequence


def precision_flags_unused(tree: Optional[ast.AST], calls: Sequence[Any]) -> Optional[str]:
    """Why the script's TrainingArguments ``fp16``/``bf16`` set no precision (an ``Accelerator()``
    without ``mixed_precision``, no Trainer, the flags read nowhere but in f-strings); None when
    they may."""
    if tree is None:
        return None
    if any((site.last or "").endswith("Trainer") for site in calls):
        return None  # a Trainer (the library's or the project's subclass) may be handed the arguments
    built = [site for site in calls if site.last == "Accelerator"
             and (site.qualified or "").split(".", 1)[0] in ("accelerate", "Accelerator")]
    if not built or any(k.arg in (None, "mixed_precision") for site in built for k in site.call.keywords):
        return None
    formatted = {id(n) for j in ast.walk(tree) if isinstance(j, ast.JoinedStr) for n in ast.walk(j)}
    if any(isinstance(n, ast.Attribute) and n.attr in ("fp16", "bf16") and id(n) not in formatted
           for n in ast.walk(tree)):
        return None
    site = built[0]
    return (f"{site.script.source.display}:{site.line}: {site.label}() gets no mixed_precision and no Trainer "
            "is built: the TrainingArguments' fp16/bf16 set no precision (the script reads them only in "
            "messages); accelerate takes it from the launch, else \"no\"")
