"""LLaMA-Factory's command-line form: ``src/train_bash.py --stage sft --finetuning_type lora ...``.

Before its YAML recipes (:mod:`recipes_tools` reads those), hiyouga's tuners were launched with every
setting on the command line of ``src/train_bash.py``, parsed by an ``HfArgumentParser`` over the
project's own dataclasses (hparams/finetuning_args.py, model_args.py) and TrainingArguments, then
dispatched by ``--stage`` into a workflow several modules deep (tuner/sft/workflow.py -> tuner/core/
loader.py -> adapter.py), further than the audit follows the code. Real lines:
hiyouga/ChatGLM-Efficient-Tuning @ 3c12daa README.md:145-172 (``accelerate launch src/train_bash.py
--stage sft --model_name_or_path ... --finetuning_type lora ... --fp16``), LLaMA-Factory's READMEs
before v0.6 (``python src/train_bash.py --stage sft --do_train ... --finetuning_type lora --lora_target
q_proj,v_proj``), and the many projects that copied those lines (KB-QA ``LLMs/LLaMA/src/train_bash.py
--stage sft ... --finetuning_type lora``; a Sophgo port with ``--finetuning_type full ...
--disable_gradient_checkpointing``).

Read, never imported, only when the script's parser declares both ``stage`` and ``finetuning_type``
and the launch line gives ``--stage``, ``--finetuning_type`` and ``--do_train``:

- ``--finetuning_type lora``: ``peft.method`` lora, ``peft.rank`` from ``--lora_rank`` else the declared
  default, ``task.mode`` lora (nothing for task.mode when ``--quantization_bit`` is given: 4-bit
  bitsandbytes or ChatGLM's own quantizer, by version); ``full``/``freeze``: ``peft.method`` none;
  anything else (``p_tuning``: ChatGLM's P-Tuning v2) states nothing;
- ``memory.gradient_checkpointing``: on (``prepare_model_for_training(use_gradient_checkpointing=True)``,
  ChatGLM-Efficient-Tuning src/glmtuner/extras/misc.py:69,77-80; LLaMA-Factory's
  ``disable_gradient_checkpointing`` default False), off with ``--disable_gradient_checkpointing``;
- ``data.num_workers``: ``--dataloader_num_workers``, else TrainingArguments' default 0.

All medium: the meaning of each setting is the project's.
"""

from __future__ import annotations

from typing import Any, Optional

from preflight.adapters_api import Project, ScratchAdapter
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_STAGES = ("pt", "sft", "rm", "ppo", "dpo", "kto", "orpo")


def _flags(args: list[str]) -> dict[str, Optional[str]]:
    """``--key value`` / ``--key=value`` / ``--flag`` (None) of the script's argv."""
    out: dict[str, Optional[str]] = {}
    for i, tok in enumerate(args):
        if not tok.startswith("--"):
            continue
        name, eq, value = tok[2:].partition("=")
        if eq:
            out[name] = value
        else:
            out[name] = args[i + 1] if i + 1 < len(args) and not args[i + 1].startswith("--") else None
    return out


def _true(value: Optional[str]) -> bool:
    return value is None or value.lower() in ("true", "1", "yes")


def _where(text: str) -> tuple[Optional[str], Optional[int]]:
    path, _, line = text.rpartition(":")
    return (path or None, int(line)) if line.isdigit() else (text or None, None)


@register_adapter
class LlamaFactoryCliAdapter(ScratchAdapter):
    name = "llamafactory_cli"
    frameworks = ()

    def work(self, project: Project, plan: TrainingPlan) -> None:
        from preflight.adapters.cliargs_options import declared_options

        for script in self.scripts(project):
            flags = _flags(list(project.script_args(script)))
            kind, stage = flags.get("finetuning_type"), flags.get("stage")
            if kind is None or stage not in _STAGES or "do_train" not in flags or not _true(flags["do_train"]):
                continue
            try:
                decl = declared_options(script, project)
            except (SyntaxError, ValueError, RecursionError):
                continue
            if "finetuning_type" not in decl.options or "stage" not in decl.options:
                continue
            self._read(plan, project, flags, kind, decl.options)
            return

    def _cli(self, project: Project, flag: str, detail: str) -> Source:
        at = project.launch_at or (None, None)
        return Source("cli", at[0], at[1], f"--{flag}", detail)

    def _read(self, plan: TrainingPlan, project: Project, flags: dict[str, Optional[str]], kind: str,
              options: dict[str, Any]) -> None:
        how = f"--finetuning_type {kind} (declared {options['finetuning_type'].where})"
        if kind == "lora":
            self.add(plan, "peft.method", "lora", self._cli(project, "finetuning_type", how), "medium")
            if "quantization_bit" not in flags:
                self.add(plan, "task.mode", "lora", self._cli(project, "finetuning_type", how), "medium")
            rank = flags.get("lora_rank")
            opt = options.get("lora_rank")
            if rank is not None and rank.isdigit() and int(rank) >= 1:
                self.add(plan, "peft.rank", int(rank), self._cli(project, "lora_rank", f"--lora_rank {rank}"),
                         "medium")
            elif rank is None and opt is not None and isinstance(opt.default, int) \
                    and not isinstance(opt.default, bool) and opt.default >= 1:
                path, line = _where(opt.where)
                self.add(plan, "peft.rank", opt.default,
                         Source("default", path, line, "lora_rank",
                                f"--lora_rank not given: the declared default {opt.default} ({opt.where})"), "medium")
        elif kind in ("full", "freeze"):
            self.add(plan, "peft.method", "none", self._cli(project, "finetuning_type", how), "medium")
        else:
            return
        if "disable_gradient_checkpointing" in flags:
            off = _true(flags["disable_gradient_checkpointing"])
            self.add(plan, "memory.gradient_checkpointing", not off,
                     self._cli(project, "disable_gradient_checkpointing",
                               "--disable_gradient_checkpointing " + ("given" if off else "false")), "medium")
        else:
            self.add(plan, "memory.gradient_checkpointing", True,
                     self._cli(project, "finetuning_type",
                               f"{how}: the tuner enables gradient checkpointing unless "
                               "--disable_gradient_checkpointing (prepare_model_for_training)"), "medium")
        workers = flags.get("dataloader_num_workers")
        if workers is not None and workers.isdigit():
            self.add(plan, "data.num_workers", int(workers),
                     self._cli(project, "dataloader_num_workers", f"--dataloader_num_workers {workers}"), "medium")
        elif "dataloader_num_workers" not in flags:
            self.add(plan, "data.num_workers", 0,
                     Source("default", None, None, "dataloader_num_workers",
                            f"{how}: TrainingArguments dataloader_num_workers default 0"), "medium")
