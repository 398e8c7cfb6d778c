"""The transformers class a called model was loaded with (PF366, PF367)."""

from __future__ import annotations

import ast
from typing import Optional

from preflight.analysis.binding_kinds import MODULE
from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.rules._pf4_support import qualify


def pretrained_class(ctx: FileContext, call: ast.Call) -> Optional[str]:
    """The name of the transformers class whose ``from_pretrained`` built the model ``call`` calls
    (``model = AutoModelForCausalLM.from_pretrained(...)``; ``model(...)``), or None."""
    if not isinstance(call.func, (ast.Name, ast.Attribute)):
        return None
    scopes = scope_index(ctx)
    found = scopes.bindings.classify(call.func, scopes.function_of(call))
    if found is None or found.kind != MODULE:
        return None
    node = found.inner.node if found.inner is not None else found.node
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "from_pretrained"):
        return None
    qual = qualify(ctx, node.func.value) or ""
    return qual.rsplit(".", 1)[-1] if qual.startswith("transformers.") else None
