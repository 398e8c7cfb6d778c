"""A guard clause the job takes: ``if test: ...; return`` decided true, so the rest of the block (the ``elif``/``else``
arms and the statements after the ``if``) does not run. WeOpenML/PandaLM @ 3871806e ``pandalm/core/nets.py:86-102``::

    def get_peft_model(self, peft_args, model):
        if peft_args.peft_model == 'none':
            logging.warning("Full finetuning...")
            return model
        elif peft_args.peft_model == 'lora':
            peft_config = LoraConfig(...)
        model = get_peft_model(model, peft_config)

With ``--peft_model none`` on the launch line every LoRA construct of the module is past the taken ``return``:
no LoRA (read by :func:`preflight.adapters.config_object_guards._only_lora_off`).
"""

from __future__ import annotations

import ast
from typing import Iterator


def ends_in_exit(stmts: list[ast.stmt]) -> bool:
    """The block's last statement leaves the function (``return``/``raise``)."""
    return bool(stmts) and isinstance(stmts[-1], (ast.Return, ast.Raise))


def dead_after(tree: ast.AST, node: ast.If) -> Iterator[ast.AST]:
    """Every node of ``node``'s ``elif``/``else`` arms and of the statements after it in its block."""
    for stmt in node.orelse:
        yield from ast.walk(stmt)
    for holder in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(holder, name, None)
            if not isinstance(block, list) or not any(s is node for s in block):
                continue
            at = next(i for i, s in enumerate(block) if s is node)
            for stmt in block[at + 1:]:
                yield from ast.walk(stmt)
            return
