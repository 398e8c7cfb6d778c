"""``accelerate launch`` of several processes, with no config file and no plugin: accelerate runs
the job as ``MULTI_GPU`` and ``Accelerator.prepare`` wraps the model in DistributedDataParallel
(accelerate ``commands/launch.py`` ``_validate_launch_command``: more than one process without a
config sets ``multi_gpu``; ``accelerator.py`` ``prepare_model`` wraps in
``torch.nn.parallel.DistributedDataParallel`` for ``DistributedType.MULTI_GPU``).
bytedance/1d-tokenizer @ 942a96fb README_RAR.md:179 ``accelerate launch --num_machines=4
--num_processes=32 ... scripts/train_rar.py`` with ``Accelerator(gradient_accumulation_steps=...,
mixed_precision=...)`` (``scripts/train_rar.py:56-60``) and ``accelerator.prepare(model, ...)``.

The same for ``torchrun``/``python -m torch.distributed.run`` of a script that builds an
``Accelerator`` and prepares its model: accelerate's state reads the launcher's ``WORLD_SIZE``/
``LOCAL_RANK`` and runs ``MULTI_GPU`` (no accelerate config file is read when ``accelerate launch``
is not the launcher: only its ``ACCELERATE_USE_*`` variables pick DeepSpeed or FSDP).
huggingface/open-muse @ 64e1afe ``slurm_scripts/imagenet.slurm`` ``python -u -m
torch.distributed.run --nproc_per_node 8 ... training/train_maskgit_imagenet.py`` with
``Accelerator(...)`` (``training/train_maskgit_imagenet.py:152-154``) and ``accelerator.prepare(model, ...)``.

Medium: a default accelerate config on the machine (``accelerate config`` writes one to
``~/.cache/huggingface/accelerate/default_config.yaml``) is used when no ``--config_file`` is
given and may choose DeepSpeed or FSDP; that file is not part of the job."""

from __future__ import annotations

import re
from typing import Any

from preflight.plan import Source, TrainingPlan

_ACCELERATOR = re.compile(r"\bAccelerator\s*\(")
_PREPARE = re.compile(r"\.prepare\s*\(")
# anything that makes accelerate shard or hand the model to another engine (a read of the state's
# ``accelerator.state.deepspeed_plugin`` under ``if accelerator.distributed_type == DistributedType.DEEPSPEED``,
# open-muse ``training/train_maskgit_imagenet.py:160-161``, is a check, not a plugin)
_OTHER = re.compile(r"(?<!\.)deepspeed_plugin|(?<!\.)fsdp_plugin|DeepSpeedPlugin|FullyShardedDataParallelPlugin|megatron_lm_plugin|"
                    r"ACCELERATE_USE_(FSDP|DEEPSPEED|MEGATRON)|fully_shard\b|FullyShardedDataParallel\b|"
                    r"deepspeed\.initialize")
_LAUNCH_OTHER = ("use_deepspeed", "use_fsdp", "use_megatron_lm", "deepspeed_config_file", "zero_stage",
                 "fsdp_sharding_strategy", "cpu")


def accelerator_ddp(plan: TrainingPlan, project: Any, uses_deepspeed: Any) -> None:
    if plan.resolve("dist.sharding") is not None or uses_deepspeed(plan) or not project.argv:
        return
    world = plan.resolve("dist.world_size")
    if world is None or not isinstance(world.value, int) or isinstance(world.value, bool) or world.value <= 1:
        return
    from preflight.adapters.launchers import parse_launch

    info = parse_launch(project.argv)
    if info is None or info.launcher not in ("accelerate", "torchrun", "torch.distributed.launch"):
        return
    # a process count accelerate takes from the visible devices when no config file exists
    # (:mod:`preflight.adapters.accelerate_noconfig`, low): the same assumption, the same confidence
    assumed = info.launcher == "accelerate" and world.adapter == "launchers" \
        and world.source.key == "CUDA_VISIBLE_DEVICES"
    if world.confidence == "low" and not assumed:
        return
    if info.launcher == "accelerate" and (info.config_files or any(k.lstrip("-").replace("-", "_") in _LAUNCH_OTHER
                                                                   for k in info.options)):
        return
    if any(k.startswith("ACCELERATE_USE_") for k in (getattr(info, "env", {}) or {})):
        return
    texts = [s.source.text for s in project.scripts]
    if not any(_ACCELERATOR.search(t) and _PREPARE.search(t) for t in texts) or any(_OTHER.search(t) for t in texts):
        return
    if info.launcher == "accelerate":
        why = (f"accelerate launch of {world.value} processes with no config file, no DeepSpeed/FSDP plugin "
               "and no --use_deepspeed/--use_fsdp: accelerate runs MULTI_GPU and Accelerator.prepare wraps the "
               "model in DistributedDataParallel (unless a default accelerate config on the machine says otherwise)")
    else:
        why = (f"{info.launcher} of {world.value} processes and an Accelerator with no DeepSpeed/FSDP plugin: "
               "accelerate reads the launcher's WORLD_SIZE, runs MULTI_GPU and Accelerator.prepare wraps the model "
               "in DistributedDataParallel")
    plan.add("dist.sharding", "ddp", Source("derived", world.source.path, world.source.line, None, why),
             "low" if world.confidence == "low" else "medium", adapter="derive")
