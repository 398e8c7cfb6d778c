"""DeepSpeed config files (JSON or YAML), recognised by their keys.

Facts come from ``zero_optimization`` (stage, offload devices; legacy
``zero_optimization: true`` = stage 1, legacy ``cpu_offload``), the batch triple
(``train_micro_batch_size_per_gpu``, ``gradient_accumulation_steps``,
``train_batch_size``), ``fp16``/``bf16``/``amp`` and ``optimizer.type``, each with its
key path and line. ``"auto"`` is not a DeepSpeed value (the HF Trainer or Accelerate
fills it in at launch), so an ``"auto"`` key is not a fact: it becomes a plan note.
The data-parallel world size is derived only when all three batch numbers are explicit.
A DeepSpeed block nested under ``deepspeed:`` / ``deepspeed_config:`` in another
config is read the same way.
"""

from __future__ import annotations

import os
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.loaders import LoadedConfig
from preflight.plan import FIELDS, Source, TrainingPlan
from preflight.registry import register_adapter

_STRONG_KEYS = ("zero_optimization", "train_micro_batch_size_per_gpu", "zero_allow_untested_optimizer",
                "zero_force_ds_cpu_optimizer", "steps_per_print", "wall_clock_breakdown")
_WEAK_COMPANIONS = ("fp16", "bf16", "optimizer", "scheduler", "gradient_accumulation_steps",
                    "gradient_clipping")
_NESTED_KEYS = ("deepspeed", "deepspeed_config", "ds_config")
# The one map from a ZeRO stage to the plan's sharding value (stage 0 = plain data
# parallelism); every adapter that reads a stage (accelerate, Lightning, Hydra, launchers) uses it.
ZERO_STAGE_SHARDING = {0: "ddp", 1: "zero1", 2: "zero2", 3: "zero3"}
_STAGE = ZERO_STAGE_SHARDING
_DEVICES = ("none", "cpu", "nvme")
_GATHER = ("stage3_gather_16bit_weights_on_model_save", "gather_16bit_weights_on_model_save",
           "stage3_gather_fp16_weights_on_model_save")
_BUCKETS = (("dist.reduce_bucket_size", ("reduce_bucket_size",)),
            ("dist.allgather_bucket_size", ("allgather_bucket_size",)),
            ("dist.stage3_prefetch_bucket_size", ("stage3_prefetch_bucket_size", "prefetch_bucket_size")),
            ("dist.stage3_max_live_parameters", ("stage3_max_live_parameters", "max_live_parameters")),
            ("dist.stage3_max_reuse_distance", ("stage3_max_reuse_distance", "max_reuse_distance")))
_TRIPLE = (("train_micro_batch_size_per_gpu", "batch.micro"),
           ("gradient_accumulation_steps", "batch.grad_accum"),
           ("train_batch_size", "batch.global"))


def _looks_like_deepspeed(data: Any) -> bool:
    if not isinstance(data, dict):
        return False
    if any(k in data for k in _STRONG_KEYS):
        return True
    if not ("train_batch_size" in data and any(k in data for k in _WEAK_COMPANIONS)):
        return False
    # Without a key only DeepSpeed has, `train_batch_size` next to `gradient_accumulation_steps`
    # is also a project's own training config (AnimateDiff's OmegaConf YAML, with learning_rate,
    # output_dir, max_train_steps): DeepSpeed's only when most of its keys are DeepSpeed's.
    from preflight.validate import schema_fields

    fields = schema_fields("deepspeed")
    return 2 * sum(k in fields for k in data) >= len(data)


def deepspeed_block(config: LoadedConfig) -> Optional[tuple[tuple[str, ...], dict[str, Any]]]:
    """The DeepSpeed settings in a config and their key prefix, or None. DeepSpeed reads its
    config as JSON (a path or a dict): a TOML file is a project's own config, even when some of
    its keys are handed to DeepSpeed (tdrussell/diffusion-pipe examples/main_example.toml:103
    ``steps_per_print``, copied into the dict train.py:423-428 builds)."""
    data = config.data
    if getattr(config, "kind", None) == "toml":
        return None
    if _looks_like_deepspeed(data):
        return (), data
    if isinstance(data, dict):
        for key in _NESTED_KEYS:
            if _looks_like_deepspeed(data.get(key)):
                return (key,), data[key]
    return None


def _accelerator_loop(project: Project) -> bool:
    """True when a script of the project builds ``accelerate.Accelerator(...)`` (its own training loop)."""
    return any((site.qualified or "").startswith("accelerate.") and (site.qualified or "").endswith(".Accelerator")
               for script in project.scripts for site in project.index(script).calls)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@register_adapter
class DeepSpeedAdapter(Adapter):
    name = "deepspeed"
    frameworks = ("deepspeed",)

    def detect(self, project: Project) -> bool:
        return any(deepspeed_block(cfg) is not None for _, cfg in project.configs)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        from preflight.adapters.launch_config_reads import unread_launch_configs

        unread = unread_launch_configs(project)
        for source, config in project.configs:
            found = deepspeed_block(config)
            if found is None:
                continue
            why = unread.get(os.path.realpath(str(source.path)))
            if why is not None:
                # a JSON the launch line names but the script opens only for other flags
                # (CosyVoice ``--train_engine torch_ddp ... --deepspeed_config ds_stage2.json``)
                self.note(plan, why)
                continue
            _ConfigPass(self, project, plan, config, *found).run()


class _ConfigPass:
    def __init__(self, adapter: DeepSpeedAdapter, project: Project, plan: TrainingPlan, config: LoadedConfig,
                 prefix: tuple[str, ...], block: dict[str, Any]) -> None:
        self.adapter = adapter
        self.project = project
        self.plan = plan
        self.config = config
        self.prefix = prefix
        self.block = block

    def src(self, *keys: Any, detail: Optional[str] = None, kind: str = "config") -> Source:
        path = self.prefix + keys
        if kind == "config":
            return self.project.config_source(self.config, path, detail=detail)
        return Source(kind, self.config.path, self.config.line_of(path, nearest=True),
                      ".".join(str(k) for k in path), detail)

    def add(self, field: str, value: Any, source: Source, confidence: str = "high") -> bool:
        return self.adapter.add_checked(self.plan, field, value, source, confidence)

    def auto(self, *keys: Any) -> bool:
        """True (and a note) when the value at ``keys`` is "auto"."""
        value: Any = self.block
        for k in keys:
            value = value.get(k) if isinstance(value, dict) else None
        if not (isinstance(value, str) and value.strip().lower() == "auto"):
            return False
        path = self.prefix + keys
        line = self.config.line_of(path)
        where = f"{self.config.path}:{line}" if line else self.config.path
        self.adapter.note(self.plan, f"{where}: {'.'.join(str(k) for k in path)} is \"auto\", filled in at "
                                     "launch by the HF Trainer or Accelerate; not a fact")
        return True

    def run(self) -> None:
        self.zero()
        self.save_gather()
        self.buckets()
        self.batch()
        self.precision()
        self.optimizer()

    def save_gather(self) -> None:
        """ZeRO-3 only: whether saving gathers the 16-bit weights (default false; the fact of
        an unset flag sits on the stage's line)."""
        zo = self.block.get("zero_optimization")
        if not isinstance(zo, dict) or zo.get("stage") != 3:
            return
        for name in _GATHER:
            if name in zo:
                if self.auto("zero_optimization", name):
                    return
                if isinstance(zo[name], bool):
                    self.add("dist.save_16bit_weights", zo[name], self.src("zero_optimization", name))
                return
        path = (*self.prefix, "zero_optimization", _GATHER[0])
        self.add("dist.save_16bit_weights", False,
                 Source("default", self.config.path, self.config.line_of((*self.prefix, "zero_optimization", "stage")),
                        ".".join(path), f"DeepSpeed default: {_GATHER[0]} false"))

    def buckets(self) -> None:
        """Bucket and live-parameter sizes, in elements (DeepSpeed also accepts the names
        without ``stage3_`` and floats such as ``5e8``)."""
        zo = self.block.get("zero_optimization")
        if not isinstance(zo, dict):
            return
        for field, names in _BUCKETS:
            for name in names:
                if name in zo and self.auto("zero_optimization", name):
                    from preflight.adapters.deepspeed_auto_buckets import (
                        record,  # filled once the model is known
                    )

                    path = (*self.prefix, "zero_optimization", name)
                    record(self.project, field, self.config.path, self.config.line_of(path),
                           ".".join(str(k) for k in path), zo.get("stage"))
                if name not in zo or self.auto("zero_optimization", name):
                    continue
                value = zo[name]
                if isinstance(value, float) and value.is_integer():
                    value = int(value)
                # 0 is a setting for the stage-3 sizes (BELLE configs/deepspeed_config_stage3.json
                # @ 645084d3: "stage3_max_live_parameters": 0, no prefetch), not for the buckets
                low = FIELDS[field].minimum if field in FIELDS and FIELDS[field].minimum is not None else 1
                if _is_int(value) and value >= low:
                    self.add(field, value, self.src("zero_optimization", name))
                break
        for field, name in (("dist.overlap_comm", "overlap_comm"),
                            ("dist.contiguous_gradients", "contiguous_gradients")):
            # buffer sizes follow these switches (runtime/zero/stage_1_and_2.py setup_buckets)
            if isinstance(zo.get(name), bool) and not self.auto("zero_optimization", name):
                self.add(field, zo[name], self.src("zero_optimization", name))

    def zero(self) -> None:
        zo = self.block.get("zero_optimization")
        if zo is None:
            self.add("dist.sharding", "ddp", self.src("zero_optimization", "stage", kind="default",
                                                      detail="DeepSpeed default: ZeRO stage 0 (no partitioning)"),
                     "medium")
            return
        if isinstance(zo, bool):
            stage = 1 if zo else 0
            self.add("dist.sharding", _STAGE[stage],
                     self.src("zero_optimization", detail=f"legacy zero_optimization: {str(zo).lower()} = stage {stage}"))
            return
        if not isinstance(zo, dict):
            return
        if "stage" not in zo:
            self.add("dist.sharding", "ddp", self.src("zero_optimization", "stage", kind="default",
                                                      detail="DeepSpeed default: ZeRO stage 0"), "medium")
        elif not self.auto("zero_optimization", "stage") and _is_int(zo["stage"]) and zo["stage"] in _STAGE:
            self.add("dist.sharding", _STAGE[zo["stage"]],
                     self.src("zero_optimization", "stage", detail=f"ZeRO stage {zo['stage']}"))
        for block, field in (("offload_param", "dist.offload_params"), ("offload_optimizer", "dist.offload_optimizer")):
            sub = zo.get(block)
            if isinstance(sub, dict):
                if self.auto("zero_optimization", block, "device"):
                    continue
                device = sub.get("device", "none")
                if isinstance(device, str) and device.lower() in _DEVICES:
                    kind = "config" if "device" in sub else "default"
                    self.add(field, device.lower(), self.src("zero_optimization", block, "device", kind=kind))
            elif sub is None:
                legacy = "cpu_offload_params" if block == "offload_param" else "cpu_offload"
                if zo.get(legacy) is True:
                    self.add(field, "cpu", self.src("zero_optimization", legacy, detail=f"legacy {legacy}: true"))
                else:
                    self.add(field, "none", self.src("zero_optimization", block, kind="default",
                                                     detail="DeepSpeed default: no offload"))

    def batch(self) -> None:
        values: dict[str, int] = {}
        own_loop = _accelerator_loop(self.project)
        for key, field in _TRIPLE:
            if key not in self.block or self.auto(key):
                continue
            value = self.block[key]
            if own_loop and field == "batch.micro" and _is_int(value):
                # Accelerator.prepare keeps an integer train_micro_batch_size_per_gpu for DeepSpeed's
                # bookkeeping and never rebatches the script's DataLoader (accelerate/accelerator.py
                # _prepare_deepspeed: only "auto" is filled from the loader's batch_size): DiffuLLaMA's
                # JSON says 64 where DataLoader(batch_size=--batch-size 60) is what each step reads
                self.adapter.note(self.plan, f"{self.config.path}: train_micro_batch_size_per_gpu {value} is "
                                             "DeepSpeed's figure; under Accelerator the script's DataLoader "
                                             "batch_size is what each step holds (medium)")
            conf = "medium" if own_loop and field == "batch.micro" else "high"
            if field == "batch.micro" and _is_int(value) and not own_loop:
                from preflight.adapters.deepspeed_own_loader import own_loader

                mine = own_loader(self.project)  # the engine is given no data: the script's loader batches
                if mine is not None:
                    conf = "medium"
                    self.adapter.note(self.plan, f"{self.config.path}: train_micro_batch_size_per_gpu {value} is "
                                                 f"DeepSpeed's figure; the script batches its own data ({mine}), "
                                                 "so its loader's batch_size is what each step holds (medium)")
            if _is_int(value) and self.add(field, value, self.src(key), conf):
                values[key] = value
        micro = values.get("train_micro_batch_size_per_gpu")
        accum = values.get("gradient_accumulation_steps")
        total = values.get("train_batch_size")
        if micro is not None and "gradient_accumulation_steps" not in self.block and "train_batch_size" not in self.block:
            self.add("batch.grad_accum", 1, self.src("gradient_accumulation_steps", kind="default",
                                                     detail="DeepSpeed: only the micro-batch given, so 1"))
        if micro is not None and accum is not None and total is not None and total % (micro * accum) == 0:
            world = total // (micro * accum)
            detail = (f"train_batch_size / (train_micro_batch_size_per_gpu x gradient_accumulation_steps) = "
                      f"{total} / ({micro} x {accum})")
            source = Source("derived", self.config.path, self.config.line_of((*self.prefix, "train_batch_size")),
                            ".".join((*self.prefix, "train_batch_size")), detail)
            self.add("dist.world_size", world, source)

    def precision(self) -> None:
        enabled: list[str] = []
        auto = False
        for key, mode in (("fp16", "fp16"), ("bf16", "bf16"), ("bfloat16", "bf16"), ("amp", "amp_fp16")):
            sub = self.block.get(key)
            if not isinstance(sub, dict):
                continue
            if self.auto(key, "enabled"):
                auto = True
            elif isinstance(sub.get("enabled"), str) and sub["enabled"].strip().lower() == "true":
                # the string "true": truthy to DeepSpeed's old ``get_scalar_param`` and coerced to True by its
                # pydantic configs alike (mosaicml examples' ``"bf16": {"enabled": "true"}``); "false" is not
                # (truthy to the one, False to the other): unknown below
                enabled.append(mode)
                self.add("precision.mode", mode, self.src(key, "enabled", detail=f'{key}.enabled: "true" (a string)'),
                         "medium")
            elif "enabled" in sub and not isinstance(sub["enabled"], bool):
                auto = True  # not known statically (a value built at run time)
            elif sub.get("enabled") is True:
                enabled.append(mode)
                self.add("precision.mode", mode, self.src(key, "enabled", detail=f"{key}.enabled: true"))
        if not enabled and not auto:
            self.add("precision.mode", "fp32", self.src("fp16", "enabled", kind="default",
                                                        detail="neither fp16 nor bf16 enabled: DeepSpeed trains in fp32"),
                     "medium")

    def optimizer(self) -> None:
        opt = self.block.get("optimizer")
        if isinstance(opt, dict) and isinstance(opt.get("type"), str) and not self.auto("optimizer", "type"):
            self.add("optimizer.name", opt["type"], self.src("optimizer", "type"))
