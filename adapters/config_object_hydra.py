"""The composed Hydra config of an ``@hydra.main`` function as a root of the value flow
(:mod:`preflight.adapters.config_object_reads`): its keys then reach the project's own functions and
classes the way any configuration object's do. Real shapes, pinned by tests in
``tests/test_config_object_hydra.py``:

* kuleshov-group/mdlm @ c112c52 ``main.py:186-200`` (``@hydra.main(...) def main(config)`` then
  ``dataloader.get_dataloaders(config, tokenizer)``), ``dataloader.py:573-577``
  (``DataLoader(train_set, batch_size=config.loader.batch_size, num_workers=config.loader.num_workers,
  pin_memory=config.loader.pin_memory, ...)``);
* SWivid/F5-TTS @ 2ae2c9b ``src/f5_tts/train/train.py:45-70`` (``Trainer(model, ...,
  grad_accumulation_steps=model_cfg.optim.grad_accumulation_steps, bnb_optimizer=model_cfg.optim.bnb_optimizer)``
  then ``trainer.train(train_dataset, num_workers=model_cfg.datasets.num_workers)``),
  ``src/f5_tts/model/trainer.py`` (``Accelerator(gradient_accumulation_steps=grad_accumulation_steps)``,
  ``if bnb_optimizer: ... else: AdamW(...)``, ``DataLoader(..., num_workers=num_workers, pin_memory=True)``).

The values are the composition's (:mod:`preflight.adapters.hydra`: the config directory, the defaults
list and the launch line's overrides); an interpolation is followed where it can be statically, else
the key is unknown. Where each value was set (file and line, or the override) is kept.
"""

from __future__ import annotations

import ast
from typing import Any

from preflight.adapters.config_object import Leaf, Tree


def _tree(composed: Any, node: Any, path: tuple, cfg: dict, depth: int = 0) -> Any:
    from preflight.adapters.hydra_values import Unknown, resolve

    if depth > 12:
        return None
    if isinstance(node, dict):
        out: Tree = {}
        for key, value in node.items():
            if isinstance(key, str) and not key.startswith("_"):
                sub = _tree(composed, value, (*path, key), cfg, depth + 1)
                if sub is not None:
                    out[key] = sub
        return out
    value = resolve(cfg, node, path[:-1])
    if isinstance(value, (Unknown, dict)) or value == "???":
        return None
    if path in composed.cli:
        return Leaf(value, "", None, "launch line", composed.cli[path])
    origin = composed.origins.get(path)
    if origin is None:
        return None  # not known where it was set: not claimed
    return Leaf(value, origin[0], origin[1], "Hydra config")


def hydra_roots(project: Any, script: Any, combined: Tree, scopes: dict[int, dict[str, tuple]]) -> None:
    """Add ``main(config)`` -> the composed config for each ``@hydra.main`` function of ``script``."""
    if not isinstance(script.tree, ast.Module) or "hydra" not in script.source.text:
        return
    from preflight.adapters.hydra import Composed
    from preflight.adapters.hydra_added_keys import plan_compositions

    composed = [c for c in plan_compositions(project) if isinstance(c, Composed) and c.app.script is script
                and c.app.how == "@hydra.main"]
    if len(composed) != 1:
        return
    app = composed[0]
    for node in script.tree.body:
        if not isinstance(node, ast.FunctionDef) or not node.args.args:
            continue
        if not any(_is_main(d) for d in node.decorator_list):
            continue
        cfg = app.config if isinstance(app.config, dict) else {}
        tree = _tree(app, cfg, (), cfg)
        if isinstance(tree, dict) and tree:
            param = node.args.args[0].arg
            root = f"{node.name}({param})"
            combined[root] = tree
            scopes.setdefault(id(node), {})[param] = (root,)
        return


def _is_main(dec: ast.AST) -> bool:
    target = dec.func if isinstance(dec, ast.Call) else dec
    parts: list[str] = []
    while isinstance(target, ast.Attribute):
        parts.append(target.attr)
        target = target.value
    if isinstance(target, ast.Name):
        parts.append(target.id)
    return ".".join(reversed(parts)).endswith(("hydra.main", "hydra_main"))  # dora's ``hydra_main`` too
