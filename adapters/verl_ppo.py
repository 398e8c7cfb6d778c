"""verl's PPO/GRPO trainer (``python -m verl.trainer.main_ppo``, a vendored or installed
volcengine/verl): what its Hydra keys mean for the actor that trains.

The composed config (:mod:`preflight.adapters.hydra`: ``verl/trainer/config/ppo_trainer.yaml`` and the
launch line's overrides) is read with verl's own meaning, checked on the vendored verl 0.1 of
PeterGriffinJin/Search-R1 @ its pinned commit (``train_ppo.sh``; ``verl/workers/fsdp_workers.py``,
``verl/workers/actor/dp_actor.py``):

- ``trainer.n_gpus_per_node`` x ``trainer.nnodes`` Ray workers, one per GPU: ``dist.world_size``,
  ``dist.nodes``, ``dist.devices_per_node``;
- ``actor_rollout_ref.actor.strategy: fsdp``: the actor is wrapped in FSDP, FULL_SHARD over one mesh
  dimension (``fsdp_workers.py`` ``_build_model_optimizer``): ``dist.sharding`` fsdp_full;
- the actor's ``fsdp_config.mixed_precision`` (absent: ``param_dtype`` bf16, ``reduce_dtype`` fp32 over
  fp32 weights): ``precision.mode`` amp_bf16 (or the given param dtype);
- ``ppo_mini_batch_size`` and ``ppo_micro_batch_size`` are global and divided by the world size in the
  worker, then multiplied by ``rollout.n`` (``fsdp_workers.py:96-100``); ``dp_actor.update_policy``
  steps the optimizer once per mini batch after ``mini // micro`` micro batches: ``batch.micro``,
  ``batch.grad_accum``, ``batch.global`` (``ppo_mini_batch_size * rollout.n`` sequences per step).
  A newer verl's ``ppo_micro_batch_size_per_gpu`` is the micro batch itself;
- ``actor_rollout_ref.model.enable_gradient_checkpointing``: ``memory.gradient_checkpointing``;
- ``actor_rollout_ref.model.lora_rank`` (absent or 0: no LoRA): ``peft.method``.

Silent where a key is missing or not an integer/boolean, or the launched script is not verl's
``main_ppo``. Facts are medium (the meaning is verl's code, not a documented contract).
"""

from __future__ import annotations

from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter

_DTYPES = {"bf16": "amp_bf16", "bfloat16": "amp_bf16", "fp16": "amp_fp16", "float16": "amp_fp16",
           "fp32": "fp32", "float32": "fp32"}


def _get(cfg: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        if not isinstance(cfg, dict) or key not in cfg:
            return None
        cfg = cfg[key]
    return cfg


def _int(value: Any) -> Optional[int]:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _verl_entry(project: Project, script: Any) -> bool:
    """verl's own ``verl/trainer/main_ppo.py``, or a project's copy of it that drives verl's
    ``RayPPOTrainer`` from an installed verl (cmu-l3/l1 @ 93dd330 ``main_ppo.py:18-21``
    ``from verl.trainer.ppo.ray_trainer import RayPPOTrainer`` with ``config/ppo_trainer.yaml`` a copy
    of verl's, verl a pip dependency)."""
    display = str(script.source.display).replace("\\", "/")
    if display.endswith("verl/trainer/main_ppo.py"):
        return True
    return display.endswith("main_ppo.py") and script.tree is not None \
        and project.index(script).imports_any("verl.trainer.ppo.ray_trainer")


def _composed(project: Project) -> Any:
    from preflight.adapters.hydra import Composed, compositions, find_apps
    from preflight.adapters.hydra_lenient import lenient_composition

    every = []
    for app, comp in zip(find_apps(project), compositions(project)):
        lenient = lenient_composition(project, app, comp) if not isinstance(comp, Composed) else None
        every.append(lenient[0] if lenient is not None else comp)  # keys the config lacks read as ++key
    found = [c for c in every if isinstance(c, Composed) and _verl_entry(project, c.app.script)
             and isinstance(_get(c.config, ("actor_rollout_ref", "actor")), dict)]
    return found[0] if len(found) == 1 else None


@register_adapter
class VerlPPOAdapter(Adapter):
    name = "verl_ppo"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        if not any("main_ppo" in str(s.source.display) for s in project.scripts):
            return False
        return _composed(project) is not None

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        composed = _composed(project)
        if composed is None:
            return
        cfg = composed.config

        def add(field: str, value: Any, path: tuple[str, ...], detail: str) -> None:
            self.add_checked(plan, field, value, composed.source(path, f"verl: {detail}"), "medium")

        per_node, nnodes = _int(_get(cfg, ("trainer", "n_gpus_per_node"))), _int(_get(cfg, ("trainer", "nnodes")))
        world = per_node * nnodes if per_node and nnodes else None
        if world:
            add("dist.devices_per_node", per_node, ("trainer", "n_gpus_per_node"), "one Ray worker per GPU")
            add("dist.nodes", nnodes, ("trainer", "nnodes"), "nodes of the Ray cluster")
            add("dist.world_size", world, ("trainer", "n_gpus_per_node"),
                f"{per_node} GPUs x {nnodes} node(s), one worker each")
        actor = ("actor_rollout_ref", "actor")
        if _get(cfg, (*actor, "strategy")) == "fsdp":
            add("dist.sharding", "fsdp_full", (*actor, "strategy"),
                "the actor wrapped in FSDP, FULL_SHARD over one mesh dimension (fsdp_workers.py)")
            mixed = _get(cfg, (*actor, "fsdp_config", "mixed_precision"))
            dtype = "bf16" if mixed is None else (mixed.get("param_dtype", "bf16") if isinstance(mixed, dict) else None)
            if isinstance(dtype, str) and dtype in _DTYPES:
                add("precision.mode", _DTYPES[dtype], (*actor, "fsdp_config"),
                    f"FSDP MixedPrecision(param_dtype={dtype}, reduce fp32) over fp32 actor weights")
        self._batches(cfg, add, world)
        ckpt = _get(cfg, ("actor_rollout_ref", "model", "enable_gradient_checkpointing"))
        if isinstance(ckpt, bool):
            add("memory.gradient_checkpointing", ckpt, ("actor_rollout_ref", "model", "enable_gradient_checkpointing"),
                "the actor model's gradient checkpointing")
        model = _get(cfg, ("actor_rollout_ref", "model"))
        if isinstance(model, dict):
            rank = model.get("lora_rank", 0)
            if isinstance(rank, int) and not isinstance(rank, bool):
                add("peft.method", "lora" if rank > 0 else "none", ("actor_rollout_ref", "model", "lora_rank")
                    if "lora_rank" in model else ("actor_rollout_ref", "model"),
                    f"lora_rank {rank}" if "lora_rank" in model else "no lora_rank key: full-parameter training")

    @staticmethod
    def _batches(cfg: Any, add: Any, world: Optional[int]) -> None:
        actor = ("actor_rollout_ref", "actor")
        mini = _int(_get(cfg, (*actor, "ppo_mini_batch_size")))
        n = _get(cfg, ("actor_rollout_ref", "rollout", "n"))
        n = _int(n) or (1 if n is None else None)
        if mini is None or n is None:
            return
        add("batch.global", mini * n, (*actor, "ppo_mini_batch_size"),
            f"{mini} prompts x rollout.n {n}: sequences per actor optimizer step")
        per_gpu = _int(_get(cfg, (*actor, "ppo_micro_batch_size_per_gpu")))
        micro_global = _int(_get(cfg, (*actor, "ppo_micro_batch_size")))
        if not world or mini % world:
            return
        mini_rank = mini // world * n
        if per_gpu is not None:
            micro, path, how = per_gpu, (*actor, "ppo_micro_batch_size_per_gpu"), "per GPU"
        elif micro_global is not None and micro_global % world == 0:
            micro, path, how = micro_global // world * n, (*actor, "ppo_micro_batch_size"), \
                f"{micro_global} // {world} workers x rollout.n {n}"
        else:
            return
        add("batch.micro", micro, path, how)
        if mini_rank % micro == 0:
            add("batch.grad_accum", mini_rank // micro, (*actor, "ppo_mini_batch_size"),
                f"{mini} // {world} workers x {n} = {mini_rank} per worker, in micro batches of {micro}")
