"""Functions of a project's module that run without a call naming them: a class's ``__init__`` runs when
the class is built, and a LightningModule's hooks run when Lightning trains it.

Readers of a project's local modules keep only the code some file of the job calls (an optimizer or a
DataLoader built in a helper no one calls is not the job's). A call by name misses these two:
openai/improved-diffusion @ 1bc7bbb ``improved_diffusion/train_util.py:82`` builds ``AdamW`` in
``TrainLoop.__init__`` (``scripts/image_train.py`` calls ``TrainLoop(...)``), and kuleshov-group/mdlm
@ c112c52 ``diffusion.py:454`` builds ``torch.optim.AdamW`` in ``Diffusion.configure_optimizers``, a hook
``lightning`` calls for the ``Diffusion(L.LightningModule)`` given to ``trainer.fit``.

:func:`implicit_callers` maps each call inside such a function to the name a caller uses: the class's
name for an ``__init__`` (reached when that name is called), :data:`HOOK` for a hook of a class deriving from
``LightningModule`` (or ``LightningDataModule``), which the framework reaches itself. A hook counts only where
one class of the modules read defines it (:func:`hook_classes`): Stability-AI/stable-audio-tools @ 50049e3 has a
training wrapper per model type, each with its ``configure_optimizers``; the job's (``autoencoders.py``) builds
its optimizer from the config, another's (``training/diffusion.py:83``) a literal ``Adam``, not the job's.
"""

from __future__ import annotations

import ast
from typing import Sequence

from preflight.analysis.syntax import dotted_name

_LIGHTNING_BASES = ("LightningModule", "LightningDataModule")
HOOK = "<lightning hook>"  # the name a Lightning hook is reached by (never a Python name)


def _lightning(klass: ast.ClassDef) -> bool:
    return any((dotted_name(b) or "").rsplit(".", 1)[-1] in _LIGHTNING_BASES for b in klass.bases)


def hook_classes(tree: ast.AST, hooks: Sequence[str]) -> int:
    """How many Lightning classes of the module define one of ``hooks``."""
    return sum(1 for k in ast.walk(tree) if isinstance(k, ast.ClassDef) and _lightning(k) and any(
        isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.name in hooks for f in k.body))


def implicit_callers(tree: ast.AST, hooks: Sequence[str]) -> dict[int, str]:
    """id(call) -> the name that reaches it (a class name for its ``__init__``; :data:`HOOK` for a Lightning
    hook in ``hooks``), for the calls in those functions of the module's classes (nested functions
    inside them included)."""
    out: dict[int, str] = {}
    for klass in ast.walk(tree):
        if not isinstance(klass, ast.ClassDef):
            continue
        for fn in klass.body:
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if fn.name == "__init__":
                reached = klass.name
            elif fn.name in hooks and _lightning(klass):
                reached = HOOK
            else:
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Call):
                    out[id(node)] = reached
    return out
