"""axolotl's datasets (``data.datasets``) and its collator's padding multiple
(``data.pad_to_multiple_of``), beside ``recipes.py``'s reading of the same config.

- ``datasets:`` is a list of entries whose ``path`` is a Hub id, a local file or folder (with
  ``ds_type``/``data_files``). The list is written only when every entry names a Hub id (so the
  estimator's table of published token lengths, ``preflight/estimate/sample_lengths.py``, sees
  every dataset the job trains on); one local or unread entry leaves it unwritten.
- Without ``pad_to_sequence_len`` and ``sample_packing`` axolotl's collator pads each batch to its
  longest sample, rounded up to a multiple of 64 (axolotl ``core/trainer_builder.py``,
  ``data_collator_kwargs["pad_to_multiple_of"] = 64`` unless ``pad_to_sequence_len``).
"""

from __future__ import annotations

from typing import Any, Optional

from preflight.adapters.recipes import _bool, _is_axolotl

from preflight.adapters_api import Adapter, Project
from preflight.loaders import LoadedConfig
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter

#: axolotl pads an unpacked batch up to a multiple of this (its collator's pad_to_multiple_of)
AXOLOTL_PAD_MULTIPLE = 64
_FILE_TYPES = ("json", "jsonl", "csv", "parquet", "arrow", "txt", "text")


def _hub_ids(entries: Any) -> Optional[list[str]]:
    if not isinstance(entries, list) or not entries:
        return None
    names: list[str] = []
    for entry in entries:
        path = entry.get("path") if isinstance(entry, dict) else None
        if not isinstance(path, str) or not path.strip():
            return None
        path = path.strip()
        if entry.get("data_files") or str(entry.get("ds_type") or "").lower() in _FILE_TYPES:
            return None
        if path.startswith((".", "/", "~")) or path.rsplit(".", 1)[-1].lower() in _FILE_TYPES:
            return None
        if path not in names:
            names.append(path)
    return names


def _contribute(adapter: Adapter, project: Project, plan: TrainingPlan, cfg: LoadedConfig) -> None:
    d = cfg.data
    names = _hub_ids(d.get("datasets"))
    if names:
        adapter.add_checked(plan, "data.datasets", names, project.config_source(cfg, ("datasets",)), "high")
    if _bool(d.get("sample_packing")) is not True and _bool(d.get("pad_to_sequence_len")) is not True:
        adapter.add_checked(plan, "data.pad_to_multiple_of", AXOLOTL_PAD_MULTIPLE, project.config_source(
            cfg, ("sequence_len",), kind="default",
            detail="axolotl's collator pads each batch to its longest sample, a multiple of 64"), "medium")


@register_adapter
class RecipeDatasetsAdapter(Adapter):
    name = "recipe_datasets"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(_is_axolotl(c) for _, c in project.configs)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for _, cfg in project.configs:
            if _is_axolotl(cfg):
                _contribute(self, project, plan, cfg)
