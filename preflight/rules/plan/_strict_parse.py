"""Shared by the rules on what a script's argument parser accepts (PF206, PF232): the first strict
parse_args() reading sys.argv."""

from __future__ import annotations

import ast
from typing import Optional


def strict_parse_call(tree: ast.AST) -> Optional[ast.Call]:
    """The first ``<parser>.parse_args()`` reading ``sys.argv``, on a name bound to
    ``argparse.ArgumentParser(...)`` in the script."""
    parsers: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            func = node.value.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name == "ArgumentParser":
                parsers.update(t.id for t in node.targets if isinstance(t, ast.Name))
    found = [node for node in ast.walk(tree)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
             and node.func.attr == "parse_args" and isinstance(node.func.value, ast.Name)
             and node.func.value.id in parsers and not node.args and not node.keywords]
    return min(found, key=lambda n: (n.lineno, n.col_offset)) if found else None
