"""The code of an imported module that never runs when it is imported: its ``if __name__ ==
"__main__":`` block (a self-test or demo). InternLM/InternEvo @ c628a8c
``internlm/utils/simple_memory_profiler.py:597-655`` builds ``torch.optim.Adam`` for a toy model
under that guard; the training optimizer is the ``AdamW`` of ``internlm/train/pipeline.py``. Readers
of a project's local modules (never of the launched script itself) leave such code out.
"""

from __future__ import annotations

import ast

from preflight.local_trees import nodes_of


def _is_main_test(test: ast.expr) -> bool:
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
    consts = [s for s in sides if isinstance(s, ast.Constant) and s.value == "__main__"]
    return len(names) == 1 and len(consts) == 1


def main_block_nodes(tree: ast.AST) -> set[int]:
    """The ids of the nodes under a module-level ``if __name__ == "__main__":`` (its body only)."""
    out: set[int] = set()
    for stmt in getattr(tree, "body", []):
        if isinstance(stmt, ast.If) and _is_main_test(stmt.test):
            for part in stmt.body:
                out.update(id(n) for n in nodes_of(part))
    return out


def guarded_nodes(tree: ast.AST) -> set[int]:
    """The ids of the nodes under any ``if`` (its body or ``else``) of the module."""
    out: set[int] = set()
    for node in nodes_of(tree):
        if isinstance(node, ast.If):
            for part in (*node.body, *node.orelse):
                out.update(id(n) for n in nodes_of(part))
    return out


__all__ = ["guarded_nodes", "main_block_nodes"]
