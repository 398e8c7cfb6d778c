"""WeNet-style training confs (HyperPyYAML or plain YAML): an ``optim`` name with its
``optim_conf`` and an ``accum_grad``, in a ``train_conf`` section (FunAudioLLM/CosyVoice @ ace7c47
``examples/libritts/cosyvoice2/conf/cosyvoice2.yaml:210-220``, read by
``cosyvoice/utils/train_utils.py:111-116`` ``optim == 'adam'`` -> ``optim.Adam`` and
``cosyvoice/utils/executor.py:64,79`` an optimizer step every ``accum_grad`` batches) or at the top
level (wenet-e2e/wenet's ``conf/*.yaml``, the same keys).

- ``accum_grad`` -> ``batch.grad_accum``;
- ``optim`` ``adam``/``adamw``/``sgd`` -> ``Adam``/``AdamW``/``SGD`` (the names the training utilities
  map to ``torch.optim``); another name is left unknown.

The HyperPyYAML tags (``!new:``, ``!ref``) are read as plain data by the loader; these keys are
plain values. Read only for a conf with all three of ``optim`` (a string), ``optim_conf`` (a
mapping) and ``accum_grad`` (an integer) in one section. ``medium``: the keys' meaning is the
toolkit's. Nothing is imported or executed.
"""

from __future__ import annotations

from typing import Any, Optional

from preflight.adapters.recipes import _is_int

from preflight.adapters_api import Adapter, Project
from preflight.loaders import LoadedConfig
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter

_OPTIM = {"adam": "Adam", "adamw": "AdamW", "sgd": "SGD"}


def _section(cfg: LoadedConfig) -> Optional[tuple[Any, ...]]:
    """The key path of the section holding the training conf, or None."""
    d = cfg.data
    if not isinstance(d, dict):
        return None
    for path in (("train_conf",), ()):
        sec = cfg.get(path) if path else d
        if isinstance(sec, dict) and isinstance(sec.get("optim"), str) and isinstance(sec.get("optim_conf"), dict) \
                and _is_int(sec.get("accum_grad")):
            return path
    return None


@register_adapter
class WenetConfAdapter(Adapter):
    name = "recipes_wenet"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(_section(cfg) is not None for _, cfg in project.configs)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for _, cfg in project.configs:
            path = _section(cfg)
            if path is None:
                continue
            accum = cfg.get((*path, "accum_grad"))
            if accum > 0:
                self.add_checked(plan, "batch.grad_accum", accum,
                                 project.config_source(cfg, (*path, "accum_grad"),
                                                       detail="an optimizer step every accum_grad batches"), "medium")
            optim = cfg.get((*path, "optim"))
            if optim.lower() in _OPTIM:
                self.add_checked(plan, "optimizer.name", _OPTIM[optim.lower()],
                                 project.config_source(cfg, (*path, "optim")), "medium")
            return
