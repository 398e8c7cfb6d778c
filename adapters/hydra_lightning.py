"""The Lightning ``Trainer`` of a composed Hydra config, as plan facts: a ``Trainer`` node's
``devices``, ``num_nodes`` (and their product as the world size), ``precision``,
``accumulate_grad_batches`` and ``strategy`` (a name, or a ``_target_`` strategy object:
``DDPStrategy``, ``FSDPStrategy`` with its ``sharding_strategy``, ``DeepSpeedStrategy`` with its
stage and offload), and a strategy section the script instantiates and hands to the ``Trainer``
itself. Called by :class:`preflight.adapters.hydra._Facts` for each such node."""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Any

from preflight.adapters.deepspeed import ZERO_STAGE_SHARDING
from preflight.adapters.hydra_calls import _device_count
from preflight.adapters.lightning_pass import _PRECISION, _STRATEGY

from preflight.analysis.syntax import dotted_name
from preflight.plan import Source

if TYPE_CHECKING:
    from preflight.adapters.hydra import _Facts

_FSDP = {"FULL_SHARD": "fsdp_full", "SHARD_GRAD_OP": "fsdp_grad_op", "HYBRID_SHARD": "fsdp_hybrid",
         "_HYBRID_SHARD_ZERO2": "fsdp_hybrid", "NO_SHARD": "ddp"}
_STAGE = ZERO_STAGE_SHARDING  # preflight.adapters.deepspeed owns the stage semantics


def trainer_node(facts: _Facts, path: tuple[str, ...], node: dict[str, Any]) -> None:
    def at(key: str) -> tuple[str, ...]:
        return (*path, key)

    devices = None
    legacy = facts.known(at("gpus")) if "gpus" in node else None
    if legacy not in (None, [], 0, "0", False) and _device_count(legacy) is not None:
        # pytorch_lightning 1.x ``gpus: N`` (removed in 2.0), overridden on the line (``trainer.gpus=6``):
        # a truthy gpus is the GPU count whatever ``devices`` says (1.6-1.9
        # accelerator_connector.py _map_deprecated_devices_specfic_info_to_accelerator_and_device_flag;
        # the ashleve/lightning-hydra-template v1 configs/trainer/default.yaml ``gpus: 0``)
        devices = _device_count(legacy)
        facts.add("dist.devices_per_node", devices, at("gpus"), f"Trainer gpus={legacy!r} (pytorch_lightning 1.x)")
        if "devices" in node:
            node = {k: v for k, v in node.items() if k != "devices"}
    if "devices" in node:
        value = facts.known(at("devices"))
        devices = _device_count(value)
        if devices is not None:
            facts.add("dist.devices_per_node", devices, at("devices"), f"Trainer devices={value!r}")
        elif value is not None:
            facts.note(f"{facts.where(at('devices'))}: Trainer devices={value!r}: all visible devices, "
                      "known only at launch")
    nodes = None
    if "num_nodes" in node:
        value = facts.known(at("num_nodes"))
        if isinstance(value, int) and not isinstance(value, bool):
            nodes = value
            facts.add("dist.nodes", value, at("num_nodes"), f"Trainer num_nodes={value}")
    if devices is not None:
        world = devices * (nodes or 1)
        count_key = "devices" if "devices" in node else "gpus"
        source = Source("derived", *facts._loc(at(count_key)), ".".join(at(count_key)),
                        f"Trainer {count_key} x num_nodes = {devices} x {nodes or 1}"
                        + ("" if nodes else " (num_nodes default 1)") + f" (Hydra, {facts.method})")
        facts.adapter.add_checked(facts.plan, "dist.world_size", world, source,
                                  "medium" if facts.composed.app.guess is not None else "high")
    if "precision" in node:
        value = facts.known(at("precision"))
        if value is not None and not isinstance(value, bool) and value in _PRECISION:
            mode = _PRECISION[value]
            if mode is not None:
                facts.add("precision.mode", mode, at("precision"), f"Trainer precision={value!r}")
    if "accumulate_grad_batches" in node:
        value = facts.known(at("accumulate_grad_batches"))
        if isinstance(value, int) and not isinstance(value, bool):
            facts.add("batch.grad_accum", value, at("accumulate_grad_batches"),
                     f"Trainer accumulate_grad_batches={value}")
    if "strategy" in node:
        strategy_node(facts, at("strategy"))

def strategy_handed_in(facts: _Facts, tree: ast.AST) -> None:
    """``strategy=hydra.utils.instantiate(config.strategy)`` given to the Trainer the script builds
    (kuleshov-group/mdlm @ c112c52 main.py:176-181 with configs/strategy/ddp.yaml ``_target_:
    lightning.pytorch.strategies.DDPStrategy``): the composed section read as the Trainer's strategy,
    when that section is not also inside the trainer node."""
    if isinstance(facts.cfg.get("trainer"), dict) and "strategy" in facts.cfg["trainer"]:
        return
    paths = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = (dotted_name(node.func) or "").rsplit(".", 1)[-1]
        if name not in ("instantiate", "Trainer"):
            continue
        for kw in node.keywords:
            value = kw.value
            if kw.arg != "strategy" or not isinstance(value, ast.Call) \
                    or (dotted_name(value.func) or "").rsplit(".", 1)[-1] != "instantiate" or not value.args:
                continue
            chain = dotted_name(value.args[0]) or ""
            parts = tuple(chain.split("."))
            if len(parts) >= 2:
                paths.add(parts[1:])
    if len(paths) == 1:
        path = next(iter(paths))
        if isinstance(facts.composed_raw(path), dict):
            strategy_node(facts, path)

_WHOLE_INTERPOLATION = re.compile(r"^\$\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\}$")


def strategy_node(facts: _Facts, path: tuple[str, ...], depth: int = 0) -> None:
    raw = facts.composed_raw(path)
    ref = _WHOLE_INTERPOLATION.match(raw) if isinstance(raw, str) else None
    if ref is not None and depth < 4 and isinstance(facts.composed_raw(tuple(ref.group(1).split("."))), (dict, str)):
        # ``trainer: {strategy: ${strategy}}`` with a ``strategy`` group whose node is
        # ``_target_: lightning.pytorch.strategies.DeepSpeedStrategy`` (donglinkang2021/MinVQVAE
        # configs/trainer/train.yaml:4 and configs/strategy/deepspeed.yaml:1 @ a22527f): the node it names
        strategy_node(facts, tuple(ref.group(1).split(".")), depth + 1)
        return
    if isinstance(raw, dict):
        target = raw.get("_target_")
        name = target.rsplit(".", 1)[-1] if isinstance(target, str) else ""
        if name == "DDPStrategy":
            facts.add("dist.sharding", "ddp", path, f"strategy _target_ {target}")
        elif name == "FSDPStrategy":
            mode = facts.known((*path, "sharding_strategy")) if "sharding_strategy" in raw else "FULL_SHARD"
            if isinstance(mode, str) and mode.upper() in _FSDP:
                facts.add("dist.sharding", _FSDP[mode.upper()], path, f"FSDPStrategy sharding_strategy={mode}")
        elif name == "DeepSpeedStrategy":
            stage = facts.known((*path, "stage")) if "stage" in raw else 2
            if stage in _STAGE:
                facts.add("dist.sharding", _STAGE[stage], path, f"DeepSpeedStrategy stage={stage}")
            for key, name in (("offload_optimizer", "dist.offload_optimizer"),
                              ("offload_parameters", "dist.offload_params")):
                if key in raw and facts.known((*path, key)) is True:
                    facts.add(name, "cpu", (*path, key), f"DeepSpeedStrategy {key}=True")
                elif key in raw and facts.known((*path, key)) is False:
                    facts.add(name, "none", (*path, key), f"DeepSpeedStrategy {key}=False")
                elif key not in raw and "config" not in raw:
                    # Lightning's DeepSpeedStrategy(offload_optimizer=False, offload_parameters=False)
                    # defaults; a config= (JSON or dict) replaces them, so nothing is assumed then
                    facts.add(name, "none", path, f"DeepSpeedStrategy sets no {key}: {key}=False default",
                              "medium")
        return
    value = facts.known(path)
    if isinstance(value, str) and value in _STRATEGY:
        sharding, params, opt = _STRATEGY[value]
        facts.add("dist.sharding", sharding, path, f"Trainer strategy={value!r}")
        if params:
            facts.add("dist.offload_params", params, path, f"Trainer strategy={value!r}")
        if opt:
            facts.add("dist.offload_optimizer", opt, path, f"Trainer strategy={value!r}")
