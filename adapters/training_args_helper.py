"""``TrainingArguments`` built by a helper function of a project module that the entry script calls,
when the entry imports transformers/TRL itself but builds no training arguments: rui-ye/OpenFedLLM
@ 14c6af2 ``main_sft.py:12,16,87`` ``from config import get_training_args`` then ``training_args =
get_training_args(script_args, script_args.learning_rate)``; ``config.py:84-101`` builds
``TrainingArguments(per_device_train_batch_size=script_args.batch_size, ...)`` from the options its
``HfArgumentParser`` parsed (``config.py:65-66``), and a trainer is trained (``trainer.train()``).

The module is then read by the transformers reading like one the entry imports without transformers
(:mod:`preflight.adapters.transformers_local`, every fact ``medium``). Only a function the entry imports
by name from that module and calls, whose body builds the arguments; only one such module; and only
when the entry (or a module it imports) trains (``.train(``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Optional

from preflight.local_trees import nodes_of

_ARGS = re.compile(r"\b\w*(?:TrainingArguments|SFTConfig|DPOConfig|GRPOConfig|KTOConfig|ORPOConfig|RewardConfig)\s*\(")
_ARG_CLASS = re.compile(r"^\w*(?:TrainingArguments|SFTConfig|DPOConfig|GRPOConfig|KTOConfig|ORPOConfig|RewardConfig)$")


def _builds_args(fn: ast.FunctionDef) -> bool:
    for node in ast.walk(fn):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if _ARG_CLASS.match(name):
                return True
    return False


def helper_module(tree: ast.Module, text: str, candidates: list[tuple[Path, ast.Module]]) -> Optional[Path]:
    """The one module of ``candidates`` (path, parsed tree: the entry's local imports) with a function the
    entry imports by name, calls, and that builds training arguments; None when the entry builds its own
    or there is not exactly one."""
    if _ARGS.search(text):
        return None
    called = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    imported: dict[str, set[str]] = {}
    for node in nodes_of(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            imported.setdefault(node.module.rsplit(".", 1)[-1], set()).update(
                a.asname or a.name for a in node.names if (a.asname or a.name) in called)
    found: list[Path] = []
    for path, mod in candidates:
        names = imported.get(path.stem if path.name != "__init__.py" else path.parent.name, set())
        if not names:
            continue
        fns = [n for n in mod.body if isinstance(n, ast.FunctionDef) and n.name in names]
        if any(_builds_args(fn) for fn in fns):
            found.append(path)
    return found[0] if len(found) == 1 else None
