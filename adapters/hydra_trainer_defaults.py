"""Lightning's defaults for what a Hydra-composed Trainer section leaves out.

The lightning-hydra-template layout (ashleve/lightning-hydra-template @ HEAD ``src/train.py:70``
``trainer: Trainer = hydra.utils.instantiate(cfg.trainer, callbacks=callbacks, logger=logger)`` over
``configs/trainer/default.yaml``, ``_target_: lightning.pytorch.trainer.Trainer``), copied by
shivammehta25/Matcha-TTS @ 108906c ``matcha/train.py:62`` with ``configs/trainer/default.yaml`` (no
``num_nodes``, ``accumulate_grad_batches`` or ``strategy``) and ``trainer.devices=[0,1]`` on the line:
Lightning builds the Trainer with its own defaults for those keys, ``num_nodes=1``,
``accumulate_grad_batches=1`` and ``strategy="auto"`` (two or more devices: DDP; one: a single device;
``ddp_spawn`` in pytorch_lightning 1.6-1.9, the same data-parallel replicas).

Read only when the script hands exactly that section to ``instantiate`` (so the Trainer is the one the
config describes), or, when the script has no such call, the local modules it imports do, every call with the
same keywords (``_handed_in_modules``), with no ``**`` mapping and without the key among the call's keywords; accumulation only
when no ``GradientAccumulationScheduler`` callback is composed; the strategy only with a known device
count, an accelerator that is GPU/CUDA/auto (or not given), and no sharding already found. All medium.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.analysis.syntax import dotted_name
from preflight.plan import Source

_VERSION = "Lightning <= 2.6.5 (frameworks.md §1.1)"


def _handed(tree: ast.AST, path: tuple[str, ...]) -> Optional[ast.Call]:
    """The one ``instantiate(<cfg>.<path>, ...)`` call of the script; None when none or several."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or (dotted_name(node.func) or "").rsplit(".", 1)[-1] != "instantiate":
            continue
        if not node.args:
            continue
        chain = dotted_name(node.args[0]) or ""
        if tuple(chain.split(".")[1:]) == path:
            found.append(node)
    return found[0] if len(found) == 1 else None


def _handed_in_modules(reader: Any, tree: ast.AST, path: tuple[str, ...],
                       source_path: Optional[str]) -> Optional[tuple[ast.Call, str]]:
    """No ``instantiate`` of the section in the script: the calls in the local modules it imports
    (NUS-HPC-AI-Lab/Neural-Network-Parameter-Diffusion @ 481fdca0 ``train_p_diff.py:3`` ``from
    core.runner.runner import *``; ``core/runner/runner.py:66,78`` ``hydra.utils.instantiate(
    cfg.system.train.trainer)`` in ``train_generation`` and ``test_generation``): one call, or several
    that pass the same keywords (the same Trainer whichever runs); (call, shown path) of the first."""
    import os
    from pathlib import Path

    from preflight.adapters.pytorch_local import _MAX_BYTES, _imported_up

    from preflight.sources import read_text_limited

    project = getattr(reader, "project", None)
    if source_path is None or project is None:
        return None
    if any(isinstance(n, ast.Call) and (dotted_name(n.func) or "").rsplit(".", 1)[-1] == "instantiate"
           and n.args and tuple((dotted_name(n.args[0]) or "").split(".")[1:]) == path for n in ast.walk(tree)):
        return None  # the script's own calls decide (several: none is read)
    root = Path(str(project.root)) if project.root else None
    found: list[tuple[ast.Call, str]] = []
    for file in _imported_up(tree, Path(source_path).resolve().parent, root):
        try:
            if file.stat().st_size > _MAX_BYTES:
                continue
            module = ast.parse(read_text_limited(file, _MAX_BYTES, errors="replace"))
        except (OSError, ValueError, SyntaxError, RecursionError, MemoryError):
            continue
        for node in ast.walk(module):
            if isinstance(node, ast.Call) and (dotted_name(node.func) or "").rsplit(".", 1)[-1] == "instantiate" \
                    and node.args and tuple((dotted_name(node.args[0]) or "").split(".")[1:]) == path:
                shown = os.path.relpath(file, root) if root is not None else str(file)
                found.append((node, shown))
    if not found or len({"".join(ast.dump(k) for k in c.keywords) + str(len(c.args)) for c, _ in found}) != 1:
        return None
    return found[0]


def trainer_defaults(reader: Any, tree: ast.AST, script: str, source_path: Optional[str] = None) -> None:
    """Lightning's defaults for the keys the one Lightning ``Trainer`` section of the composed config
    leaves out, when the script instantiates that section (``reader``: the Hydra reader)."""
    from preflight.adapters.hydra_apps import _nodes
    from preflight.adapters.hydra_calls import _device_count, _is_trainer

    trainers = [(p, n, None) for p, n in _nodes(reader.cfg, ()) if isinstance(n, dict) and _is_trainer(n.get("_target_"))]
    # the project's own Trainer subclass (hydra_local_trainer): Lightning's default only for a key it neither
    # declares nor sets itself
    trainers += [(p, n, local) for p, n in _nodes(reader.cfg, ()) if isinstance(n, dict)
                 and not _is_trainer(n.get("_target_")) and (local := reader.local_trainer(n.get("_target_"))) is not None]
    if len(trainers) != 1:
        return
    path, node, local = trainers[0]
    call = _handed(tree, path)
    if call is None:
        elsewhere = _handed_in_modules(reader, tree, path, source_path)
        if elsewhere is not None:
            call, script = elsewhere
    if call is None or any(k.arg is None for k in call.keywords):
        return
    given = set(node) | {k.arg for k in call.keywords if k.arg}
    if local is not None:
        given |= {k for k in ("num_nodes", "accumulate_grad_batches", "strategy") if not local.lightning_default(k)}
    file, line = reader._loc((*path, "_target_"))
    section = ".".join(path)

    def add(field: str, value: Any, key: str, detail: str) -> None:
        source = Source("default", file, line, f"{section}.{key}",
                        f"{section} ({node['_target_']}, instantiated at {script}:{call.lineno}) "
                        f"sets no {key}: {detail} ({_VERSION}) (Hydra, {reader.method})")
        reader.adapter.add_checked(reader.plan, field, value, source, "medium")

    nodes: Optional[int] = None
    if "num_nodes" not in given:
        nodes = 1
        add("dist.nodes", 1, "num_nodes", "Trainer(num_nodes=1) default")
    elif "num_nodes" in node:
        value = reader.known((*path, "num_nodes"))
        nodes = value if isinstance(value, int) and not isinstance(value, bool) else None
    schedulers = [n for _, n in _nodes(reader.cfg, ()) if isinstance(n, dict) and isinstance(n.get("_target_"), str)
                  and n["_target_"].rsplit(".", 1)[-1] == "GradientAccumulationScheduler"]
    if "accumulate_grad_batches" not in given and not schedulers:
        add("batch.grad_accum", 1, "accumulate_grad_batches", "Trainer(accumulate_grad_batches=1) default")
    if "strategy" in given or reader.plan.resolve("dist.sharding") is not None or "devices" not in node:
        return
    devices = _device_count(reader.known((*path, "devices")))
    accelerator = reader.known((*path, "accelerator")) if "accelerator" in node else None
    if devices is None or nodes is None or accelerator not in (None, "gpu", "cuda", "auto"):
        return
    if devices * nodes > 1:
        add("dist.sharding", "ddp", "strategy",
            f"Trainer(strategy=\"auto\") with {devices} device(s) x {nodes} node(s) -> ddp")
    else:
        add("dist.sharding", "none", "strategy", "Trainer(strategy=\"auto\") on one device -> SingleDeviceStrategy")
