"""The template arguments of trl's ``DataCollatorForCompletionOnlyLM`` calls in a file (PF309, PF350)."""

from __future__ import annotations

import ast
from typing import Iterator

from preflight.analysis.context import FileContext
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last

_COLLATORS = frozenset({"DataCollatorForCompletionOnlyLM"})


def collator_templates(ctx: FileContext) -> Iterator[tuple[ast.Call, str, ast.expr]]:
    """(collator call, ``response_template`` / ``instruction_template``, the argument) for every template a
    completion-only collator is given (the response template also positionally)."""
    for call in ctx.nodes(ast.Call):
        if call_last(call) not in _COLLATORS:
            continue
        for key, arg in (("response_template", kwarg(call, "response_template")
                          or (call.args[0] if call.args else None)),
                         ("instruction_template", kwarg(call, "instruction_template"))):
            if arg is not None:
                yield call, key, arg
