"""The model a config file of the job names by its Hub id, in a key no framework reader maps.

Projects with their own config schema name the model they train in a section of the file the
launch line gives: a TOML read by pydantic-settings (PrimeIntellect-ai/prime-rl @ the benchmark's
commit ``examples/basic/reverse-text/sft.toml:5-6`` ``[model]`` ``name = "PrimeIntellect/Qwen3-0.6B"``,
launched as ``torchrun ... src/prime_rl/trainer/sft/train.py @ examples/basic/reverse-text/sft.toml``),
a YAML loaded into a dataclass (kyutai-labs/moshi-finetune ``example/moshi_7B.yaml:8-9``
``moshi_paths:`` ``hf_repo_id: "kyutai/moshiko-pytorch-bf16"``, ``torchrun -m train example/moshi_7B.yaml``).
The framework readers (HfArgumentParser fields, axolotl's ``base_model``, Hydra's model nodes) do not
know these keys.

Read, never imported: every config file the job reads (JSON, YAML, TOML); a string value that is a Hub
id (``owner/name``, no file or folder of that name beside the job) under

- a key that names a model repository: ``hf_repo_id``, ``repo_id``, ``model_name_or_path``,
  ``pretrained_model_name_or_path``, ``model_id``, ``model_name``, ``base_model``, ``model_path``; or
- ``name``/``path``/``id``/``name_or_path`` directly in a section named ``model`` (``[model] name``),

or a local folder named like one catalog model (``model_path: /data/Qwen2.5-7B``, read as that catalog
Hub id: :func:`preflight.adapters.model_local_folder.catalog_download`), where no section on the way
names another thing the job loads (a tokenizer, a reward, reference,
critic or teacher model, a draft model, data, a vision tower, a VAE). Exactly one such Hub id across the
files gives ``model.ref``, **low** confidence at the lowest priority (the key's meaning is the
project's; a model read from the code or a known framework key wins). Two different ids state nothing.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

from preflight.adapters_api import Project, ScratchAdapter
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")
_REPO_KEYS = {"hf_repo_id", "repo_id", "model_name_or_path", "pretrained_model_name_or_path", "model_id",
              "model_name", "base_model", "model_path"}
_SECTION_KEYS = {"name", "path", "id", "name_or_path"}
_OTHER = {"tokenizer", "reward", "rm", "ref", "reference", "critic", "teacher", "draft", "data", "dataset",
          "datasets", "vision", "vision_tower", "vae", "eval", "evaluation", "judge", "embedding", "embedder",
          "retriever", "inference", "sampling", "env", "environment", "source", "output", "logging", "wandb"}
_MAX_NODES = 20_000


def _words(key: Any) -> set[str]:
    return {w for w in re.split(r"[^a-z0-9]+", str(key).lower()) if w}


def _values(data: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    stack: list[tuple[tuple, Any]] = [(path, data)]
    seen = 0
    while stack and seen < _MAX_NODES:
        here, node = stack.pop()
        seen += 1
        if isinstance(node, dict):
            stack.extend(((*here, k), v) for k, v in reversed(list(node.items())))
        elif not isinstance(node, list):
            yield here, node


def _names_model(path: tuple) -> bool:
    if not path or not isinstance(path[-1], str):
        return False
    if any(_words(p) & _OTHER or str(p).lower() in _OTHER for p in path):
        return False
    last = path[-1].lower()
    if last in _REPO_KEYS:
        return True
    return last in _SECTION_KEYS and len(path) >= 2 and str(path[-2]).lower() == "model"


@register_adapter
class ModelConfigRefAdapter(ScratchAdapter):
    name = "model_config_ref"
    frameworks = ()

    def wants(self, project: Project) -> bool:
        return bool(project.configs)

    def work(self, project: Project, plan: TrainingPlan) -> None:
        from preflight.adapters.model_local_folder import catalog_download

        found: list[tuple[str, Any, tuple, str]] = []
        for _, cfg in project.configs:
            if cfg.kind not in ("json", "yaml", "toml"):
                continue
            for path, value in _values(cfg.data):
                if not isinstance(value, str) or not _names_model(path) or self._local(project, value.strip()):
                    continue
                if _HUB_ID.match(value.strip()):
                    found.append((value.strip(), cfg, path, "a Hub id"))
                elif catalog_download(value) is not None:
                    found.append((str(catalog_download(value)), cfg, path,
                                  f"a local folder named like the catalog model, taken as a download of it ({value})"))
        if not found or len({v for v, _, _, _ in found}) != 1:
            return
        value, cfg, path, what = found[0]
        key = ".".join(str(p) for p in path)
        self.add(plan, "model.ref", value,
                 Source("config", cfg.path, cfg.line_of(path, nearest=True), key,
                        f"{key}: {value} in {cfg.path}, {what} under a key that names the model (the key's "
                        "meaning is the project's; a model read from the code wins)"), "low", priority=-1)

    @staticmethod
    def _local(project: Project, value: str) -> bool:
        try:
            return (Path(str(project.root)) / value).exists()
        except (OSError, ValueError):
            return True

