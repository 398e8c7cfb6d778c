"""Which of several ``optimizer`` nodes of a composed Hydra config trains the job.

A composed config can hold more than one ``*.optimizer`` node with a ``_target_``: the first one met
used to be taken. NUS-HPC-AI-Lab/Neural-Network-Parameter-Diffusion @ 481fdca0 composes
``task: cifar100`` (``configs/task/cifar100.yaml:16``: ``optimizer: {_target_: torch.optim.SGD}``, the
optimiser ``task_training.py`` trains the ResNet-18s with, "optimizer for training task model") and
``system: ae_ddpm`` (``configs/system/ae_ddpm.yaml:38-41``: ``train.optimizer: {_target_:
torch.optim.AdamW}``, beside the ``train.trainer`` node ``train_p_diff.py`` instantiates); the job
trains with AdamW. The same layout, a data- or teacher-stage optimizer in one group and the trained
system's beside its trainer in another, is in other Hydra projects' configs (cited in docs/corpus.md).

When the nodes name one optimizer, it is taken as before. When they disagree, the node that sits in the
same section as the Lightning/HF trainer node the config instantiates (a sibling of ``trainer``) is taken
at medium; with no such single node the field is left unknown with a note. Nothing is imported or run.
"""

from __future__ import annotations

from typing import Any

from preflight.adapters.hydra_apps import _nodes
from preflight.adapters.hydra_calls import _is_trainer

_OPTIM_PREFIXES = ("torch.optim.", "bitsandbytes.", "torchao.", "apex.", "deepspeed.ops.", "transformers.",
                   "timm.optim.")


def _name(target: str) -> str:
    return target.rsplit(".", 1)[-1]


def optimizer_nodes(cfg: Any) -> list[tuple[tuple[str, ...], str]]:
    """(path, _target_) of every ``*.optimizer`` node whose target is a known optimizer class."""
    out = []
    for path, node in _nodes(cfg, ()):
        target = node.get("_target_") if isinstance(node, dict) else None
        if path and path[-1] == "optimizer" and isinstance(target, str) and target.startswith(_OPTIM_PREFIXES):
            out.append((path, target))
    return out


def pick_optimizer(facts: Any) -> None:
    """Add ``optimizer.name`` from the composed config's optimizer nodes (see the module docstring)."""
    found = optimizer_nodes(facts.cfg)
    if not found:
        return
    names = {_name(t) for _, t in found}
    if len(names) == 1:
        path, target = found[0]
        facts.add("optimizer.name", _name(target), (*path, "_target_"), f"_target_: {target}")
        return
    trainers = [p for p, n in _nodes(facts.cfg, ()) if isinstance(n, dict) and _is_trainer(n.get("_target_"))]
    beside = [(p, t) for p, t in found if any(p[:-1] == tp[:-1] for tp in trainers)]
    listed = ", ".join(f"{'.'.join(p)}={_name(t)}" for p, t in found)
    if len(trainers) == 1 and beside and len({_name(t) for _, t in beside}) == 1:
        path, target = beside[0]
        facts.add("optimizer.name", _name(target), (*path, "_target_"),
                  f"_target_: {target}, the optimizer beside the instantiated trainer "
                  f"{'.'.join(trainers[0])} (the config's optimizer nodes disagree: {listed})", "medium")
        return
    facts.note(f"optimizer.name left unknown: the composed config's optimizer nodes disagree ({listed})")
