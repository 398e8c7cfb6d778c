"""kohya-style trainers (kohya-ss/sd-scripts, kohya-ss/musubi-tuner and their forks): the shared
training options, declared by the project's parser helpers, and what the trainers do with them.

Both projects build their argparse parser from shared helpers (sd-scripts
``library/train_util.py`` ``add_training_arguments``/``add_optimizer_arguments``; musubi-tuner
``src/musubi_tuner/training/parser_common.py``) and hand the values to a trainer in a library
module (kohya-ss/sd-scripts @ its pinned commit ``train_network.py``, ``library/train_util.py``
``get_optimizer``/``prepare_accelerator``; kohya-ss/musubi-tuner @ 30c658c
``src/musubi_tuner/training/trainer_base.py``). A project counts as kohya-style when its parser
declares both ``--optimizer_type`` and ``--max_data_loader_n_workers``. Then, read from the launch
line (a declared default only where said):

- ``--optimizer_type X`` given: ``optimizer.name`` X (the trainers build the class of that name,
  ``bitsandbytes`` for the ``*8bit`` ones; a dotted ``module.Class`` gives its class name);
- ``--mixed_precision fp16|bf16`` given, with ``--full_fp16``/``--full_bf16`` absent: the
  Accelerator's autocast over fp32 trained weights (``amp_fp16``/``amp_bf16``); with one of them:
  pure 16-bit (``fp16``/``bf16``);
- ``--sdpa`` / ``--flash_attn``: ``model.attn_implementation`` sdpa / flash_attention_2;
- ``--gradient_checkpointing`` (a declared switch: absent is False), ``--torch_compile`` or
  ``--compile`` (likewise): ``memory.gradient_checkpointing``, ``compile.enabled``;
- ``--max_data_loader_n_workers N`` given: ``data.num_workers`` N (the trainers take
  ``min(N, cpu count)``: said in the detail);
- ``--fp8_base``: the frozen base cast to float8 (``precision.weights_bits`` 8).

Facts are medium (the meaning is the trainers' code, not a documented contract).
"""

from __future__ import annotations

from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter
from preflight.script_index import Resolved
from preflight.sources import ParsedPython


def _entry(project: Project) -> Optional[ParsedPython]:
    found = []
    for script in project.scripts:
        if script.tree is None:
            continue
        options = project.index(script).options
        if options is not None and options("optimizer_type") is not None \
                and options("max_data_loader_n_workers") is not None:
            found.append(script)
    return found[0] if len(found) == 1 else None


def _on(got: Optional[Resolved]) -> Optional[bool]:
    return got.value if got is not None and isinstance(got.value, bool) else None


@register_adapter
class KohyaOptionsAdapter(Adapter):
    name = "kohya_options"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return _entry(project) is not None

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        script = _entry(project)
        if script is None:
            return
        options = project.index(script).options
        assert options is not None
        shown = str(script.source.display)

        def add(field: str, value: Any, got: Resolved, detail: str) -> None:
            cli = got.kind == "cli"
            source = Source("cli" if cli else "code", None if cli else shown, None if cli else got.line,
                            f"--{got.key}" if got.key else None, f"kohya-style trainer: {detail}")
            self.add_checked(plan, field, value, source, "medium")

        optimizer = options("optimizer_type")
        if optimizer is not None and optimizer.kind == "cli" and isinstance(optimizer.value, str) \
                and optimizer.value.strip():
            name = optimizer.value.strip().rsplit(".", 1)[-1]
            add("optimizer.name", name, optimizer, f"--optimizer_type {optimizer.value}: the trainer builds {name}")
        self._precision(options, add)
        chosen = [(n, v) for n, v in (("sdpa", "sdpa"), ("flash_attn", "flash_attention_2"))
                  if _on(options(n)) is True]
        if len(chosen) == 1:
            got = options(chosen[0][0])
            assert got is not None
            add("model.attn_implementation", chosen[0][1], got, f"--{chosen[0][0]}")
        for names, field in ((("gradient_checkpointing",), "memory.gradient_checkpointing"),
                             (("torch_compile", "compile"), "compile.enabled")):
            for name in names:
                got = options(name)
                if _on(got) is not None and got is not None:
                    add(field, bool(got.value), got, f"--{name} " + ("given" if got.value else "not given"))
                    break
        workers = options("max_data_loader_n_workers")
        if workers is not None and workers.kind == "cli" and isinstance(workers.value, int) \
                and not isinstance(workers.value, bool) and workers.value >= 0:
            add("data.num_workers", workers.value, workers,
                f"--max_data_loader_n_workers {workers.value} (the trainer takes min(it, cpu count))")
        fp8 = options("fp8_base")
        if _on(fp8) is True and fp8 is not None:
            add("precision.weights_bits", 8, fp8, "--fp8_base: the frozen base model cast to float8")

    @staticmethod
    def _precision(options: Any, add: Any) -> None:
        mixed = options("mixed_precision")
        if mixed is None or mixed.kind != "cli" or mixed.value not in ("fp16", "bf16"):
            return
        full = options(f"full_{mixed.value}")
        if full is None or _on(full) is None:
            return
        if full.value:
            add("precision.mode", mixed.value, full, f"--full_{mixed.value}: the trained weights in {mixed.value}")
        else:
            add("precision.mode", f"amp_{mixed.value}", mixed,
                f"--mixed_precision {mixed.value}: Accelerator autocast over fp32 trained weights "
                f"(--full_{mixed.value} not given)")
