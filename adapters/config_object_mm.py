"""An MMEngine/mmcv Python config loaded with ``Config.fromfile`` as a configuration object of
:mod:`preflight.adapters.config_object`: its keys then flow through the project's code like a YAML's.

PixArt-alpha/PixArt-sigma @ 1ce521a ``train_scripts/train.py:284`` ``config = read_config(args.config)``
(``diffusion/utils/misc.py:21-30``: ``Config.fromfile(file)`` in a retry loop), then
``Accelerator(mixed_precision=config.mixed_precision, gradient_accumulation_steps=
config.gradient_accumulation_steps)`` (:318-320), ``build_model(config.model, config.grad_checkpointing, ...)``
(:410-412), ``build_dataloader(dataset, num_workers=config.num_workers, batch_size=config.train_batch_size)``
(:443-445): the project's own keys reach the plan only through those calls.

The file and its ``_base_`` files are read as literals by :mod:`preflight.adapters.mmengine_config`
(never executed); a value that is not a literal is left out (unknown).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from preflight.adapters.config_object import Leaf, Tree


def _tree(values: Any, where: dict, path: tuple) -> Any:
    from preflight.adapters.mmengine_loader import UNKNOWN

    if isinstance(values, dict):
        out: Tree = {}
        for key, value in values.items():
            if not isinstance(key, str) or key.startswith("<"):
                continue
            sub = _tree(value, where, (*path, key))
            if sub is not None:
                out[key] = sub
        return out
    if values is UNKNOWN or (isinstance(values, (list, tuple)) and any(v is UNKNOWN for v in values)):
        return None
    shown, line = where.get(path, (None, None))
    return Leaf(values, shown or "", line, "config file")


def python_config_tree(project: Any, path: Path) -> Optional[Tree]:
    from preflight.adapters.mmengine_loader import _Loader

    got = _Loader(project).load(path.resolve())
    if got is None:
        return None
    values, where = got
    if values.get("<unread base>"):
        return None  # a base not read: any key may be set there
    tree = _tree(values, where, ())
    return tree if isinstance(tree, dict) else None
