"""OpenRLHF's trainers (``python -m openrlhf.cli.train_ppo_ray`` and the other
``openrlhf/cli/train_*.py``, vendored by its forks): what their options mean for the model that
trains, read from the launch line and the parser's declared defaults.

Checked on two forks at their pinned commits, TideDra/lmm-r1 @ f917f18 and RUCAIBox/R1-Searcher
@ 631167cb (``OpenRLHF-RAG/``), both keeping OpenRLHF's code:

- ``openrlhf/utils/deepspeed/deepspeed.py`` ``create_optimizer``: ``DeepSpeedCPUAdam if
  self.adam_offload else FusedAdam``, and ``get_train_ds_config(offload=adam_offload)`` puts the
  optimizer state on the CPU: ``--adam_offload`` -> ``optimizer.name`` DeepSpeedCPUAdam and
  ``dist.offload_optimizer`` cpu, absent -> FusedAdam and none;
- ``--bf16``: ``openrlhf/models/actor.py`` loads the weights in bfloat16 and the DeepSpeed config
  enables bf16 (fp32 master copies): ``precision.mode`` bf16 (absent: not said, the forks differ);
  a newer OpenRLHF's grouped ``--ds.param_dtype bf16|fp16`` (OpenRLHF/OpenRLHF @ 3c3be62
  ``openrlhf/utils/deepspeed/deepspeed_utils.py:49-50``; its ``--ds.adam_offload`` likewise);
- ``--flash_attn`` (or ``--packing_samples``, which turns it on in the ``train_*`` scripts):
  ``attn_implementation="flash_attention_2"`` in ``actor.py`` (absent: not said);
- the accumulation in ``DeepspeedStrategy.setup_distributed``: ``train_batch_size *
  ring_attn_size // micro_train_batch_size // world_size``, the world the Ray actor group
  (``--actor_num_nodes`` x ``--actor_num_gpus_per_node``, :mod:`ray_actor_group`).

Each option must be declared by the script's parser; facts are medium (the meaning is OpenRLHF's
code, not a documented contract).
"""

from __future__ import annotations

from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter
from preflight.script_index import Resolved
from preflight.sources import ParsedPython


def _entry(project: Project) -> Optional[ParsedPython]:
    for script in project.scripts:
        display = str(script.source.display).replace("\\", "/")
        folder, _, name = display.rpartition("/")
        if folder.endswith("openrlhf/cli") and name.startswith("train_") and name.endswith(".py") \
                and script.tree is not None:
            return script
    return None


def _int(got: Optional[Resolved]) -> Optional[int]:
    if got is None or isinstance(got.value, bool) or not isinstance(got.value, int) or got.value < 1:
        return None
    return int(got.value)


def _flag(got: Optional[Resolved]) -> Optional[bool]:
    return got.value if got is not None and isinstance(got.value, bool) else None


@register_adapter
class OpenRLHFAdapter(Adapter):
    name = "openrlhf"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        script = _entry(project)
        if script is None:
            return False
        declared = project.index(script).options
        return declared is not None and (declared("adam_offload") or declared("ds.adam_offload")) is not None

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        script = _entry(project)
        if script is None:
            return
        idx = project.index(script)
        declared = idx.options
        if declared is None:
            return

        def options(name: str) -> Optional[Resolved]:
            # a newer OpenRLHF groups them: --ds.adam_offload, --ds.param_dtype, --train.batch_size
            return declared(name) or declared(f"ds.{name}")

        shown = str(script.source.display)

        def add(field: str, value: Any, got: Resolved, detail: str) -> None:
            kind = "cli" if got.kind == "cli" else "code"
            where = shown if kind == "code" else None
            self.add_checked(plan, field, value, Source(kind, where, got.line if kind == "code" else None,
                                                        f"--{got.key}" if got.key else None,
                                                        f"OpenRLHF: {detail}"), "medium")

        offload = options("adam_offload")
        if _flag(offload) is not None and offload is not None:
            on = bool(offload.value)
            add("dist.offload_optimizer", "cpu" if on else "none", offload,
                "--adam_offload: DeepSpeed offloads the optimizer state to the CPU" if on
                else "no --adam_offload: the optimizer state stays on the GPU")
            add("optimizer.name", "DeepSpeedCPUAdam" if on else "FusedAdam", offload,
                "create_optimizer: DeepSpeedCPUAdam if adam_offload else FusedAdam")
        bf16 = options("bf16")
        dtype = options("param_dtype")
        if _flag(bf16) is True and bf16 is not None:
            add("precision.mode", "bf16", bf16, "--bf16: bfloat16 weights and DeepSpeed bf16 (fp32 master copies)")
        elif dtype is not None and dtype.value in ("bf16", "fp16"):
            add("precision.mode", dtype.value, dtype,
                f"--ds.param_dtype {dtype.value}: DeepSpeed {dtype.value} (fp32 master copies)")
        for name in ("flash_attn", "packing_samples"):
            got = options(name)
            if _flag(got) is True and got is not None:
                add("model.attn_implementation", "flash_attention_2", got,
                    f"--{name}: attn_implementation flash_attention_2")
                break
        self._accumulation(options, add)

    @staticmethod
    def _accumulation(options: Any, add: Any) -> None:
        total, micro = options("train_batch_size"), options("micro_train_batch_size")
        nodes, gpus = options("actor_num_nodes"), options("actor_num_gpus_per_node")
        values = [_int(total), _int(micro), _int(nodes), _int(gpus)]
        if any(v is None for v in values):
            return
        ring = options("ring_attn_size")
        ring_size = 1 if ring is None else _int(ring)
        if ring_size is None:
            return
        t, m, n, g = (int(v) for v in values)  # type: ignore[arg-type]
        world = n * g
        if (t * ring_size) % (m * world):
            return
        add("batch.grad_accum", t * ring_size // m // world, total,
            f"train_batch_size {t} x ring_attn_size {ring_size} // micro_train_batch_size {m} // {world} actor "
            "workers")
