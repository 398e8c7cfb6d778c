"""A Megatron-LM training script's plan from its launch line (``pretrain_gpt.py`` and the
other entry points that call ``megatron.training.pretrain``): the options are declared in
``megatron/training/arguments.py`` and parsed inside ``initialize_megatron``, so no parser of the
script says what they mean. NVIDIA/Megatron-LM @ d98e8a6 ``examples/llama/train_llama3_8b_h100_fp8.sh:36-145``
``torchrun ... pretrain_gpt.py --num-layers 32 --hidden-size 4096 --ffn-hidden-size 14336
--num-attention-heads 32 --group-query-attention --num-query-groups 8 --kv-channels 128 --swiglu
--normalization RMSNorm --untie-embeddings-and-output-weights --disable-bias-linear --micro-batch-size 1
--global-batch-size 128 --seq-length 8192 --bf16 --use-distributed-optimizer --num-workers 1 ...``.

Read from the flags given (``megatron/training/arguments.py``):

- ``--micro-batch-size``, ``--global-batch-size``, ``--seq-length``, ``--num-workers``;
- accumulation: global / (micro x data-parallel size), the data-parallel size the launcher's world
  over ``--tensor-model-parallel-size`` x ``--pipeline-model-parallel-size`` x
  ``--context-parallel-size`` (arguments.py ``data_parallel_size``), when it divides exactly;
- ``--bf16``/``--fp16``: 16-bit parameters with fp32 main copies in the optimizer (bf16, fp16);
  neither: fp32;
- ``--use-distributed-optimizer``: optimizer states and main parameters sharded over the
  data-parallel ranks (zero1); without it plain data parallel (ddp);
- ``--recompute-activations``/``--recompute-granularity``: activation checkpointing; neither: none;
- ``--optimizer`` (default adam);
- no option naming LoRA, PEFT or adapters: ``peft.method`` none (Megatron-LM's entry points train every
  parameter; ``--q-lora-rank``/``--kv-lora-rank`` size multi-latent attention, they are not LoRA);
- the size of a Llama-layout model (``--swiglu`` with ``--disable-bias-linear``): layers, hidden,
  FFN, heads, query groups, kv channels, vocabulary, tied or untied head, counted by
  :func:`preflight.estimate.arch.from_hf_config`.

All ``medium``: the flags are read as Megatron documents them, the script's code is not."""

from __future__ import annotations

from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_MARK = ("--micro-batch-size", "--global-batch-size", "--num-layers", "--tensor-model-parallel-size")


def _flags(words: list[str]) -> dict[str, str]:
    # a bash array element "--vocab-size 128256" expanded unquoted (${DATA_ARGS_LIST[@]}) is two words
    args = [part for w in words for part in (w.split() if w.startswith("--") and " " in w else [w])]
    out: dict[str, str] = {}
    for i, tok in enumerate(args):
        if not tok.startswith("--"):
            continue
        if "=" in tok:
            key, value = tok.split("=", 1)
            out[key] = value
            continue
        nxt = args[i + 1] if i + 1 < len(args) else None
        out[tok] = nxt if nxt is not None and not nxt.startswith("--") else ""
    return out


def _int(value: Optional[str]) -> Optional[int]:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


@register_adapter
class MegatronArgsAdapter(Adapter):
    name = "megatron_args"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        for script in project.scripts:
            if script.tree is None or not project.index(script).imports_any("megatron"):
                continue
            args = project.script_args(script)
            if sum(flag in args for flag in _MARK) >= 2:
                return True
        return False

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        script = next(s for s in project.scripts if s.tree is not None
                      and project.index(s).imports_any("megatron"))
        flags = _flags(project.script_args(script))

        def add(field: str, value: Any, key: str, detail: str) -> None:
            self.add_checked(plan, field, value, Source("cli", None, None, key,
                                                        f"{detail} (Megatron-LM's option, megatron/training/"
                                                        "arguments.py)"), "medium")

        for flag, field in (("--micro-batch-size", "batch.micro"), ("--global-batch-size", "batch.global"),
                            ("--seq-length", "data.seq_len"), ("--num-workers", "data.num_workers")):
            value = _int(flags.get(flag))
            if value is not None:
                add(field, value, flag, f"{flag} {value}")
        mode = "bf16" if "--bf16" in flags else "fp16" if "--fp16" in flags else "fp32"
        add("precision.mode", mode, "--bf16" if mode == "bf16" else "--fp16",
            f"{'--' + mode if mode != 'fp32' else 'neither --bf16 nor --fp16'}: "
            + ("16-bit parameters with fp32 main copies in the optimizer" if mode != "fp32" else "fp32 training"))
        recompute = "--recompute-activations" in flags or "--recompute-granularity" in flags
        add("memory.gradient_checkpointing", recompute, "--recompute-granularity",
            "--recompute-* given" if recompute else "no --recompute-activations/--recompute-granularity")
        sharded = "--use-distributed-optimizer" in flags
        add("dist.sharding", "zero1" if sharded else "ddp", "--use-distributed-optimizer",
            "--use-distributed-optimizer: optimizer states sharded over the data-parallel ranks" if sharded
            else "no --use-distributed-optimizer: every data-parallel rank holds the whole optimizer")
        add("optimizer.name", flags.get("--optimizer") or "adam", "--optimizer",
            f"--optimizer {flags['--optimizer']}" if flags.get("--optimizer") else "--optimizer default adam")
        if not any(w in f for f in flags if f not in ("--q-lora-rank", "--kv-lora-rank")
                   for w in ("lora", "peft", "adapter")):
            # the pretrain entry points train every parameter: arguments.py declares no adapter options
            # (--q-lora-rank/--kv-lora-rank are multi-latent attention's low-rank projections, not LoRA)
            add("peft.method", "none", "--micro-batch-size", "no LoRA/PEFT option: every parameter trains")
        self._accumulation(project, flags, add)
        self._size(flags, add)

    def _accumulation(self, project: Project, flags: dict[str, str], add) -> None:
        from preflight.adapters.launchers import parse_launch

        micro, total = _int(flags.get("--micro-batch-size")), _int(flags.get("--global-batch-size"))
        if not project.argv or micro is None or total is None:
            return
        info = parse_launch(project.argv)
        world = info.total_procs or ((info.nodes or 1) * info.procs_per_node if info.procs_per_node else None)
        if world is None:
            return
        split = 1
        for flag in ("--tensor-model-parallel-size", "--pipeline-model-parallel-size", "--context-parallel-size"):
            split *= _int(flags.get(flag)) or 1
        if split < 1 or world % split or total % (micro * (world // split)):
            return
        dp = world // split
        add("batch.grad_accum", total // (micro * dp), "--global-batch-size",
            f"--global-batch-size {total} / (--micro-batch-size {micro} x {dp} data-parallel ranks: {world} "
            f"processes over tensor x pipeline x context parallel {split})")

    def _size(self, flags: dict[str, str], add) -> None:
        if "--swiglu" not in flags or "--disable-bias-linear" not in flags:
            return
        layers, hidden = _int(flags.get("--num-layers")), _int(flags.get("--hidden-size"))
        heads, vocab = _int(flags.get("--num-attention-heads")), _int(flags.get("--vocab-size"))
        ffn = _int(flags.get("--ffn-hidden-size"))
        if None in (layers, hidden, heads, vocab, ffn):
            return
        groups = _int(flags.get("--num-query-groups")) if "--group-query-attention" in flags else heads
        config = {"model_type": "llama", "num_hidden_layers": layers, "hidden_size": hidden,
                  "num_attention_heads": heads, "num_key_value_heads": groups or heads, "intermediate_size": ffn,
                  "vocab_size": vocab, "tie_word_embeddings": "--untie-embeddings-and-output-weights" not in flags}
        channels = _int(flags.get("--kv-channels"))
        if channels:
            config["head_dim"] = channels
        from preflight.estimate.arch import ArchitectureError, from_hf_config

        try:
            total = from_hf_config(config, name="megatron").params_total
        except ArchitectureError:
            return
        add("model.num_parameters", total, "--num-layers",
            f"--num-layers {layers} --hidden-size {hidden} --ffn-hidden-size {ffn} --num-attention-heads {heads} "
            f"(query groups {groups}) --vocab-size {vocab} --swiglu --disable-bias-linear: {total:,} parameters "
            "counted as a Llama-layout decoder")
