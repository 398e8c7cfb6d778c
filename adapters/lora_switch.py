"""A project's own LoRA, switched on by the job's config or launch line (no ``peft`` call to read).

Projects that bring their own LoRA layers turn them on with a setting of their own:

- a ``lora`` section of the config file the job reads, with a boolean switch and a rank
  (kyutai-labs/moshi-finetune @ the benchmark's commit ``example/moshi_7B.yaml:11-14``
  ``full_finetuning: false`` / ``lora: {enable: true, rank: 128}``, read by ``train.py:142`` into the
  model's own LoRA linear layers, ``finetune/wrapped_model.py:168-175`` leaving only them trainable);
- a network module on the launch line, the kohya-ss convention (kohya-ss/sd-scripts @ the benchmark's
  commit ``train_network.py`` ``--network_module=networks.lora --network_dim=16``: the module's
  ``create_network`` builds LoRA layers of that rank over the frozen U-Net and text encoder; the same
  options in its forks and front ends).

Read, never imported: a config section named ``lora`` (at the top or one level down) whose switch
(``enable``/``enabled``/``use``/``use_lora``) is ``true`` and whose rank (``rank``/``r``/``lora_r``/``dim``)
is a positive integer, when a script of the job mentions LoRA; or ``--network_module`` whose last
dotted part is ``lora`` or starts with ``lora_`` (``networks.lora``, ``networks.lora_flux``), with the rank
from ``--network_dim``. ``peft.method`` ``lora``, ``peft.rank``, and ``task.mode`` ``lora``: medium (the
setting's meaning is the project's). A switch set to false, a section without a switch, two sections
that disagree, or another network module (LyCORIS, DyLoRA) state nothing.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from preflight.adapters_api import Project, ScratchAdapter
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_SWITCH = ("enable", "enabled", "use", "use_lora")
_RANK = ("rank", "r", "lora_r", "dim")


def _int(value: Any) -> Optional[int]:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else None


def _sections(data: Any) -> list[tuple[tuple[str, ...], dict]]:
    out: list[tuple[tuple[str, ...], dict]] = []
    if not isinstance(data, dict):
        return out
    for key, value in data.items():
        if isinstance(value, dict) and key == "lora":
            out.append(((key,), value))
        elif isinstance(value, dict):
            out.extend(((key, k), v) for k, v in value.items() if k == "lora" and isinstance(v, dict))
    return out


def _switched(sec: dict) -> Optional[tuple[str, bool]]:
    found = [(k, sec[k]) for k in _SWITCH if isinstance(sec.get(k), bool)]
    return found[0] if len(found) == 1 else None


def switched_sections(data: Any) -> list[tuple[tuple[str, ...], str, bool, str, int]]:
    """(section path, switch key, its value, rank key, rank) of each ``lora`` section of ``data`` with one
    switch and one rank (also read by ``dataclass_config`` over a file merged with its class's defaults)."""
    out = []
    for path, sec in _sections(data):
        switch = _switched(sec)
        ranks = [(k, _int(sec.get(k))) for k in _RANK if _int(sec.get(k)) is not None]
        if switch is not None and len(ranks) == 1 and ranks[0][1] is not None:
            out.append((path, switch[0], switch[1], ranks[0][0], ranks[0][1]))
    return out


def _option(args: list[str], name: str) -> Optional[str]:
    for i, tok in enumerate(args):
        flag, eq, value = tok.partition("=")
        if flag == f"--{name}":
            if eq:
                return value
            return args[i + 1] if i + 1 < len(args) and not args[i + 1].startswith("-") else None
    return None


@register_adapter
class LoraSwitchAdapter(ScratchAdapter):
    name = "lora_switch"
    frameworks = ()

    def work(self, project: Project, plan: TrainingPlan) -> None:
        if not self._launch_line(project, plan):
            self._config(project, plan)

    def _config(self, project: Project, plan: TrainingPlan) -> None:
        if not any(re.search(r"\blora\b", s.source.text, re.I) for s in project.scripts):
            return
        found = [(cfg, *sec) for _, cfg in project.configs for sec in switched_sections(cfg.data)]
        if len({(on, rank) for _, _, _, on, _, rank in found}) != 1 or not found[0][3]:
            return
        cfg, path, switch, _, rank_key, rank = found[0]
        where = ".".join(path)
        detail = (f"{where}.{switch} true in {cfg.path}: the project's own LoRA (its {where}.{rank_key} {rank}), "
                  "switched on by the config")
        self.add(plan, "peft.method", "lora", project.config_source(cfg, (*path, switch), detail=detail), "medium")
        self.add(plan, "peft.rank", rank, project.config_source(cfg, (*path, rank_key), detail=detail), "medium")
        self.add(plan, "task.mode", "lora", project.config_source(cfg, (*path, switch), detail=detail), "medium")

    def _launch_line(self, project: Project, plan: TrainingPlan) -> bool:
        for script in self.scripts(project):
            args = project.script_args(script)
            module = _option(args, "network_module")
            if module is None:
                continue
            last = module.strip().rsplit(".", 1)[-1]
            if last != "lora" and not last.startswith("lora_"):
                return True  # another network (LyCORIS, DyLoRA): not claimed, and no config read either
            at = project.launch_at or (None, None)
            detail = f"--network_module {module} on the launch line: the project's LoRA network over the frozen model"
            self.add(plan, "peft.method", "lora", Source("cli", at[0], at[1], "--network_module", detail), "medium")
            self.add(plan, "task.mode", "lora", Source("cli", at[0], at[1], "--network_module", detail), "medium")
            rank = _option(args, "network_dim")
            if rank is not None and rank.isdigit() and int(rank) >= 1:
                self.add(plan, "peft.rank", int(rank),
                         Source("cli", at[0], at[1], "--network_dim", f"--network_dim {rank}: the rank of {detail}"),
                         "medium")
            return True
        return False
