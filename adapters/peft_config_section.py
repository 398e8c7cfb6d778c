"""A PEFT config written as a section of the job's YAML/JSON and built by
``peft.get_peft_config(section)`` in the script (THUDM/ChatGLM3 finetune_demo/configs/lora.yaml:41-46
``peft_config: {peft_type: LORA, r: 8}`` -> finetune_hf.py:200-202,406): ``peft.method`` lora and
``peft.rank`` from ``r``; ``peft_type`` another method (PREFIX_TUNING, P_TUNING, ...) is not LoRA
and is not claimed. Only when a script of the job calls ``get_peft_config`` (``medium``: the
section is what that call receives by its key, not followed through the code).
"""

from __future__ import annotations

from typing import Any

from preflight.adapters_api import Adapter, Project
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter


def _sections(data: Any) -> list[tuple[tuple[str, ...], dict]]:
    out: list[tuple[tuple[str, ...], dict]] = []
    if not isinstance(data, dict):
        return out
    if "peft_type" in data:
        out.append(((), data))
    for key, value in data.items():
        if isinstance(key, str) and isinstance(value, dict) and "peft_type" in value:
            out.append(((key,), value))
    return out


@register_adapter
class PeftConfigSectionAdapter(Adapter):
    name = "peft_config_section"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any("get_peft_config" in s.source.text for s in project.scripts) and any(
            _sections(cfg.data) for _, cfg in project.configs)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        found = [(cfg, path, sec) for _, cfg in project.configs for path, sec in _sections(cfg.data)]
        if len(found) != 1:
            return  # several PEFT sections: which one the script builds is not followed
        cfg, path, sec = found[0]
        if str(sec.get("peft_type", "")).upper() != "LORA":
            return
        detail = "peft_type LORA, built by get_peft_config() in the script"
        self.add_checked(plan, "peft.method", "lora",
                         project.config_source(cfg, (*path, "peft_type"), detail=detail), "medium")
        rank = sec.get("r")
        if isinstance(rank, int) and not isinstance(rank, bool) and rank >= 1:
            self.add_checked(plan, "peft.rank", rank,
                             project.config_source(cfg, (*path, "r"), detail="LoRA r of " + detail), "medium")
