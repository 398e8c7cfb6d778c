"""Shared by the rules on what a script's argument parser accepts (PF206, PF232): the first strict
parse_args() reading sys.argv; the first strict HfArgumentParser parse over the script's own dataclasses."""

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


def _is_hf_parser(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else "") \
        == "HfArgumentParser"


def _own_dataclasses(tree: ast.AST) -> dict[str, ast.ClassDef]:
    """The script's ``@dataclass`` classes without a base class (nothing inherited, e.g. no TrainingArguments)."""
    return {node.name: node for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef) and not node.bases
            and any("dataclass" in ast.unparse(d) for d in node.decorator_list)}


def strict_hf_parse_call(tree: ast.AST) -> Optional[tuple[ast.Call, list[str]]]:
    """The first ``HfArgumentParser(<dataclasses>).parse_args_into_dataclasses()`` reading ``sys.argv`` (no
    ``args``) that fails on an unknown option (no ``return_remaining_strings=True``), where every dataclass
    is one of the script's own, base-less ``@dataclass`` classes: (the call, their names). None otherwise
    (``TrainingArguments`` and any class it cannot read define or may define ``--local_rank``)."""
    own = _own_dataclasses(tree)
    parsers: dict[str, ast.Call] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and _is_hf_parser(node.value):
            assert isinstance(node.value, ast.Call)
            parsers.update((t.id, node.value) for t in node.targets if isinstance(t, ast.Name))
    found: list[tuple[ast.Call, list[str]]] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "parse_args_into_dataclasses" and not node.args):
            continue
        if any(k.arg != "return_remaining_strings" or not (isinstance(k.value, ast.Constant) and k.value.value is False)
               for k in node.keywords):
            continue
        receiver = node.func.value
        made = receiver if _is_hf_parser(receiver) else \
            parsers.get(receiver.id) if isinstance(receiver, ast.Name) else None
        if not isinstance(made, ast.Call) or len(made.args) != 1 or made.keywords:
            continue
        arg = made.args[0]
        items = arg.elts if isinstance(arg, (ast.Tuple, ast.List)) else [arg]
        names = [i.id for i in items if isinstance(i, ast.Name)]
        if not names or len(names) != len(items) or any(n not in own for n in names):
            continue
        found.append((node, names))
    return min(found, key=lambda f: (f[0].lineno, f[0].col_offset)) if found else None
