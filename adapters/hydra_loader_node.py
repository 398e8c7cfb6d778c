"""The per-process batch of a training ``DataLoader`` written as a ``_target_`` node of the composed Hydra config
(``batch.micro``, medium), read as data (never instantiated, never imported).

A node whose ``_target_`` is torch's ``DataLoader`` (``torch.utils.data.DataLoader``, ``torch.utils.data.
dataloader.DataLoader``) or torchdata's ``StatefulDataLoader``, under a key naming training (``train_dataloader``,
``train_loader``, ``dataloaders.train``, ``loader.train``) and under no evaluation section, with a positive integer
``batch_size`` and no ``batch_sampler``: each process that instantiates it draws that batch (accelerate's
``prepare`` keeps it per process unless ``split_batches``; a ``DistributedSampler`` only splits the samples).
Found in HiRookie9/PicoAudio2 @ e8e7268 ``src/configs/default.yaml:16-25`` (``train_dataloader._target_:
torchdata.stateful_dataloader.StatefulDataLoader``, ``batch_size: 24 # per device batch size``, the launch line's
``train_dataloader.batch_size=8``), and Hydra configs of the same shape (find_string ``_target_: torch.utils.data.
DataLoader``: NVIDIA NeMo Automodel recipes' ``dataloader:`` node, an accelerate recipe's ``train_dataloader:``).

Left unknown: several training loader nodes that disagree; a node with ``batch_sampler`` set, or ``_partial_:
true`` (the code completes the call and may pass its own batch); a batch that is not a positive integer once
composed (an interpolation to an unknown, a sweep); any ``split_batches``/``dispatch_batches`` key set true in the
composed config (the loader's batch is then divided across processes); a ``batch_size`` swept by a multirun
line; a node under a ``val``/``test``/``eval``
section; a key that names no training (a bare ``dataloader:`` node, which may be the evaluation one).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:
    from preflight.adapters.hydra import _Facts

_LOADERS = ("torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader",
            "torchdata.stateful_dataloader.StatefulDataLoader",
            "torchdata.stateful_dataloader.stateful_dataloader.StatefulDataLoader")
_EVAL = ("val", "valid", "validation", "test", "eval", "evaluation", "predict", "inference")
_MAX_DEPTH = 12


def _walk(data: Any, path: tuple = (), depth: int = 0) -> Iterable[tuple[tuple, Any]]:
    if depth > _MAX_DEPTH or not isinstance(data, dict):
        return
    yield path, data
    for key, value in data.items():
        if isinstance(key, str):
            yield from _walk(value, (*path, key), depth + 1)


def _words(key: str) -> list[str]:
    return [w for w in key.lower().replace("-", "_").split("_") if w]


def _training(path: tuple) -> bool:
    """The path names training (a word ``train``/``training`` in a key) and no evaluation word in any key."""
    words = [w for key in path for w in _words(key)]
    return any(w in ("train", "training") for w in words) and not any(w in _EVAL or w.startswith("val")
                                                                        for w in words)


def swept_names(facts: _Facts) -> set[str]:
    """The last name of each key a multirun line sweeps (``gradient_accumulation_steps=2,4``): the composed config
    keeps such a key's config value, which is no fact of any one job of the sweep, nor is a key interpolating it
    (``${gradient_accumulation_steps}``), so a value read under the same name is left unknown."""
    overrides = getattr(getattr(facts.composed, "composition", None), "overrides", None) or []
    return {ov.key.rsplit(".", 1)[-1] for ov in overrides if getattr(ov, "sweep", False)}


def _splits(cfg: Any) -> bool:
    return any(node.get(key) is True for _p, node in _walk(cfg) for key in ("split_batches", "dispatch_batches"))


def loader_node_batch(facts: _Facts) -> None:
    if not isinstance(facts.cfg, dict) or _splits(facts.cfg) or "batch_size" in swept_names(facts):
        return
    found: list[tuple[tuple[str, ...], int, str]] = []
    for path, node in _walk(facts.cfg):
        target = node.get("_target_")
        if target not in _LOADERS or not path or not _training(path) or "batch_size" not in node:
            continue
        if node.get("batch_sampler") is not None or node.get("_partial_") is True:
            continue
        key = (*path, "batch_size")
        value = facts.known(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            found.append((key, value, target))
    if len({v for _, v, _ in found}) != 1:
        return
    key, value, target = found[0]
    facts.add("batch.micro", value, key, f"{'.'.join(key)} {value}: the batch of the training {target} node, "
                                         "drawn by each process", "medium")
