"""The import table of one file: the local names its imports bind, and the dotted name of an
expression with those aliases resolved (``F.cross_entropy`` -> ``torch.nn.functional.cross_entropy``).
Built by :func:`preflight.analysis.scopes.scope_index` (``ScopeIndex.imports``)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Optional

from preflight.analysis.syntax import dotted_name

if TYPE_CHECKING:
    from preflight.analysis.context import FileContext

# Conventional aliases used when a snippet never imports them.
_DEFAULT_ALIASES = {
    "torch": "torch",
    "nn": "torch.nn",
    "F": "torch.nn.functional",
    "optim": "torch.optim",
    "pl": "pytorch_lightning",
    "L": "lightning",
    "np": "numpy",
}


class ImportTable:
    """Local names bound by imports, and how to qualify an expression with them."""

    def __init__(self, aliases: dict[str, str], stored: set[str]) -> None:
        self.aliases = aliases
        self._qualified: dict[ast.AST, Optional[str]] = {}  # every rule qualifies the same calls
        for name, target in _DEFAULT_ALIASES.items():
            if name not in aliases and name not in stored:
                aliases[name] = target

    @classmethod
    def build(cls, ctx: FileContext, stored_names: Optional[list[ast.Name]] = None) -> ImportTable:
        """The file's import aliases; ``stored_names`` are its names in a store or delete
        context, when the caller has them already."""
        aliases: dict[str, str] = {}
        for node in ctx.nodes(ast.Import):
            for alias in node.names:
                if alias.asname:
                    aliases[alias.asname] = alias.name
                else:
                    root = alias.name.split(".")[0]
                    aliases[root] = root
        for imp in ctx.nodes(ast.ImportFrom):
            if imp.level or not imp.module:
                continue
            for alias in imp.names:
                if alias.name != "*":
                    aliases[alias.asname or alias.name] = f"{imp.module}.{alias.name}"
        if stored_names is None:
            stored_names = [n for n in ctx.unordered(ast.Name) if not isinstance(n.ctx, ast.Load)]
        return cls(aliases, {n.id for n in stored_names} - set(aliases))

    def qualify(self, node: ast.AST) -> Optional[str]:
        """Dotted name of a Name/Attribute chain with its root alias resolved."""
        memo = self._qualified
        if node in memo:
            return memo[node]
        found = memo[node] = self._qualify(node)
        return found

    def _qualify(self, node: ast.AST) -> Optional[str]:
        name = dotted_name(node)
        if name is None:
            return None
        root, _, rest = name.partition(".")
        target = self.aliases.get(root)
        if target is None:
            return name
        return f"{target}.{rest}" if rest else target
