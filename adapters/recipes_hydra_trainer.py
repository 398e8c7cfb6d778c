"""A Hydra-instantiated trainer config with a ``launcher`` section: the script composes the YAML
and builds ``cfg.trainer`` with ``instantiate`` (its ``_target_`` a project class), starting
``launcher.gpus_per_node`` processes on ``launcher.num_nodes`` machines. Real shape:
facebookresearch/sam2 @ 2b90b9f ``training/train.py`` (``-c configs/...yaml``, ``--num-gpus`` and
``--num-nodes`` replace ``launcher.gpus_per_node``/``num_nodes``, :154-158; ``--use-cluster 0``
runs one node, :236) with ``sam2/configs/sam2.1_training/sam2.1_hiera_b+_MOSE_finetune.yaml``:

- ``trainer.data.train.batch_sizes`` (a list: the first dataset's batch per process) or
  ``batch_size``, ``num_workers``, ``pin_memory``;
- ``trainer.optim.amp.enabled`` with ``amp_dtype`` (``torch.cuda.amp.autocast`` over fp32
  weights: ``amp_bf16``/``amp_fp16``; disabled is ``fp32``), ``trainer.optim.optimizer._target_``;
- ``trainer.model.image_size``;
- the trainer class's module (``_target_``) wrapping the model in ``DistributedDataParallel``
  gives ``ddp``; a module that never mentions accumulation steps gives one optimizer step per
  batch.

``${a.b}`` interpolations are followed on the file's own data (``scratch.train_batch_size``).
Read only for a config whose ``trainer._target_`` is a string and whose ``launcher`` section has
``gpus_per_node``. ``medium``: the keys' meaning is the project's trainer's. Nothing is imported
or executed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.hydra_values import Unknown, resolve
from preflight.adapters.recipes import _bool, _flags, _is_int

from preflight.adapters_api import Adapter, Project
from preflight.loaders import LoadedConfig
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter
from preflight.sources import read_text_limited

_AMP = {"bfloat16": "amp_bf16", "bf16": "amp_bf16", "float16": "amp_fp16", "fp16": "amp_fp16", "half": "amp_fp16"}
_ACCUM = re.compile(r"accum", re.I)


def _is_trainer_config(cfg: LoadedConfig) -> bool:
    d = cfg.data
    return isinstance(d, dict) and isinstance(d.get("trainer"), dict) \
        and isinstance(d["trainer"].get("_target_"), str) and isinstance(d.get("launcher"), dict) \
        and "gpus_per_node" in d["launcher"]


def _module_text(project: Project, target: str) -> Optional[str]:
    """The source of the module of ``pkg.mod.Class``, found under the project root."""
    parts = target.split(".")[:-1]
    if not parts:
        return None
    root = Path(project.root)
    for base in (root, *[Path(str(s.source.path)).parent.parent for s in project.scripts]):
        cand = base.joinpath(*parts).with_suffix(".py")
        if cand.is_file():
            try:
                return read_text_limited(cand, errors="replace")[:1_000_000]
            except OSError:
                return None
    return None


@register_adapter
class HydraTrainerAdapter(Adapter):
    name = "recipes_hydra_trainer"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(_is_trainer_config(cfg) for _, cfg in project.configs)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for _, cfg in project.configs:
            if _is_trainer_config(cfg):
                _Trainer(self, project, plan, cfg).run()
                return


class _Trainer:
    def __init__(self, adapter: Adapter, project: Project, plan: TrainingPlan, cfg: LoadedConfig) -> None:
        self.adapter, self.project, self.plan, self.cfg = adapter, project, plan, cfg
        self.cli = _flags(list(project.argv))

    def get(self, *keys: Any) -> tuple[Any, Optional[Source]]:
        if not self.cfg.has(keys):
            return None, None
        value = resolve(self.cfg.data, self.cfg.get(keys), [str(k) for k in keys[:-1]])
        if isinstance(value, Unknown) or (isinstance(value, str) and "${" in value):
            return None, None
        return value, self.project.config_source(self.cfg, keys)

    def add(self, field: str, value: Any, source: Optional[Source]) -> None:
        if source is not None:
            self.adapter.add_checked(self.plan, field, value, source, "medium")

    def cli_int(self, flag: str, *keys: str) -> tuple[Optional[int], Optional[Source]]:
        text = self.cli.get(flag)
        if text is not None and text.isdigit():
            return int(text), Source("cli", None, None, "--" + flag.replace("_", "-"),
                                     f"replaces {'.'.join(keys)} (launch line: {' '.join(self.project.argv)})")
        value, src = self.get(*keys)
        return (value, src) if _is_int(value) else (None, None)

    def run(self) -> None:
        self.launcher()
        train = ("trainer", "data", "train")
        micro, src = self.get(*train, "batch_sizes")
        if isinstance(micro, list) and micro:
            micro, src = self.get(*train, "batch_sizes", 0)
        else:
            micro, src = self.get(*train, "batch_size")
        if _is_int(micro) and micro > 0:
            self.add("batch.micro", micro, src)
        workers, src = self.get(*train, "num_workers")
        if _is_int(workers) and workers >= 0:
            self.add("data.num_workers", workers, src)
        pin, src = self.get(*train, "pin_memory")
        if _bool(pin) is not None:
            self.add("data.pin_memory", _bool(pin), src)
        enabled, src = self.get("trainer", "optim", "amp", "enabled")
        if _bool(enabled) is False:
            self.add("precision.mode", "fp32", src)
        elif _bool(enabled) is True:
            dtype, dsrc = self.get("trainer", "optim", "amp", "amp_dtype")
            if isinstance(dtype, str) and dtype.lower() in _AMP:
                self.add("precision.mode", _AMP[dtype.lower()], dsrc)
        opt, src = self.get("trainer", "optim", "optimizer", "_target_")
        if isinstance(opt, str) and opt.startswith("torch.optim."):
            self.add("optimizer.name", opt.rsplit(".", 1)[-1], src)
        size, src = self.get("trainer", "model", "image_size")
        if _is_int(size) and size > 0:
            self.add("data.image_size", size, src)
        self.trainer_module()

    def launcher(self) -> None:
        gpus, gsrc = self.cli_int("num_gpus", "launcher", "gpus_per_node")
        nodes, nsrc = self.cli_int("num_nodes", "launcher", "num_nodes")
        if self.cli.get("use_cluster") == "0" and nodes is None:
            nodes, nsrc = 1, Source("cli", None, None, "--use-cluster", "--use-cluster 0: one local node")
        if gpus is not None and gpus > 0:
            self.add("dist.devices_per_node", gpus, gsrc)
        if nodes is not None and nodes > 0:
            self.add("dist.nodes", nodes, nsrc)
        if gpus and nodes and gpus > 0 and nodes > 0 and gsrc is not None:
            self.add("dist.world_size", gpus * nodes, Source("derived", gsrc.path, gsrc.line, gsrc.key,
                                                             "launcher GPUs per node x nodes"))

    def trainer_module(self) -> None:
        target, src = self.get("trainer", "_target_")
        if not isinstance(target, str) or src is None:
            return
        text = _module_text(self.project, target)
        if text is None:
            return
        where = f"the trainer class {target}"
        if "DistributedDataParallel(" in text and "FullyShardedDataParallel" not in text \
                and "fully_shard" not in text:
            self.add("dist.sharding", "ddp", Source("code", src.path, src.line, src.key,
                                                    f"{where} wraps the model in DistributedDataParallel"))
        if not _ACCUM.search(text):
            self.add("batch.grad_accum", 1, Source("code", src.path, src.line, src.key,
                                                   f"{where} has no gradient accumulation: one step per batch"))
