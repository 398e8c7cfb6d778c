"""``@torch.compile`` on a numeric helper function compiles that function, not the model.

MoonshotAI/Moonlight @ its pinned commit ``examples/toy_train.py:48``: ``@torch.compile`` decorates
``zeropower_via_newtonschulz5(G, steps)``, the Muon optimizer's Newton-Schulz iteration over one
gradient matrix; the model is built and trained uncompiled. The absence readers look for
``torch.compile`` by any spelling; this blanks such decorators first, so that the word no longer
stands for a compiled model.

A decorator counts as a helper's when it is ``@torch.compile`` or ``@torch.compile(...)`` on a
module-level ``def`` whose body calls nothing but builtins and methods of values (``len(G.shape)``,
``X.norm()``, ``range(steps)``): no call of a parameter or a global by name (``model(x)``), and no
``.forward``/``.generate``/``__call__`` method, so no module's forward can run inside it. Anything
else is left as written (the word still counts).
"""

from __future__ import annotations

import ast
import builtins

_BUILTINS = frozenset(dir(builtins))
_MODEL_METHODS = frozenset({"forward", "generate", "__call__", "apply", "module", "model"})


def _is_torch_compile(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    return isinstance(target, ast.Attribute) and target.attr == "compile" \
        and isinstance(target.value, ast.Name) and target.value.id == "torch"


def _numeric_only(fn: ast.FunctionDef) -> bool:
    for node in ast.walk(fn):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)) and node is not fn:
            return False
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name):
            if func.id not in _BUILTINS:
                return False
        elif isinstance(func, ast.Attribute):
            if func.attr in _MODEL_METHODS:
                return False
        else:
            return False
    return True


def blank_helper_compiles(text: str) -> str:
    """``text`` with the ``@torch.compile`` decorators of numeric helper functions blanked (the
    same length and lines); unchanged when it does not parse."""
    if "compile" not in text:
        return text
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return text
    lines = text.split("\n")
    for stmt in tree.body:
        if not isinstance(stmt, ast.FunctionDef) or not _numeric_only(stmt):
            continue
        for deco in stmt.decorator_list:
            if not _is_torch_compile(deco) or deco.end_lineno is None:
                continue
            for i in range(deco.lineno - 1, deco.end_lineno):
                lines[i] = " " * len(lines[i])
    return "\n".join(lines)
