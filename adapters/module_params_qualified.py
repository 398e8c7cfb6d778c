"""Project classes referred to through their module's name (``import modules`` then ``modules.WN(...)``), for the
module counter (``module_params_imports.with_imports`` merges the imported modules' definitions into one flat
module, where the class is ``WN``).

jaywalnut310/glow-tts @ the benchmark's commit ``models.py:6-8,41,104``: ``import modules``, ``import attentions``,
then ``self.pre = modules.ConvReluNorm(...)``, ``self.encoder = attentions.Encoder(...)``; the same author's
jaywalnut310/vits and its many descendants build their models this way. :func:`unqualified` returns a copy of a
module whose ``alias.Name`` references, for an ``import alias`` (or ``import pkg.mod as alias``) of a project file
that defines ``Name`` at its top level, read ``Name``; only where the merged module means that same definition:
``Name`` is no definition of the module being counted (its own would win) and not one two imported modules define
differently. ``import pkg.mod`` without an alias (``pkg.mod.Name``) is left as it is. Read, never run.
"""

from __future__ import annotations

import ast
import copy
from pathlib import Path
from typing import Callable, Optional


def _aliases(path: Path, tree: ast.Module, find: Callable[[Path, str], Optional[Path]],
             parse: Callable[[Path], Optional[ast.Module]]) -> dict[str, set[str]]:
    """``alias -> names defined at the top of the project file it imports``."""
    out: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            # ``from models import vgg`` then ``vgg.vgg16_bn()``: a module file of a project package
            pairs = [(a, f"{node.module}.{a.name}") for a in node.names if a.name != "*"]
        elif isinstance(node, ast.Import):
            pairs = [(a, a.name) for a in node.names if "." not in a.name or a.asname]
        else:
            continue
        for a, dotted in pairs:
            found = find(path, dotted)
            sub = parse(found) if found is not None else None
            if sub is None:
                continue
            names = {n.name for n in sub.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
            # and what it imports by name (glow-tts ``attentions.py:10`` ``from modules import LayerNorm``, then
            # ``models.py`` ``attentions.LayerNorm(...)``): the same definition the merged module holds
            names |= {b.asname or b.name for n in sub.body if isinstance(n, ast.ImportFrom) for b in n.names
                      if b.name != "*"}
            out[a.asname or a.name] = names
    return out


class _Rewrite(ast.NodeTransformer):
    def __init__(self, aliases: dict[str, set[str]], keep: set[str]) -> None:
        self.aliases, self.keep = aliases, keep
        self.changed = False

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        value = node.value
        if isinstance(value, ast.Name) and node.attr in self.aliases.get(value.id, ()) and node.attr not in self.keep:
            self.changed = True
            return ast.copy_location(ast.Name(id=node.attr, ctx=node.ctx), node)
        self.generic_visit(node)
        return node


def unqualified(path: Path, tree: ast.Module, keep: set[str], find: Callable[[Path, str], Optional[Path]],
                parse: Callable[[Path], Optional[ast.Module]]) -> ast.Module:
    """``tree`` with its ``alias.Name`` references to imported project files read as ``Name`` (see the module
    comment); ``keep``: names that must not be rewritten (the counted module's own, the clashing ones). ``tree``
    itself, not a copy, when nothing changes."""
    aliases = _aliases(path, tree, find, parse)
    if not aliases:
        return tree
    shadowed = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    aliases = {k: v for k, v in aliases.items() if k not in shadowed}
    if not aliases:
        return tree
    rewrite = _Rewrite(aliases, keep)
    new = rewrite.visit(copy.deepcopy(tree))
    return new if rewrite.changed else tree
