"""A DeepSpeed config the training script names in its own arguments object: ``TrainingArguments(...,
deepspeed="ds_config.json")`` / ``SFTConfig(..., deepspeed="./ds_config.json")`` written in the script,
with no launch-line flag needed (joagada2/finetuning @ a4a159a ``sft_llama_ds.py:48-67``
``SFTConfig(..., deepspeed="ds_config.json")`` beside ``ds_config.json`` with ``"stage": 3``, launched by
``run.slurm`` as ``deepspeed --num_gpus 8 sft_llama_ds.py``; ``find_string 'deepspeed="ds_config.json"'``
and ``'deepspeed="./ds_config'`` find 10+ scripts each). The Trainer runs DeepSpeed with that file, so it is
read as a job config, as if named by ``--deepspeed``.

Read only for a keyword ``deepspeed=`` whose value is a string literal ending in ``.json``, of a call
whose name ends in ``Arguments`` or ``Config`` (``TrainingArguments``, ``Seq2SeqTrainingArguments``,
``SFTConfig``, ``GRPOConfig``, ...), in the script the job runs, outside any ``if``/``try``/loop or
conditional expression (a call that may not run names nothing), and when every such call names the same
file; the file is looked up from the working directory, then beside the script. Not parsed further here:
the DeepSpeed adapter reads it like any job config. Nothing is executed."""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any, Optional, Sequence

from preflight.sources import read_text_limited

_GUARDS = (ast.If, ast.IfExp, ast.Try, ast.For, ast.While, ast.AsyncFor, ast.Lambda, ast.ListComp, ast.DictComp,
           ast.SetComp, ast.GeneratorExp)


def _callee(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _named(tree: ast.AST) -> list[tuple[str, int]]:
    """(file, line) of every unguarded ``XArguments(deepspeed="F.json")`` / ``XConfig(...)`` call; a
    guarded one or a non-literal value makes the list ``[("", 0)]`` (undecided)."""
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST, guarded: bool) -> None:
        if isinstance(node, ast.Call) and _callee(node).endswith(("Arguments", "Config")):
            for kw in node.keywords:
                if kw.arg != "deepspeed":
                    continue
                value = kw.value.value if isinstance(kw.value, ast.Constant) else ""
                if isinstance(value, str) and value.lower().endswith(".json") and not guarded:
                    found.append((value, node.lineno))
                elif value is not None:
                    found.append(("", 0))  # guarded, computed or not a JSON file: undecided
        for child in ast.iter_child_nodes(node):
            visit(child, guarded or isinstance(node, _GUARDS))

    visit(tree, False)
    return found


def code_deepspeed(scripts: Sequence[Path], configs: list[Path], notes: list[str], bases: Sequence[Path],
                   root: Path, display: Any, find: Any) -> Optional[Path]:
    """Add the DeepSpeed config the job's script names in its arguments object to ``configs`` (with a
    note); the file added, else None."""
    if not scripts or not str(scripts[0]).endswith(".py"):
        return None
    script = scripts[0]
    try:
        tree = ast.parse(read_text_limited(script, errors="replace")[:2_000_000])
    except (OSError, ValueError, SyntaxError, RecursionError, MemoryError):
        return None
    named = _named(tree)
    names = {n for n, _ in named}
    if len(names) != 1 or "" in names:
        return None
    name, line = named[0]
    found = find(name, [*bases, script.parent])
    if found is None:
        notes.append(f"{display(script, root)}:{line} names deepspeed=\"{name}\"; not found, not read")
        return None
    if any(os.path.abspath(c) == os.path.abspath(found) for c in configs):
        return None
    configs.append(found)
    notes.append(f"read {display(found, root)}: named by deepspeed=\"{name}\" at {display(script, root)}:{line} "
                 "(the Trainer runs DeepSpeed with that file)")
    return found
