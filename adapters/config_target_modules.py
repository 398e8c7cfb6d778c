"""The local modules a job's configs name by a ``target:``/``_target_:`` dotted path.

latent-diffusion-style ``instantiate_from_config`` and ``hydra.utils.instantiate`` build a model from a
config string, so the module holding it is never among the script's imports (TencentARC/InstantMesh
``configs/instant-mesh-large-train.yaml:3,10`` ``target: src.model_mesh.MVRecon`` / ``target:
src.models.lrm_mesh.InstantMesh``, whose ``src/models/lrm_mesh.py:110,221`` wraps the synthesizer in
``torch.utils.checkpoint.checkpoint``). A claim that the job names no checkpointing or PEFT reads these
files too (each with the local modules it imports, as for the script)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional

_TARGET = re.compile(r"""(?m)^\s*["']?(?:_?target_?|class_path)["']?\s*[:=]\s*["']?([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+)""")
_LIMIT = 20


def target_module_files(texts: list[str], root: Optional[Path]) -> list[Path]:
    """The files under ``root`` of the modules that ``target``/``_target_`` values in ``texts`` name
    (``a.b.C`` -> ``a/b.py`` or ``a/b/__init__.py``; ``a.b`` -> ``a/b.py`` too), at most 20."""
    if root is None or not root.is_dir():
        return []
    out: list[Path] = []
    for text in texts:
        for dotted in _TARGET.findall(text):
            parts = dotted.split(".")
            for cut in (len(parts) - 1, len(parts)):
                base = root.joinpath(*parts[:cut])
                for cand in (base.with_suffix(".py"), base / "__init__.py"):
                    if cand.is_file() and cand not in out:
                        out.append(cand)
            if len(out) >= _LIMIT:
                return out
    return out


def targets_name(check: Any, texts: list[str], root: Optional[Path]) -> bool:
    """Whether a module a config names by ``target`` says what ``check(text, tree, path, root)`` looks
    for (``names_checkpointing``/``names_peft``); a file that cannot be parsed says it (claim nothing)."""
    from preflight.local_trees import parse_file
    from preflight.sources import read_text_limited

    for path in target_module_files(texts, root):
        try:
            if check(read_text_limited(path, errors="replace"), parse_file(path), path, root):
                return True
        except (OSError, SyntaxError, ValueError, RecursionError):
            return True
    return False
