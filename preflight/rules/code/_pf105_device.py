"""PF105 support: is an autocast ``device_type`` expression CUDA?

``torch.autocast(device_type=str(device))`` and ``torch.autocast(device_type=device.type)`` are
CUDA autocasts (float16 by default) when every value ``device`` can come from in the file is
``torch.device("cuda")`` / ``"cuda"``. The value is followed with
:func:`preflight.analysis.value_resolver.value_resolver` (reaching assignments, call sites of
a parameter); any path it cannot follow (the command line, a parameter with no call site)
makes the answer "not known to be CUDA".
"""

from __future__ import annotations

import ast
from typing import Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import FunctionInfo, ScopeIndex
from preflight.analysis.value_resolver import ValueResolver, value_resolver

_DEVICE = frozenset({"torch.device"})


def _string(node: ast.AST) -> Optional[str]:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _cuda_text(node: ast.AST, exact: bool) -> bool:
    """A literal (or ``"cuda" if ... else "cpu"``) that names CUDA; ``exact``: ``"cuda"`` itself."""
    if isinstance(node, ast.IfExp):
        branches = [_string(node.body), _string(node.orelse)]
        if None in branches:
            return False
        cudas = [b for b in branches if b is not None and _cuda_name(b, exact)]
        others = [b for b in branches if b is not None and not _cuda_name(b, exact)]
        return bool(cudas) and all(b == "cpu" for b in others)
    text = _string(node)
    return text is not None and _cuda_name(text, exact)


def _cuda_name(text: str, exact: bool) -> bool:
    return text == "cuda" if exact else text == "cuda" or text.startswith("cuda:")


class CudaDevice:
    """Decides ``device_type`` expressions of one file (see the module docstring)."""

    def __init__(self, ctx: FileContext, scopes: ScopeIndex) -> None:
        self.ctx = ctx
        self.scopes = scopes
        self._resolver: Optional[ValueResolver] = None

    def is_cuda(self, expr: ast.expr, at: ast.AST) -> bool:
        fn = self.scopes.function_of(at)
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "str" and (
                len(expr.args) == 1 and not expr.keywords):
            return self._all(expr.args[0], fn, exact=True)  # str(torch.device("cuda:0")) is "cuda:0"
        if isinstance(expr, ast.Attribute) and expr.attr == "type":
            return self._all(expr.value, fn, exact=False, device_only=True)
        if isinstance(expr, ast.Name):
            return self._all(expr, fn, exact=True, strings_only=True)
        return False

    def _all(self, expr: ast.expr, fn: FunctionInfo, exact: bool, device_only: bool = False,
             strings_only: bool = False) -> bool:
        if self._resolver is None:
            self._resolver = value_resolver(self.ctx)
        leaves = self._resolver.sources(expr, fn)
        if not leaves:
            return False
        for leaf in leaves:
            node = leaf.node
            if isinstance(node, ast.Call) and not strings_only and (
                    self.scopes.imports.qualify(node.func) in _DEVICE):
                if len(node.args) != 1 or node.keywords or not _cuda_text(node.args[0], exact):
                    return False
            elif device_only or not _cuda_text(node, exact):
                return False
        return True
