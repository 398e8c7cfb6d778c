"""No activation checkpointing and no ``torch.compile`` for a Hydra app whose whole code is visible, beside
:func:`preflight.adapters.hydra_reads.no_peft`: neither the composed config (its text, and no key named for
either), the app's script and the local modules it imports, nor the local modules of every ``_target_`` the
composed config names (and those they import) name checkpointing or compile by any spelling
(:data:`preflight.adapters.pytorch_local._CKPT_WORDS`, :data:`preflight.adapters.visible_code._COMPILE_WORDS`):
``memory.gradient_checkpointing`` False and ``compile.enabled`` False, medium.

pcmin03/dacon-template @ f2d81eeb (an ashleve/lightning-hydra-template v1 project): run.py's ``@hydra.main``
calls ``src/train.py``, which instantiates ``src.models.plant_module.PlantCls`` (``configs/model/efficient.yaml``
``_target_``), a LightningModule around ``timm.create_model``; nothing names either. A ``_target_`` whose module
is not a file of the project (a library class, ``pytorch_lightning.Trainer``, ``timm.create_model``) is the
library's: its defaults are off for both. A ``_target_`` that names a project module not found, or a module
not readable, claims nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

_KEY_WORDS = ("compile", "checkpointing", "grad_ckpt", "gradient_checkpoint", "activation_checkpoint", "remat")


def _targets(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "_target_" and isinstance(value, str):
                yield value
            else:
                yield from _targets(value)
    elif isinstance(node, list):
        for value in node:
            yield from _targets(value)


def _keys(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield str(key)
            yield from _keys(value)
    elif isinstance(node, list):
        for value in node:
            yield from _keys(value)


def no_ckpt_no_compile(adapter: Any, plan: Any, project: Any, app: Any, cfg: Any) -> None:
    from preflight.adapters.pytorch_local import (
        _CKPT_WORDS,
        _imported_up,
        _names,
        names_checkpointing,
    )
    from preflight.adapters.visible_code import _COMPILE_WORDS

    from preflight.local_trees import parse_file
    from preflight.plan import Source
    from preflight.sources import read_text_limited

    script = app.script
    if script is None or script.tree is None or script.source.path is None or project.root is None:
        return
    text = json.dumps(cfg, default=str)
    if _CKPT_WORDS.search(text) or any(w in k.lower() for k in _keys(cfg) for w in _KEY_WORDS):
        return
    root = Path(str(project.root))
    path = Path(str(script.source.path))
    if names_checkpointing(script.source.text, script.tree, path, root) \
            or _names(_COMPILE_WORDS, script.source.text, script.tree, path, root):
        return
    bases = [path.resolve().parent, root.resolve()]
    for target in set(_targets(cfg)):
        module = target.rsplit(".", 1)[0]
        head = module.split(".")[0]
        if not any((b / head).exists() or (b / f"{head}.py").exists() for b in bases):
            continue  # a library's class
        rel = module.replace(".", "/")
        found = next((c for b in bases for c in (b / f"{rel}.py", b / rel / "__init__.py") if c.is_file()), None)
        if found is None:
            return  # a project module not found: not wholly visible
        try:
            texts = [read_text_limited(found, errors="replace")]
            texts += [read_text_limited(p, errors="replace") for p in _imported_up(parse_file(found), found.parent, root)]
        except (OSError, SyntaxError, ValueError, RecursionError):
            return
        if any(_CKPT_WORDS.search(t) or _COMPILE_WORDS.search(t) for t in texts):
            return
    where = Source("code", script.source.display, app.line, None,
                   "activation checkpointing named nowhere in the composed Hydra config, the script, the local modules "
                   "it imports or the project modules its _target_ entries name")
    adapter.add_checked(plan, "memory.gradient_checkpointing", False, where, "medium", -1)
    adapter.add_checked(plan, "compile.enabled", False,
                        Source("code", script.source.display, app.line, None,
                               "torch.compile named nowhere in the composed Hydra config, the script, the local "
                               "modules it imports or the project modules its _target_ entries name"), "medium", -1)
