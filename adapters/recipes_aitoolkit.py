"""ai-toolkit job files (``python run.py config/my_job.yaml``, ostris/ai-toolkit): a YAML with
``job:`` and ``config: process: [...]``, each process a dict with a ``type`` (``sd_trainer``,
``ui_trainer``, ...) whose sections the toolkit's config classes read
(ostris/ai-toolkit @ 27a03a9 ``toolkit/config_modules.py``, ``config/examples/train_lora_flux_24gb.yaml``):

- ``model.name_or_path`` is the model (``ModelConfig``, :628); ``model.quantize`` (default False,
  :685) quantizes the base with optimum.quanto in ``model.qtype`` (default ``qfloat8``, :687;
  ``qint4``/``qint2`` are 4/2 bits), else the base stays in ``model.dtype`` (default ``float16``, :645);
- ``network.type`` (default ``lora``, :171) with ``network.linear`` (or ``rank``; default 4,
  :175-182) is a LoRA of that rank; no ``network`` section trains the model itself;
- ``train.batch_size`` (default 1, :393), ``train.gradient_accumulation_steps`` (default 1, :456),
  ``train.gradient_checkpointing`` (default True, :413), ``train.optimizer`` (default ``adamw``,
  :387; ``adamw8bit`` is bitsandbytes' AdamW8bit, ``toolkit/optimizer.py:70-71``), ``train.dtype``
  (default ``fp32``, :395): the dtype the trained weights are kept in; the toolkit builds its
  Accelerator without mixed precision, so this is not autocast.

The first trainer process is read (a job file holds one in practice). Explicit keys are ``high``;
the toolkit's defaults and the dtype reading are ``medium`` (they follow the toolkit's version).
Nothing is imported or executed.
"""

from __future__ import annotations

from typing import Any, Optional

from preflight.adapters.recipes import _bool, _is_int, _Pass

from preflight.adapters_api import Adapter, Project
from preflight.loaders import LoadedConfig
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter

_DTYPE = {"bf16": "bf16", "bfloat16": "bf16", "fp16": "fp16", "float16": "fp16", "half": "fp16",
          "fp32": "fp32", "float32": "fp32", "float": "fp32"}
_QBITS = {"qfloat8": 8, "qint8": 8, "float8": 8, "qint4": 4, "qint2": 2, "uint4": 4, "uint2": 2}
_LORA = ("lora", "locon", "lorm")


def _process(cfg: LoadedConfig) -> Optional[int]:
    """Index of the first trainer process of an ai-toolkit job file, or None."""
    d = cfg.data
    if not isinstance(d, dict) or not isinstance(d.get("job"), str) or not isinstance(d.get("config"), dict):
        return None
    procs = d["config"].get("process")
    if not isinstance(procs, list):
        return None
    for k, proc in enumerate(procs):
        if isinstance(proc, dict) and isinstance(proc.get("type"), str) and "trainer" in proc["type"] \
                and any(isinstance(proc.get(s), dict) for s in ("train", "model")):
            return k
    return None


@register_adapter
class AiToolkitAdapter(Adapter):
    name = "recipes_aitoolkit"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(_process(cfg) is not None for _, cfg in project.configs)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for _, cfg in project.configs:
            k = _process(cfg)
            if k is not None:
                _AiToolkit(self, project, plan, cfg, k).run()
                return


class _AiToolkit(_Pass):
    def __init__(self, adapter: Adapter, project: Project, plan: TrainingPlan, cfg: LoadedConfig, k: int) -> None:
        super().__init__(adapter, project, plan, cfg)
        self.base: tuple[Any, ...] = ("config", "process", k)

    def key(self, section: str, name: str, default: Any, where: str) -> tuple[Any, Any, str]:
        """(value, source, confidence): the file's key, else the toolkit's default (medium)."""
        keys = (*self.base, section, name)
        if self.cfg.has(keys) and self.cfg.get(keys) is not None:
            return self.cfg.get(keys), self.src(*keys), "high"
        detail = f"ai-toolkit: {section}.{name} not given; the toolkit's default {default!r} ({where})"
        anchor = (*self.base, section) if self.cfg.has((*self.base, section)) else self.base
        return default, self.src(*anchor, kind="default", detail=detail), "medium"

    def run(self) -> None:
        model = self.cfg.get((*self.base, "model"))
        if isinstance(model, dict) and isinstance(model.get("name_or_path"), str) and model["name_or_path"]:
            self.add("model.ref", model["name_or_path"], self.src(*self.base, "model", "name_or_path"))
        self.train()
        self.weights_and_adapter(model if isinstance(model, dict) else {})

    def train(self) -> None:
        where = "toolkit/config_modules.py TrainConfig"
        micro, src, conf = self.key("train", "batch_size", 1, where)
        if _is_int(micro):
            self.add("batch.micro", micro, src, conf)
        accum, src, conf = self.key("train", "gradient_accumulation_steps", 1, where)
        if _is_int(accum):
            self.add("batch.grad_accum", accum, src, conf)
        ckpt, src, conf = self.key("train", "gradient_checkpointing", True, where)
        if _bool(ckpt) is not None:
            self.add("memory.gradient_checkpointing", _bool(ckpt), src, conf)
        opt, src, conf = self.key("train", "optimizer", "adamw", where)
        if isinstance(opt, str) and opt:
            self.add("optimizer.name", opt, src, conf)
        dtype, src, _ = self.key("train", "dtype", "fp32", where)
        mode = _DTYPE.get(str(dtype).lower())
        if mode is not None:
            self.add("precision.mode", mode, src, "medium")

    def weights_and_adapter(self, model: dict) -> None:
        where = "toolkit/config_modules.py ModelConfig"
        quant, qsrc, qconf = self.key("model", "quantize", False, where)
        quantized = _bool(quant) is True
        if quantized:
            qtype, tsrc, tconf = self.key("model", "qtype", "qfloat8", where)
            bits = _QBITS.get(str(qtype).lower())
            if bits is not None:
                self.add("precision.weights_bits", bits, tsrc if tconf == "high" else qsrc, qconf)
        elif _bool(quant) is False:
            dtype, dsrc, _ = self.key("model", "dtype", "float16", where)
            mode = _DTYPE.get(str(dtype).lower())
            if mode is not None:
                self.add("precision.weights_bits", 32 if mode == "fp32" else 16, dsrc, "medium")
        net_keys = (*self.base, "network")
        net = self.cfg.get(net_keys)
        if isinstance(net, dict):
            kind = net.get("type", "lora")
            if not isinstance(kind, str) or kind.lower() not in _LORA:
                return  # LoKr, DoRA-like or a custom network: no reading
            src = self.src(*net_keys, "type") if "type" in net else self.src(*net_keys)
            self.add("peft.method", "lora", src)
            self.add("task.mode", "qlora" if quantized else "lora", src, "high" if not quantized else "medium")
            for name in ("linear", "rank"):
                if _is_int(net.get(name)):
                    self.add("peft.rank", net[name], self.src(*net_keys, name))
                    break
            else:
                self.add("peft.rank", 4, self.src(*net_keys, kind="default",
                                                  detail="ai-toolkit: network.linear not given; default 4"), "medium")
        elif net is None and not self.cfg.has(net_keys) and self.cfg.has((*self.base, "train")):
            detail = "ai-toolkit: no network section: the model's own weights are trained"
            self.add("peft.method", "none", self.src(*self.base, kind="default", detail=detail), "medium")
            self.add("task.mode", "finetune", self.src(*self.base, kind="default", detail=detail), "medium")
