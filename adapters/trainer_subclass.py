"""A Hugging Face ``Trainer`` subclass the project defines in a module the script imports
(facebookresearch/MobileLLM @ 8b9769db ``utils/pretrain_trainer.py:13,115`` ``class
PretrainTrainer(PretrainMixin, Trainer)`` with ``from transformers import Trainer``, built and
trained by ``pretrain.py:203-214``): the script's ``PretrainTrainer(...)`` is a transformers Trainer
that owns the loop. Only a class whose bases name a transformers/TRL ``*Trainer`` (imported in
that module) directly or through another class of the same module; nothing is executed."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from preflight.analysis.syntax import dotted_name
from preflight.local_trees import module_file, parse_project_file


def _hf_imports(tree: ast.Module) -> dict[str, str]:
    out: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in ("transformers", "trl"):
            for a in node.names:
                out[a.asname or a.name] = f"{node.module}.{a.name}"
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] in ("transformers", "trl"):
                    out[a.asname or a.name] = a.name
    return out


def _subclasses_trainer(tree: ast.Module, name: str) -> bool:
    imports = _hf_imports(tree)
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    found: set[str] = set()
    for _ in range(3):
        for cname, node in classes.items():
            for base in node.bases:
                dotted = dotted_name(base) or ""
                head, _, rest = dotted.partition(".")
                qualified = imports.get(head, head) + (f".{rest}" if rest else "")
                if dotted in found or (qualified.startswith(("transformers.", "trl.")) and qualified.endswith("Trainer")):
                    found.add(cname)
    return name in found


def local_hf_trainer(site: Any, here: Path, root: Any) -> bool:
    """Whether the call ``site`` builds a project class that subclasses a transformers/TRL Trainer."""
    q = site.qualified or ""
    if "." not in q or not (site.last or "").endswith("Trainer") or q.startswith(("transformers.", "trl.", "peft.")):
        return False
    module, _, cls = q.rpartition(".")
    bases = [here] + ([Path(str(root))] if root else [])
    for base in bases:
        path = module_file(base, module)
        if path is None:
            continue
        tree = parse_project_file(path)
        return tree is not None and _subclasses_trainer(tree, cls)
    return False
