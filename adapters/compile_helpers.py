"""``@torch.compile`` on a numeric helper function compiles that function, not the model.

MoonshotAI/Moonlight @ its pinned commit ``examples/toy_train.py:48``: ``@torch.compile`` decorates
``zeropower_via_newtonschulz5(G, steps)``, the Muon optimizer's Newton-Schulz iteration over one
gradient matrix; the model is built and trained uncompiled. The absence readers look for
``torch.compile`` by any spelling; this blanks such decorators first, so that the word no longer
stands for a compiled model.

A decorator counts as a helper's when it is ``@torch.compile`` or ``@torch.compile(...)`` on a
module-level ``def`` whose body calls nothing but builtins and methods of values (``len(G.shape)``,
``X.norm()``, ``range(steps)``): no call of a parameter or a global by name (``model(x)``), and no
``.forward``/``.generate``/``__call__`` method, so no module's forward can run inside it. The same
for a method of a class whose body calls no attribute of its own object (``self.w1(x)`` may be a
submodule): Alpha-VLLM/Lumina-T2X @ 1c60696 ``Next-DiT-ImageNet/models/models.py:463-465``
``@torch.compile def _forward_silu_gating(self, x1, x3): return F.silu(x1) * x3``, a fused
activation inside the feed-forward of an uncompiled model. Anything else is left as written (the
word still counts).

A ``x.compile(...)`` call that cannot be ``nn.Module.compile`` is blanked too (see
:func:`module_compile_args`): a Keras-style ``model.compile("adagrad", "binary_crossentropy",
metrics=[...])`` (shenweichen/DeepCTR-Torch @ f685425 ``examples/run_classification_criteo.py:58``)
builds an optimizer and a loss, it compiles nothing.
"""

from __future__ import annotations

import ast
import builtins

_BUILTINS = frozenset(dir(builtins))
_MODEL_METHODS = frozenset({"forward", "generate", "__call__", "apply", "module", "model"})


_TORCH_COMPILE_KWARGS = frozenset({"fullgraph", "dynamic", "backend", "mode", "options", "disable"})


def module_compile_args(call: ast.Call) -> bool:
    """Whether ``x.compile(...)`` can be ``nn.Module.compile``: it hands its arguments to
    ``torch.compile``, whose options are keyword-only (``fullgraph``, ``dynamic``, ``backend``,
    ``mode``, ``options``, ``disable``). A positional argument or another keyword makes it a
    method of the project's own or a library's (a Keras-style ``compile(optimizer, loss,
    metrics=...)``: DeepCTR-Torch ``deepctr_torch/models/basemodel.py:433``; Keras 3 on the torch
    backend ``model.compile(optimizer=..., loss=...)``)."""
    if call.args:
        return False
    return all(kw.arg is None or kw.arg in _TORCH_COMPILE_KWARGS for kw in call.keywords)


def _foreign_compiles(tree: ast.Module) -> list[ast.Call]:
    """``x.compile(...)`` calls (``x`` not ``torch`` nor ``re``) that are no ``nn.Module.compile``."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "compile" \
                and not (isinstance(node.func.value, ast.Name) and node.func.value.id in ("torch", "re")) \
                and not module_compile_args(node):
            out.append(node)
    return out


def _is_torch_compile(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    return isinstance(target, ast.Attribute) and target.attr == "compile" \
        and isinstance(target.value, ast.Name) and target.value.id == "torch"


def _numeric_only(fn: ast.FunctionDef, me: str = "") -> bool:
    """No call that may run a module: only builtins and methods of values; in a method (``me`` its
    first parameter) no call of an attribute of ``me`` either."""
    for node in ast.walk(fn):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)) and node is not fn:
            return False
        if me and isinstance(node, ast.Name) and node.id == me and not _only_attribute_reads(fn, me):
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


def _only_attribute_reads(fn: ast.FunctionDef, me: str) -> bool:
    """Every use of ``me`` in ``fn`` reads an attribute that is not called (``self.eps``)."""
    called = {id(n.func) for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)}
    parents = {id(n.value): n for n in ast.walk(fn) if isinstance(n, ast.Attribute)}
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and node.id == me and isinstance(node.ctx, ast.Load):
            attr = parents.get(id(node))
            if attr is None or id(attr) in called:
                return False
    return True


def _helpers(tree: ast.Module) -> list[ast.FunctionDef]:
    """Module-level functions, and methods of module-level classes, that are numeric helpers."""
    out = [s for s in tree.body if isinstance(s, ast.FunctionDef) and _numeric_only(s)]
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef):
            continue
        for method in cls.body:
            if isinstance(method, ast.FunctionDef) and method.args.args and method.name not in _MODEL_METHODS \
                    and not any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in method.decorator_list) \
                    and _numeric_only(method, method.args.args[0].arg):
                out.append(method)
    return out


def blank_helper_compiles(text: str) -> str:
    """``text`` with the ``@torch.compile`` decorators of numeric helper functions and the
    ``x.compile(...)`` calls that are no ``nn.Module.compile`` blanked (the same length and
    lines); unchanged when it does not parse."""
    if "compile" not in text:
        return text
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return text
    lines = text.split("\n")
    for call in _foreign_compiles(tree):
        if call.end_lineno is None or call.end_col_offset is None:
            continue
        for i in range(call.lineno - 1, call.end_lineno):
            row = lines[i].encode("utf-8")  # the offsets count UTF-8 bytes
            start = call.col_offset if i == call.lineno - 1 else 0
            end = call.end_col_offset if i == call.end_lineno - 1 else len(row)
            lines[i] = (row[:start] + b" " * (end - start) + row[end:]).decode("utf-8", errors="replace")
    for stmt in _helpers(tree):
        for deco in stmt.decorator_list:
            if not _is_torch_compile(deco) or deco.end_lineno is None:
                continue
            for i in range(deco.lineno - 1, deco.end_lineno):
                lines[i] = " " * len(lines[i])
    return "\n".join(lines)
