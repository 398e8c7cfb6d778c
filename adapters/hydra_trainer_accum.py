"""The accumulation count a composed Hydra config gives the project's own trainer class (``batch.grad_accum``,
medium), read as data (never instantiated, never imported).

The composed config's ``trainer`` node (or its top-level node) names by ``_target_`` a class of the project that
builds an accelerate ``Accelerator`` (or the project's subclass of it, any callee named ``...Accelerator...``) with
``gradient_accumulation_steps=self.X``, in a method of that class or of a local base class it derives from
(followed through ``from module import Base``, at most 4 levels), where ``X`` is a field of the class (a
dataclass field, or an ``__init__`` parameter stored as ``self.X = X``) that no method assigns otherwise: the
node's ``X`` value is the accumulation. Found in HiRookie9/PicoAudio2 @ e8e7268 ``src/configs/default.yaml:38-42``
(``trainer._target_: audio_generation_trainer.AudioGenerationTrainer``, ``gradient_accumulation_steps:
${gradient_accumulation_steps}``, 4 in ``configs/basic.yaml``) -> ``src/trainer.py:88-117`` (``@dataclass class
Trainer`` with the field, ``AcceleratorSaveTrainableParams(gradient_accumulation_steps=self.
gradient_accumulation_steps, ...)``); the script's own helper ``Accelerator()`` (1) only counts processes.

Left unknown: a value that is not a positive integer once composed (an unresolved interpolation), a key of the
same name swept by a multirun line, a class whose attribute is also assigned elsewhere (``self.X = max(1, ...)``), a class that builds
several accumulating accelerators that disagree, a trainer class that is not the project's (``lightning.`` /
``transformers.`` ``Trainer``: their own readers), and a base class imported by a relative or star import.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from preflight.analysis.syntax import dotted_name

if TYPE_CHECKING:
    from preflight.adapters.hydra import _Facts

_NOT_LOCAL = ("torch.", "lightning.", "pytorch_lightning.", "transformers.", "accelerate.", "hydra.")
_KEY = "gradient_accumulation_steps"
_DEPTH = 4


def _class_at(root: Path, target: str) -> Optional[tuple[ast.Module, ast.ClassDef]]:
    from preflight.adapters.module_params import local_file

    from preflight.local_trees import parse_project_file

    file = next((f for f in (local_file(b, target) for b in (root, root.parent)) if f is not None), None)
    tree = parse_project_file(file) if file is not None else None
    if not isinstance(tree, ast.Module):
        return None
    name = target.rsplit(".", 1)[-1]
    found = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name]
    return (tree, found[0]) if len(found) == 1 else None


def _base_targets(tree: ast.Module, cls: ast.ClassDef, module: str) -> list[str]:
    """The dotted targets of ``cls``'s bases: a class of the same module, or one imported by ``from M import B``."""
    out: list[str] = []
    for base in cls.bases:
        if not isinstance(base, ast.Name):
            continue
        if any(isinstance(n, ast.ClassDef) and n.name == base.id for n in tree.body):
            out.append(f"{module}.{base.id}" if module else base.id)
            continue
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and not node.level and node.module:
                for alias in node.names:
                    if (alias.asname or alias.name) == base.id:
                        out.append(f"{node.module}.{alias.name}")
    return out


def _accelerator_attr(cls: ast.ClassDef) -> list[tuple[str, int]]:
    """(X, line) of each ``...Accelerator...(gradient_accumulation_steps=self.X)`` in the class's methods."""
    out: list[tuple[str, int]] = []
    for node in ast.walk(cls):
        if not isinstance(node, ast.Call) or "Accelerator" not in (dotted_name(node.func) or "").rsplit(".", 1)[-1]:
            continue
        for kw in node.keywords:
            if kw.arg == _KEY:
                value = kw.value
                if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id == "self":
                    out.append((value.attr, node.lineno))
                else:
                    out.append(("", node.lineno))  # another expression: not this reader's
    return out


def _field(cls: ast.ClassDef, attr: str) -> Optional[str]:
    """The config key behind ``self.attr``: the class-level annotated field (a dataclass's) of that name, or the
    ``__init__`` parameter stored as ``self.attr = param``; None when neither."""
    if any(isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.target.id == attr for n in cls.body):
        return attr
    from preflight.adapters.lightning_local import _init_param

    return _init_param(cls, attr)


def _assigned(cls: ast.ClassDef, attr: str, param: str) -> bool:
    """Whether a method assigns ``self.attr`` (other than ``__init__``'s ``self.attr = param``)."""
    for fn in cls.body:
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            for target in targets:
                if dotted_name(target) == f"self.{attr}":
                    plain = fn.name == "__init__" and isinstance(node, ast.Assign) and \
                        isinstance(node.value, ast.Name) and node.value.id == param
                    if not plain:
                        return True
    return False


def _chain(root: Path, target: str) -> list[ast.ClassDef]:
    """The class ``target`` names and its local bases (breadth first, at most ``_DEPTH`` levels)."""
    out: list[ast.ClassDef] = []
    todo = [(target, 0)]
    seen: set[str] = set()
    while todo:
        name, depth = todo.pop(0)
        if name in seen or depth > _DEPTH or name.startswith(_NOT_LOCAL):
            continue
        seen.add(name)
        got = _class_at(root, name)
        if got is None:
            continue
        tree, cls = got
        out.append(cls)
        todo.extend((b, depth + 1) for b in _base_targets(tree, cls, name.rpartition(".")[0]))
    return out


def trainer_accumulation(facts: _Facts) -> None:
    from preflight.adapters.hydra_loader_node import swept_names

    if not isinstance(facts.cfg, dict):
        return
    root = Path(str(facts.project.root))
    found: list[tuple[tuple[str, ...], int, str]] = []
    for path in ((), ("trainer",)):
        node = facts.cfg if not path else facts.cfg.get(path[0])
        target = node.get("_target_") if isinstance(node, dict) else None
        if not isinstance(target, str) or "." not in target or target.startswith(_NOT_LOCAL):
            continue
        chain = _chain(root, target)
        sites = [(attr, line) for cls in chain for attr, line in _accelerator_attr(cls)]
        attrs = {attr for attr, _ in sites}
        if len(attrs) != 1 or "" in attrs:
            continue
        attr = attrs.pop()
        param = next((p for p in (_field(cls, attr) for cls in chain) if p is not None), None)
        if param is None or not isinstance(node, dict) or param not in node or any(_assigned(cls, attr, param) for cls in chain) \
                or param in swept_names(facts):
            continue
        key = (*path, param)
        value = facts.known(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            found.append((key, value, f"{target} builds its Accelerator with {_KEY}=self.{attr} "
                                      f"(line {sites[0][1]})"))
    if len({v for _, v, _ in found}) != 1:
        return
    key, value, detail = found[0]
    facts.add("batch.grad_accum", value, key, f"{'.'.join(key)} {value}: {detail}", "medium")
