"""A model named on the launch line by the stem of one of the project's JSON architecture files.

The shape (mlfoundations/open_lm @ 9bb92ef ``open_lm/model.py:39-75,424-434``: ``_MODEL_CONFIG_PATHS =
[Path(__file__).parent / f"model_configs/"]``, every ``*.json`` of that folder loaded with ``json.load``
into ``_MODEL_CONFIGS[cf.stem]``, and ``create_params(args)`` taking ``_MODEL_CONFIGS[args.model]``;
``--model open_lm_3b`` -> ``open_lm/model_configs/open_lm_3b.json``: ``hidden_dim`` 2560, ``n_layers``
32, ``vocab_size`` 50432, ``weight_tying`` false). The registry is filled at import time by a loop over
a folder, so no call from the script reaches the file: the launch line's model option names it.

Read, never imported: a module of the project (the script's folder and its parents up to the project
root, the entry's package) that calls ``json.load`` and names a folder with a string literal joined to
``Path(__file__).parent``; the launch line's ``--model``/``--model-name``/``--arch`` value (a bare name)
whose ``<folder>/<value>.json`` exists and holds the width, depth and vocabulary. The count is the
standard decoder estimate ``12 * layers * width^2 + vocab * width`` (twice the embedding when the file
says the head is untied), **low** confidence: the file gives the sizes, not the MLP width or the
attention layout, which live in the model code. Nothing else is stated; a name with no file, a file
without the three sizes, or two folders holding the name state nothing.
"""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Project, ScratchAdapter
from preflight.local_trees import parse_file
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter
from preflight.sources import read_text_limited

_OPTIONS = ("--model", "--model-name", "--model_name", "--arch", "--model-config", "--model_config")
_WIDTH = ("hidden_dim", "hidden_size", "d_model", "n_embd", "dim")
_DEPTH = ("n_layers", "num_layers", "n_layer", "num_hidden_layers")
_TIED = ("weight_tying", "tie_word_embeddings", "tie_embeddings")
_MAX_FILES = 60
_MAX_BYTES = 500_000


def _option(args: list[str]) -> Optional[tuple[str, str]]:
    """``(flag, value)`` of the one model option the launch line gives (``--model X`` or ``--model=X``)."""
    found: list[tuple[str, str]] = []
    for i, tok in enumerate(args):
        flag, eq, value = tok.partition("=")
        if flag not in _OPTIONS:
            continue
        if not eq:
            if i + 1 >= len(args) or args[i + 1].startswith("-"):
                continue
            value = args[i + 1]
        found.append((flag, value))
    if len({v for _, v in found}) != 1:
        return None
    flag, value = found[0]
    if not value or any(c in value for c in "/\\$.{}") or value.startswith("-"):
        return None  # a path, a file or a shell value: not a registry name
    return flag, value


def _text(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in node.values):
        return "".join(str(v.value) for v in node.values if isinstance(v, ast.Constant))
    return None


def _here(node: ast.AST) -> bool:
    """``Path(__file__).parent`` (or ``.resolve().parent``, ``os.path.dirname(__file__)``)."""
    return any(isinstance(n, ast.Name) and n.id == "__file__" for n in ast.walk(node))


def _folders(path: Path, tree: ast.Module) -> list[Path]:
    """Folders a module loading JSON names beside itself: ``Path(__file__).parent / "model_configs/"``."""
    if not any(isinstance(n, ast.Attribute) and n.attr == "load" and isinstance(n.value, ast.Name)
               and n.value.id == "json" for n in ast.walk(tree)):
        return []
    out: list[Path] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and _here(node.left):
            rel = _text(node.right)
            if rel and "config" in rel.lower() and ".." not in rel:
                folder = path.parent / rel.strip("/")
                if folder.is_dir():
                    out.append(folder)
    return out


def _modules(script: Any, root: Path) -> list[Path]:
    """The ``.py`` files of the script's folder and of each package folder under it, bounded."""
    here = Path(str(script.source.path)).resolve().parent
    top = root.resolve()
    seen: list[Path] = []
    folder = here
    while True:
        for cand in sorted(folder.glob("*.py")) + sorted(folder.glob("*/*.py")):
            if len(seen) >= _MAX_FILES:
                return seen
            if cand not in seen:
                seen.append(cand)
        if folder == top or folder.parent == folder or top not in folder.parents:
            return seen
        folder = folder.parent


def _int(cfg: dict[str, Any], keys: tuple[str, ...]) -> Optional[tuple[str, int]]:
    got = [(k, cfg[k]) for k in keys if isinstance(cfg.get(k), int) and not isinstance(cfg.get(k), bool)
           and cfg[k] > 0]
    return got[0] if len(got) == 1 else None


@register_adapter
class ModelConfigJsonAdapter(ScratchAdapter):
    name = "model_config_json"
    frameworks = ()

    def wants(self, project: Project) -> bool:
        return any(s.tree is not None and s.source.path is not None and _option(project.script_args(s))
                   for s in project.scripts)

    def work(self, project: Project, plan: TrainingPlan) -> None:
        for script in self.scripts(project):
            got = _option(project.script_args(script))
            if got is not None:
                self._script(project, plan, script, *got)

    def _script(self, project: Project, plan: TrainingPlan, script: Any, flag: str, name: str) -> None:
        files: list[tuple[Path, Path]] = []
        for module in _modules(script, Path(str(project.root))):
            try:
                if module.stat().st_size > _MAX_BYTES:
                    continue
                tree = parse_file(module)
            except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
                continue
            for folder in _folders(module, tree):
                cand = folder / f"{name}.json"
                if cand.is_file() and cand.resolve() not in {f[0].resolve() for f in files}:
                    files.append((cand, module))
        if len(files) != 1:
            return
        path, module = files[0]
        try:
            cfg = json.loads(read_text_limited(path, _MAX_BYTES))
        except (OSError, ValueError, UnicodeDecodeError, RecursionError):
            return
        if not isinstance(cfg, dict):
            return
        width, depth, vocab = _int(cfg, _WIDTH), _int(cfg, _DEPTH), _int(cfg, ("vocab_size",))
        if width is None or depth is None or vocab is None:
            return
        tied = next((cfg[k] for k in _TIED if isinstance(cfg.get(k), bool)), None)
        embeddings = 2 if tied is False else 1
        count = 12 * depth[1] * width[1] ** 2 + embeddings * vocab[1] * width[1]
        root = Path(str(project.root)) if project.root else path.parent
        shown = os.path.relpath(path, root)
        head = "an untied head" if tied is False else "the head tied to the embedding" if tied else \
            "the head's tying not stated (counted tied)"
        self.add_checked(plan, "model.num_parameters", count,
                         Source("config", shown, None, width[0],
                                f"{flag} {name} names {shown} (a folder of architecture files "
                                f"{os.path.relpath(module, root)} loads by name): about 12*layers*width^2 + "
                                f"vocab*width with {depth[0]} {depth[1]}, {width[0]} {width[1]}, vocab_size "
                                f"{vocab[1]} and {head}; the MLP width and attention layout are in the model "
                                "code, not read"), "low")
