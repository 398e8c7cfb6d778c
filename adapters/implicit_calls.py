"""Functions of a project's module that run without a call naming them: a class's ``__init__`` runs when
the class is built, and a LightningModule's hooks run when Lightning trains it.

Readers of a project's local modules keep only the code some file of the job calls (an optimizer or a
DataLoader built in a helper no one calls is not the job's). A call by name misses these two:
openai/improved-diffusion @ 1bc7bbb ``improved_diffusion/train_util.py:82`` builds ``AdamW`` in
``TrainLoop.__init__`` (``scripts/image_train.py`` calls ``TrainLoop(...)``), and kuleshov-group/mdlm
@ c112c52 ``diffusion.py:454`` builds ``torch.optim.AdamW`` in ``Diffusion.configure_optimizers``, a hook
``lightning`` calls for the ``Diffusion(L.LightningModule)`` given to ``trainer.fit``.

:func:`implicit_callers` maps each call inside such a function to the name a caller uses: the class's
name for an ``__init__`` (reached when that name is called), None for a hook of a class deriving from
``LightningModule`` (or ``LightningDataModule``), which the framework reaches itself.
"""

from __future__ import annotations

import ast
from typing import Optional, Sequence

from preflight.analysis.syntax import dotted_name

_LIGHTNING_BASES = ("LightningModule", "LightningDataModule")


def _lightning(klass: ast.ClassDef) -> bool:
    return any((dotted_name(b) or "").rsplit(".", 1)[-1] in _LIGHTNING_BASES for b in klass.bases)


def implicit_callers(tree: ast.AST, hooks: Sequence[str]) -> dict[int, Optional[str]]:
    """id(call) -> the name that reaches it (a class name for its ``__init__``; None for a Lightning
    hook in ``hooks``), for the calls in those functions of the module's classes (nested functions
    inside them included)."""
    out: dict[int, Optional[str]] = {}
    for klass in ast.walk(tree):
        if not isinstance(klass, ast.ClassDef):
            continue
        for fn in klass.body:
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if fn.name == "__init__":
                reached: Optional[str] = klass.name
            elif fn.name in hooks and _lightning(klass):
                reached = None
            else:
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Call):
                    out[id(node)] = reached
    return out
