"""Helpers of the code rules PF484-PF488 (issue 18: the transformers family's misses, branch det18)."""

from __future__ import annotations

import ast
import re
from typing import Optional

from preflight.analysis.context import FileContext
from preflight.rules._pf414_support import call_last, last_name

# receivers of `.from_pretrained` that are not models
_NOT_MODEL = re.compile(r"(Tokenizer|TokenizerFast|Config|Processor|FeatureExtractor|Extractor|Scheduler|Pipeline"
                        r"|Dataset)$|^Peft")
# trainers that put the model in train mode themselves
TRAINER_CALLS = re.compile(r"Trainer$")


def receiver_name(call: ast.Call) -> str:
    func = call.func
    return last_name(func.value) if isinstance(func, ast.Attribute) else ""


def model_loads(ctx: FileContext) -> list[ast.Call]:
    """``X.from_pretrained(...)`` calls whose ``X`` is not a tokenizer, config, processor or PEFT
    wrapper, in line order."""
    out = []
    for call in ctx.nodes(ast.Call):
        if call_last(call) != "from_pretrained":
            continue
        recv = receiver_name(call)
        if not recv or _NOT_MODEL.search(recv) or recv[:1].islower():
            continue
        out.append(call)
    return sorted(out, key=lambda c: (c.lineno, c.col_offset))


def assigned_to(ctx: FileContext, value: ast.AST) -> Optional[str]:
    """The name a call's value is bound to (``model = X.from_pretrained(...)``, through a trailing
    ``.cuda()``/``.to(...)``)."""
    node: ast.AST = value
    parent = ctx.parent(node)
    while isinstance(parent, ast.Attribute) and isinstance(ctx.parent(parent), ast.Call):
        node = ctx.parent(parent)  # type: ignore[assignment]
        parent = ctx.parent(node)
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
        return parent.targets[0].id
    return None


def trains_by_backward(ctx: FileContext) -> list[ast.Call]:
    """The ``.backward(...)`` calls of the file (a hand-written loop)."""
    return [c for c in ctx.nodes(ast.Call) if isinstance(c.func, ast.Attribute) and c.func.attr == "backward"]


def uses_a_trainer(ctx: FileContext) -> bool:
    return any(TRAINER_CALLS.search(call_last(c)) for c in ctx.nodes(ast.Call))
